// copy_strided / fill_strided against the reference, for several element sizes.
#include "engine.hpp"
#include "nt/threads.hpp"
#include "nt/error.hpp"
#include "simd.hpp"
#include "nt_test_simd.hpp"

#include "engine_testing.hpp"

#include <cstring>
#include <utility>

using namespace engine_testing;

namespace {

template <std::size_t Size>
struct blob {
    unsigned char b[Size];
    friend bool operator==(const blob& x, const blob& y) { return std::memcmp(x.b, y.b, Size) == 0; }
};

/// Random bytes in every element.
template <class T>
void fill_random(std::vector<T>& v) {
    auto* bytes = reinterpret_cast<unsigned char*>(v.data());
    for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) bytes[i] = static_cast<unsigned char>(uniform(0, 255));
}

template <class T>
void check_copy(const dims& shape) {
    const layout ld = random_layout(shape, false), ls = random_layout(shape, true);
    std::vector<T> src(static_cast<std::size_t>(ls.span));
    fill_random(src);
    std::vector<T> expect(static_cast<std::size_t>(ld.span));
    std::memset(static_cast<void*>(expect.data()), 0xAB, expect.size() * sizeof(T));
    for_each_index(shape, {&ld.strides, &ls.strides}, [&](const auto& off) {
        expect[static_cast<std::size_t>(ld.offset + off[0])] = src[static_cast<std::size_t>(ls.offset + off[1])];
    });
    INFO("shape " << text(shape) << " dst " << text(ld.strides) << " src " << text(ls.strides) << " size "
                  << sizeof(T));
    for (int threads : {1, 2}) {
        nt::set_num_threads(threads);
        std::vector<T> dst(static_cast<std::size_t>(ld.span));
        std::memset(static_cast<void*>(dst.data()), 0xAB, dst.size() * sizeof(T));
        nt::detail::copy_strided(dst.data() + ld.offset, ld.strides.span(), src.data() + ls.offset, ls.strides.span(),
                                 shape.span(), sizeof(T));
        REQUIRE(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(T)) == 0);
    }
}

}  // namespace

TEST_CASE("engine: copy_strided matches the reference", "[engine][copy]") {
    thread_guard guard;
    for (int i = 0; i < 200; ++i) {
        const dims shape = random_shape();
        check_copy<blob<4>>(shape);
        check_copy<blob<1>>(shape);
    }
    for (int i = 0; i < 60; ++i) {
        const dims shape = random_shape();
        check_copy<blob<2>>(shape);
        check_copy<blob<8>>(shape);
        check_copy<blob<16>>(shape);
        check_copy<blob<12>>(shape);
    }
    // Threaded sizes, including one long contiguous run split by columns.
    check_copy<blob<4>>(dims{300000});
    check_copy<blob<4>>(dims{64, 48, 33});
    check_copy<blob<8>>(dims{257, 311});
    check_copy<blob<4>>(dims{3, 256, 97});
    check_copy<blob<4>>(dims{3, 100003});  // few long rows: column pieces over every row
    check_copy<blob<2>>(dims{5, 150001});
}

TEST_CASE("engine: transpose and unfold copies", "[engine][copy]") {
    thread_guard guard;
    for (int threads : {1, 2}) {
        nt::set_num_threads(threads);
        // (300, 200) transposed.
        std::vector<float> src(300 * 200), dst(300 * 200);
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = float(i);
        const dims shape{200, 300}, ds{300, 1}, ss{1, 200};
        nt::detail::copy_strided(dst.data(), ds.span(), src.data(), ss.span(), shape.span(), sizeof(float));
        bool ok = true;
        for (std::int64_t i = 0; i < 200; ++i)
            for (std::int64_t j = 0; j < 300; ++j) ok &= dst[std::size_t(i * 300 + j)] == src[std::size_t(j * 200 + i)];
        CHECK(ok);
        // Sliding windows of 8 over 10000 elements.
        const std::int64_t n = 10000, w = 8;
        std::vector<float> win(std::size_t((n - w + 1) * w));
        const dims wshape{n - w + 1, w}, wds{w, 1}, wss{1, 1};
        nt::detail::copy_strided(win.data(), wds.span(), src.data(), wss.span(), wshape.span(), sizeof(float));
        ok = true;
        for (std::int64_t i = 0; i < n - w + 1; ++i)
            for (std::int64_t j = 0; j < w; ++j) ok &= win[std::size_t(i * w + j)] == src[std::size_t(i + j)];
        CHECK(ok);
    }
}

