// nt/nt.hpp: the umbrella header: every public ntensor header.
//
//     #include <nt/nt.hpp>
//     auto t = nt::zeros<float>({2, 3}, {"N", "C"});
#pragma once

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/creation.hpp"
#include "nt/dtype.hpp"
#include "nt/elementwise.hpp"
#include "nt/error.hpp"
#include "nt/index.hpp"
#include "nt/indices.hpp"
#include "nt/layout.hpp"
#include "nt/linalg.hpp"
#include "nt/match.hpp"
#include "nt/name.hpp"
#include "nt/names.hpp"
#include "nt/npy.hpp"
#include "nt/pipeline.hpp"
#include "nt/pipeline_config.hpp"
#include "nt/print.hpp"
#include "nt/promote.hpp"
#include "nt/rearrange.hpp"
#include "nt/reduce.hpp"
#include "nt/shape_config.hpp"
#include "nt/small_vector.hpp"
#include "nt/spec.hpp"
#include "nt/storage.hpp"
#include "nt/structure.hpp"
#include "nt/tensor.hpp"
#include "nt/threads.hpp"
#include "nt/version.hpp"
