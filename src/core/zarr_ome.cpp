// OME-Zarr (OME-NGFF 0.4) images on top of the zarr arrays of zarr.cpp.
#include "nt/zarr.hpp"