TEST_CASE("engine: fill_strided", "[engine][copy]") {
    const dims shape{3, 4}, st{1, 3};
    double out[12] = {};
    const double v = 2.25;
    nt::detail::fill_strided(out, st.span(), shape.span(), &v, sizeof v);
    for (double x : out) CHECK(x == 2.25);
    const dims zero_shape{0, 5};
    nt::detail::fill_strided(nullptr, st.span(), zero_shape.span(), &v, sizeof v);
}

namespace {

/// A (rows, cols) copy where exactly one side is transposed: dst row-major and src
/// column-major (or the reverse), starting `shift` elements into both buffers.
template <class T>
void check_transposing(std::int64_t rows, std::int64_t cols, bool dst_row_major, std::int64_t shift) {
    const dims shape{rows, cols}, row_major{cols, 1}, col_major{1, rows};
    const dims& ds = dst_row_major ? row_major : col_major;
    const dims& ss = dst_row_major ? col_major : row_major;
    std::vector<T> src(static_cast<std::size_t>(rows * cols + shift)), dst(src.size()), expect(src.size());
    fill_random(src);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            expect[static_cast<std::size_t>(shift + r * ds[0] + c * ds[1])] =
                src[static_cast<std::size_t>(shift + r * ss[0] + c * ss[1])];
    nt::detail::copy_strided(dst.data() + shift, ds.span(), src.data() + shift, ss.span(), shape.span(), sizeof(T));
    INFO("shape (" << rows << "," << cols << ") element size " << sizeof(T) << (dst_row_major ? " dst" : " src")
                   << " row-major, shift " << shift);
    CHECK(std::memcmp(dst.data() + shift, expect.data() + shift, static_cast<std::size_t>(rows * cols) * sizeof(T)) ==
          0);
}

/// transpose_block alone, dst(r, i) = src(i, r), rows of both sides padded: blocks
/// taller than a copy's tiles (line passes, fetching ahead, every tail).
template <class T>
void check_transpose_block(std::int64_t rows, std::int64_t cols) {
    const std::int64_t dst_row = cols + 3, src_row = rows + 5;
    std::vector<T> src(static_cast<std::size_t>(cols * src_row)), dst(static_cast<std::size_t>(rows * dst_row));
    fill_random(src);
    std::memset(static_cast<void*>(dst.data()), 0xAB, dst.size() * sizeof(T));
    std::vector<T> expect = dst;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t i = 0; i < cols; ++i)
            expect[static_cast<std::size_t>(r * dst_row + i)] = src[static_cast<std::size_t>(i * src_row + r)];
    REQUIRE(nt::detail::transpose_block(dst.data(), dst_row * static_cast<std::int64_t>(sizeof(T)), src.data(),
                                        src_row * static_cast<std::int64_t>(sizeof(T)), rows, cols, sizeof(T)));
    INFO("transpose_block (" << rows << "," << cols << ") element size " << sizeof(T));
    CHECK(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(T)) == 0);
}

/// An image's channels apart ((count, k) interleaved -> k rows of count) or together
/// (the reverse), k rows against k interleaved elements, the rows `gap` elements
/// longer than count; on the caller's threads (on several, each column piece of the
/// copy still covers all k rows).
template <class T>
void check_interleaving(std::int64_t k, std::int64_t count, bool apart, std::int64_t gap) {
    const std::int64_t row = count + gap;
    const dims rows_shape{k, count}, rows_strides{row, 1}, groups_strides{1, k};
    const dims groups_shape{count, k}, groups_as_groups{k, 1}, rows_as_groups{1, row};
    std::vector<T> src(static_cast<std::size_t>(k * row)), dst(src.size()), expect(src.size());
    fill_random(src);
    std::memset(static_cast<void*>(dst.data()), 0xAB, dst.size() * sizeof(T));
    std::memcpy(static_cast<void*>(expect.data()), dst.data(), dst.size() * sizeof(T));
    for (std::int64_t j = 0; j < k; ++j)
        for (std::int64_t i = 0; i < count; ++i) {
            const auto in_rows = static_cast<std::size_t>(j * row + i), in_groups = static_cast<std::size_t>(i * k + j);
            if (apart) expect[in_rows] = src[in_groups];
            else expect[in_groups] = src[in_rows];
        }
    if (apart)
        nt::detail::copy_strided(dst.data(), rows_strides.span(), src.data(), groups_strides.span(), rows_shape.span(),
                                 sizeof(T));
    else
        nt::detail::copy_strided(dst.data(), groups_as_groups.span(), src.data(), rows_as_groups.span(),
                                 groups_shape.span(), sizeof(T));
    INFO("k " << k << " count " << count << " element size " << sizeof(T) << (apart ? " apart" : " together")
              << " gap " << gap);
    CHECK(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(T)) == 0);
}

