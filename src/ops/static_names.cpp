// The compiled part of <nt/static.hpp>: the alignment of operands by compile-time
// source maps and the messages, out of the templates (and of every consumer's
// translation unit).
#include <string>
#include <vector>

#include "nt/detail/static_core.hpp"

namespace nt::static_detail {

[[noreturn]] void throw_type_spec(errc code, std::span<const std::string_view> expected,
                                         std::string_view actual) {
    std::string want = "(";
    for (std::size_t a = 0; a < expected.size(); ++a)
        want += std::string(a ? "," : "") + (expected[a].empty() ? std::string("?") : std::string(expected[a]));
    want += ")";
    throw_error(code, "tensor_of: the tensor " + std::string(actual) + " does not have the type's " +
                          (code == errc::rank_mismatch ? "rank: the type names " + std::to_string(expected.size()) +
                                                             " axes " + want
                                                       : "names " + want) +
                          " (an unnamed axis fits only \"?\"). Fix: rename / refine_names the tensor, or name the "
                          "axes of the tensor_of type as the tensor has them");
}


[[noreturn]] void throw_static_sizes(std::string_view op, std::size_t axis, std::string_view axis_name,
                                            std::span<const std::string> shapes) {
    std::string listed;
    for (std::size_t i = 0; i < shapes.size(); ++i) listed += (i ? ", " : "") + std::string("input ") +
                                                              std::to_string(i) + " " + shapes[i];
    throw_error(errc::incompatible_sizes,
                std::string(op) + ": output axis " + std::to_string(axis) + " ('" +
                    (axis_name.empty() ? std::string("?") : std::string(axis_name)) +
                    "', paired at compile time) has sizes that are neither equal nor 1: " + listed +
                    ". Fix: slice or resize the operands so the paired axes agree");
}


void align_by_maps(std::string_view op, std::span<const detail::tensor_base* const> bases,
                          std::span<const std::int32_t* const> maps, std::size_t rank, map_alignment& al) {
    const std::size_t k = bases.size();
    for (std::size_t o = 0; o < rank; ++o) {
        std::int64_t size = 1;
        bool bad = false;
        name n;
        for (std::size_t i = 0; i < k; ++i) {
            const std::int32_t a = maps[i][o];
            if (a == inserted_axis) continue;
            const auto axis = static_cast<std::size_t>(a);
            const std::int64_t s = bases[i]->shape()[axis];
            if (!n && !bases[i]->names().empty()) n = bases[i]->names()[axis];
            if (s == 1) continue;
            if (size == 1) size = s;
            else if (s != size) bad = true;
        }
        if (bad) [[unlikely]] {
            std::vector<std::string> shapes;
            for (std::size_t i = 0; i < k; ++i) shapes.push_back(to_string(bases[i]->spec()));
            throw_static_sizes(op, o, n ? n.str() : std::string_view{}, shapes);
        }
        al.shape.push_back(size);
        al.output.push_back({size, n});
        for (std::size_t i = 0; i < k; ++i) {
            const std::int32_t a = maps[i][o];
            const auto axis = static_cast<std::size_t>(a);
            al.strides[i].push_back(a == inserted_axis || bases[i]->shape()[axis] == 1 ? 0 : bases[i]->strides()[axis]);
        }
    }
}


}  // namespace nt::static_detail
