// Operand alignment for element-wise operations: the matcher's plan turned into
// strides over the output shape.
#include <string>

#include "nt/elementwise.hpp"

namespace nt::detail {

namespace {

bool all_unnamed(std::span<const spec> specs) {
    for (const spec& s : specs)
        if (s.has_names()) return false;
    return true;
}

// NumPy's rule for unnamed operands, which policy `names` reproduces exactly (the
// test suite checks both against np.broadcast_shapes): no plan, no allocation.
bool align_unnamed(std::span<const spec> specs, std::span<const std::span<const std::int64_t>> strides,
                   alignment& out) {
    std::size_t rank = 0;
    for (const spec& s : specs) rank = std::max(rank, s.rank());
    out.output = spec();
    for (std::size_t o = 0; o < rank; ++o) {
        std::int64_t size = 1;
        for (const spec& s : specs) {
            if (o + s.rank() < rank) continue;
            const std::int64_t d = s.size(o + s.rank() - rank);
            if (d == 1) continue;
            if (size != 1 && d != size) return false;
            size = d;
        }
        out.output.push_back({size, {}});
    }
    for (std::size_t i = 0; i < specs.size(); ++i) {
        dims& st = out.strides[i];
        st.clear();
        const std::size_t shift = rank - specs[i].rank();
        for (std::size_t o = 0; o < rank; ++o) {
            if (o < shift || specs[i].size(o - shift) == 1) st.push_back(0);
            else st.push_back(strides[i][o - shift]);
        }
    }
    return true;
}

void strides_from_plan(const plan& p, std::span<const spec> specs,
                       std::span<const std::span<const std::int64_t>> strides, alignment& out) {
    for (std::size_t i = 0; i < p.inputs.size(); ++i) {
        dims& st = out.strides[i];
        st.clear();
        for (std::int32_t a : p.inputs[i].source_axes) {
            const auto axis = static_cast<std::size_t>(a);
            st.push_back(a == inserted_axis || specs[i].size(axis) == 1 ? 0 : strides[i][axis]);
        }
    }
}

[[noreturn]] void throw_for(std::string_view op_name, const mismatch& why) {
    throw_error(why.code, std::string(op_name) + ": " + why.message);
}

}  // namespace

void align_operands(std::string_view op_name, std::span<const spec> specs,
                    std::span<const std::span<const std::int64_t>> strides, alignment& out) {
    if (all_unnamed(specs) && align_unnamed(specs, strides, out)) return;
    // Reused per thread: a warm plan makes matching allocation-free.
    thread_local plan p;
    mismatch why;
    if (!try_match_into(specs, match_options{}, p, &why)) throw_for(op_name, why);
    out.output = p.output;
    strides_from_plan(p, specs, strides, out);
}

void align_to_destination(std::string_view op_name, const spec& destination, const spec& source,
                          std::span<const std::int64_t> source_strides, alignment& out) {
    out.output = destination;
    dims& st = out.strides[0];
    st.clear();
    if (!destination.has_names() && !source.has_names() && source.rank() <= destination.rank()) {
        const std::size_t shift = destination.rank() - source.rank();
        bool fits = true;
        for (std::size_t o = 0; o < destination.rank() && fits; ++o) {
            if (o < shift) {
                st.push_back(0);
                continue;
            }
            const std::int64_t d = source.size(o - shift);
            fits = d == 1 || d == destination.size(o);
            st.push_back(d == 1 ? 0 : source_strides[o - shift]);
        }
        if (fits) return;
        st.clear();
    }
    const match_result r = try_broadcast_to(source, destination);
    if (!r.ok()) throw_for(op_name, r.error());
    const spec specs[1] = {source};
    const std::span<const std::int64_t> strides[1] = {source_strides};
    strides_from_plan(*r, specs, strides, out);
}

void throw_out_shape(std::string_view op_name, const spec& out, const spec& expected) {
    throw_error(errc::invalid_argument, std::string(op_name) + ": the out tensor " + to_string(out) +
                                            " does not have the result's shape " + to_string(expected) +
                                            ". Fix: allocate out with that shape (nt::empty<T>(spec))");
}

void throw_read_only(std::string_view op_name, const spec& destination) {
    throw_error(errc::read_only,
                std::string(op_name) + ": the destination " + to_string(destination) +
                    " is a read-only view (a broadcast axis or overlapping windows make several indices share one "
                    "element). Fix: write into clone() or contiguous() of it instead");
}

}  // namespace nt::detail