/// An image's channels taken apart from a crop: (h, w, k) of a (rows, cols, k) source,
/// starting at (top, left), into a (k, h, w) destination whose rows are `gap` longer.
template <class T>
void check_crop_apart(std::int64_t k, std::int64_t h, std::int64_t w, std::int64_t cols, std::int64_t gap) {
    const std::int64_t top = 2, left = 3, rows = top + h + 1, dst_row = w + gap;
    const dims shape{k, h, w}, dst_strides{h * dst_row, dst_row, 1}, src_strides{1, cols * k, k};
    std::vector<T> src(static_cast<std::size_t>(rows * cols * k)), dst(static_cast<std::size_t>(k * h * dst_row));
    fill_random(src);
    std::memset(static_cast<void*>(dst.data()), 0xAB, dst.size() * sizeof(T));
    std::vector<T> expect = dst;
    for (std::int64_t c = 0; c < k; ++c)
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x)
                expect[static_cast<std::size_t>(c * h * dst_row + y * dst_row + x)] =
                    src[static_cast<std::size_t>(((top + y) * cols + left + x) * k + c)];
    nt::detail::copy_strided(dst.data(), dst_strides.span(), src.data() + (top * cols + left) * k, src_strides.span(),
                             shape.span(), sizeof(T));
    INFO("k " << k << " crop (" << h << ", " << w << ") of " << cols << " columns, element size " << sizeof(T)
              << ", gap " << gap << ", " << nt::get_num_threads() << " threads");
    CHECK(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(T)) == 0);
}

/// An image batch's channels moved and its other two axes swapped in one copy:
/// together, (n, k, h, w) -> (n, w, h, k); apart, (n, h, w, k) -> (n, k, w, h).
template <class T>
void check_channels_transposed(std::int64_t n, std::int64_t k, std::int64_t h, std::int64_t w, bool together) {
    const std::int64_t count = n * k * h * w;
    const dims shape = together ? dims{n, k, h, w} : dims{n, h, w, k};
    const dims src_strides = together ? dims{k * h * w, h * w, w, 1} : dims{h * w * k, w * k, k, 1};
    const dims dst_strides = together ? dims{w * h * k, 1, k, h * k} : dims{k * w * h, 1, h, w * h};
    std::vector<T> src(static_cast<std::size_t>(count)), dst(src.size()), expect(src.size());
    fill_random(src);
    for_each_index(shape, {&dst_strides, &src_strides}, [&](const auto& off) {
        expect[static_cast<std::size_t>(off[0])] = src[static_cast<std::size_t>(off[1])];
    });
    nt::detail::copy_strided(dst.data(), dst_strides.span(), src.data(), src_strides.span(), shape.span(), sizeof(T));
    INFO((together ? "together" : "apart") << " n " << n << " k " << k << " (" << h << ", " << w << ") element size "
                                           << sizeof(T) << ", " << nt::get_num_threads() << " threads");
    CHECK(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(T)) == 0);
}

}  // namespace

TEST_CASE("engine: channels moved and the image transposed in one copy", "[engine][copy]") {
    thread_guard guard;
    for (const int threads : {1, 2}) {
        nt::set_num_threads(threads);
        for (const bool together : {true, false})
            for (const std::int64_t k : {2, 3, 4}) {
                for (const auto& [h, w] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                         {16, 16}, {37, 45}, {100, 23}, {8, 40}, {200, 190}}) {
                    check_channels_transposed<blob<1>>(1, k, h, w, together);
                    check_channels_transposed<blob<2>>(1, k, h, w, together);
                    check_channels_transposed<blob<4>>(2, k, h, w, together);
                    check_channels_transposed<blob<8>>(1, k, h, w, together);
                    check_channels_transposed<blob<16>>(1, k, h, w, together);
                }
                // Above the parallel threshold: threads take blocks of several images.
                check_channels_transposed<blob<4>>(3, k, 130, 170, together);
            }
    }
}

