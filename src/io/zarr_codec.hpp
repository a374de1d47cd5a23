// Internal: the zarr chunk codecs (zlib, gzip, zstd, blosc), one home for what the
// libraries are asked and how their failures become errors. Only zarr_codec.cpp
// sees zlib.h, zstd.h and blosc.h.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "nt/zarr.hpp"

namespace nt::detail {

/// Throws unsupported_dtype unless ntensor can encode and decode `c` (`where`
/// names the store).
void check_codec(const zarr::codec& c, std::string_view where);

/// Decodes one stored chunk into exactly `size` bytes at `out`. Throws format_error
/// naming `where` (the store and chunk key) when the data is corrupt, truncated or
/// decodes to another size.
void decode_chunk(const zarr::codec& c, std::string_view stored, std::byte* out, std::size_t size,
                  std::string_view where);

/// The stored form of `size` bytes of elements of `item_size` bytes, into `out`
/// (resized; a buffer reused from chunk to chunk keeps its pages).
void encode_chunk(const zarr::codec& c, const std::byte* data, std::size_t size, std::size_t item_size,
                  std::string_view where, std::string& out);

}  // namespace nt::detail
