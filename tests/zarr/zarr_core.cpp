// nt/zarr.hpp without Python: round trips, regions, names, errors.
#include <catch2/catch.hpp>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"