TEST_CASE("engine: channels apart from a crop, on one and two threads", "[engine][copy]") {
    // The crop's rows do not merge into one run; the copy still takes each column's
    // channels together, and two threads split the rows in whole groups of channels.
    thread_guard guard;
    for (const int threads : {1, 2}) {
        nt::set_num_threads(threads);
        for (const std::int64_t k : {2, 3, 4})
            for (const std::int64_t gap : {0, 5}) {
                check_crop_apart<blob<1>>(k, 7, 70, 80, gap);
                check_crop_apart<blob<2>>(k, 5, 64, 70, gap);
                check_crop_apart<blob<4>>(k, 9, 100, 111, gap);
                check_crop_apart<blob<8>>(k, 4, 67, 70, gap);
                check_crop_apart<blob<16>>(k, 3, 66, 70, gap);
                check_crop_apart<blob<4>>(k, 6, 63, 70, gap);  // narrow: element by element
            }
        // Above the parallel threshold, with an odd number of rows per channel.
        check_crop_apart<blob<1>>(3, 151, 301, 310, 0);
        check_crop_apart<blob<4>>(4, 97, 389, 400, 3);
    }
}

TEST_CASE("engine: channels apart and together agree on every SIMD target this CPU runs", "[engine][copy][simd]") {
    thread_guard guard;
    nt::set_num_threads(1);
    nt::test::for_each_simd_target([](const std::string& target) {
        INFO("target " << target);
        for (const std::int64_t k : {2, 3, 4})
            for (const std::int64_t count : {1, 5, 64, 67, 1000})
                for (const bool apart : {true, false})
                    for (const std::int64_t gap : {0, 3}) {
                        check_interleaving<blob<1>>(k, count, apart, gap);
                        check_interleaving<blob<2>>(k, count, apart, gap);
                        check_interleaving<blob<4>>(k, count, apart, gap);
                        check_interleaving<blob<8>>(k, count, apart, gap);
                        check_interleaving<blob<16>>(k, count, apart, gap);
                    }
    });
    // Threads split the columns, each piece over all k rows: the channels stay together.
    nt::set_num_threads(2);
    for (const bool apart : {true, false}) {
        check_interleaving<blob<1>>(3, 300001, apart, 0);
        check_interleaving<blob<4>>(4, 200003, apart, 5);
    }
}

TEST_CASE("engine: transposing copies agree on every SIMD target this CPU runs", "[engine][copy][simd]") {
    thread_guard guard;
    nt::set_num_threads(1);
    const std::vector<std::string> targets = nt::detail::simd_targets();
    REQUIRE(!targets.empty());
    for (const std::string& target : targets) {
        nt::detail::force_simd_target(target);
        INFO("target " << target);
        CHECK(nt::detail::simd_target() == target);
        for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {8, 8}, {9, 13}, {37, 45}, {64, 100}, {3, 20}, {130, 7}, {33, 257}, {50, 77}, {17, 8}, {96, 41}})
            for (const bool dst_row_major : {true, false})
                for (const std::int64_t shift : {0, 1}) {
                    check_transposing<blob<4>>(rows, cols, dst_row_major, shift);
                    check_transposing<blob<8>>(rows, cols, dst_row_major, shift);
                    check_transposing<blob<2>>(rows, cols, dst_row_major, shift);
                    check_transposing<blob<1>>(rows, cols, dst_row_major, shift);
                }
        for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {300, 40}, {200, 77}, {129, 130}, {64, 16}, {15, 300}}) {
            check_transpose_block<blob<1>>(rows, cols);
            check_transpose_block<blob<2>>(rows, cols);
            check_transpose_block<blob<4>>(rows, cols);
            check_transpose_block<blob<8>>(rows, cols);
        }
    }
    nt::detail::force_simd_target("");
    CHECK(nt::detail::simd_target() == targets.front());
    CHECK_THROWS_AS(nt::detail::force_simd_target("no-such-target"), nt::error);
}
