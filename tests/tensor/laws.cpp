// Laws every view op satisfies, on seeded random shapes (reproduce with --rng-seed):
//   1. the view shares storage with its base (or, for ops that may copy, exactly
//      when NumPy's rule allows a view);
//   2. every reachable offset lies inside the storage;
//   3. to_vector(), clone() and contiguous() agree with a naive element walk;
//   4. a write through a writable view is seen in the base, at one element.
#include "core_testing.hpp"

#include <functional>
#include <numeric>

using namespace core_testing;

namespace {

using T = std::int64_t;
using tensor = nt::Tensor<T>;

// Naive row-major walk of a tensor's elements straight from storage and layout.
std::vector<T> walk(const tensor& t) {
    std::vector<T> out;
    if (t.size() == 0) return out;
    const auto* storage = reinterpret_cast<const T*>(t.base().storage());
    nt::dims idx(t.rank(), 0);
    for (;;) {
        out.push_back(storage[t.layout().offset_of(idx.span())]);
        std::size_t d = t.rank();
        for (;;) {
            if (d == 0) return out;
            --d;
            if (++idx[d] < t.shape()[d]) break;
            idx[d] = 0;
        }
    }
}

// A random base: arange over a random shape, sometimes named, sometimes made
// non-contiguous by a reversed slice or a transpose.
tensor random_base() {
    const shape_t s = random_shape(0, 5);
    auto t = nt::arange<T>(std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>())).reshape(s);
    if (t.rank() > 0 && uniform(0, 1)) {
        std::vector<nt::name> n;
        const char* pool[] = {"A", "B", "C", "D", "E"};
        for (std::size_t i = 0; i < t.rank(); ++i) n.push_back(uniform(0, 2) ? nt::name(pool[i]) : nt::name{});
        t = t.rename(n);
    }
    if (t.rank() >= 2 && uniform(0, 2) == 0) t = t.transpose();
    if (t.rank() >= 1 && uniform(0, 2) == 0) t = t.slice(0, std::nullopt, std::nullopt, -1);
    return t;
}

std::int64_t pick_axis(const tensor& t) { return uniform(-static_cast<std::int64_t>(t.rank()), static_cast<std::int64_t>(t.rank()) - 1); }

std::vector<nt::Axis> random_permutation(std::size_t n) {
    std::vector<std::int64_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng());
    return std::vector<nt::Axis>(p.begin(), p.end());
}

// A shape with the same element count: the sizes split and merged at random.
shape_t random_reshape(const tensor& t) {
    shape_t factors;
    for (auto s : t.shape()) {
        if (s == 4 && uniform(0, 1)) {
            factors.push_back(2);
            factors.push_back(2);
        } else {
            factors.push_back(s);
        }
    }
    shape_t out;
    for (auto f : factors) {
        if (!out.empty() && uniform(0, 2) == 0) out.back() *= f;
        else out.push_back(f);
        if (uniform(0, 4) == 0) out.push_back(1);
    }
    if (!out.empty() && t.size() > 0 && uniform(0, 2) == 0) out[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(out.size()) - 1))] = -1;
    return out;
}

struct view_op {
    const char* name;
    bool may_copy;  // reshape-like: a view only when NumPy's rule allows
    std::function<std::optional<tensor>(const tensor&)> apply;
};

const std::vector<view_op>& ops() {
    static const std::vector<view_op> list = {
        {"index", false, [](const tensor& t) -> std::optional<tensor> {
             std::vector<nt::detail::index_item> items;
             const auto n = static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(t.rank())));
             for (std::size_t k = 0; k < n; ++k) {
                 const std::int64_t size = t.shape()[k];
                 const auto kind = uniform(0, 2);
                 if (kind == 0 && size > 0) items.push_back(nt::detail::to_index_item(uniform(-size, size - 1)));
                 else if (kind == 1) items.push_back(nt::detail::to_index_item(nt::all));
                 else items.push_back(nt::detail::to_index_item(nt::range(uniform(-5, 5), uniform(-5, 5), uniform(0, 1) ? uniform(1, 3) : -uniform(1, 3))));
             }
             return tensor(t.base().index(items));
         }},
        {"reshape", true, [](const tensor& t) -> std::optional<tensor> { return t.reshape(random_reshape(t)); }},
        {"reshape_fortran", true, [](const tensor& t) -> std::optional<tensor> { return t.reshape(random_reshape(t), nt::order::fortran); }},
        {"view", false, [](const tensor& t) -> std::optional<tensor> {
             const shape_t s = random_reshape(t);
             try {
                 return t.view(s);
             } catch (const nt::error& e) {
                 CHECK(e.code() == nt::errc::not_a_view);
                 return std::nullopt;
             }
         }},
        {"flatten", true, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() == 0) return t.flatten();
             auto a = uniform(0, static_cast<std::int64_t>(t.rank()) - 1), b = uniform(a, static_cast<std::int64_t>(t.rank()) - 1);
             return t.flatten(a, b);
         }},
        {"unflatten", false, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() == 0) return std::nullopt;
             const auto a = pick_axis(t);
             const std::int64_t n = t.size(a);
             if (n == 4) return t.unflatten(a, {2, -1});
             return t.unflatten(a, {1, n, 1});
         }},
        {"squeeze", false, [](const tensor& t) -> std::optional<tensor> {
             for (std::size_t k = 0; k < t.rank(); ++k)
                 if (t.shape()[k] == 1) return t.squeeze(static_cast<std::int64_t>(k));
             return t.squeeze_all();
         }},
        {"unsqueeze", false, [](const tensor& t) -> std::optional<tensor> {
             return t.unsqueeze(uniform(-static_cast<std::int64_t>(t.rank()) - 1, static_cast<std::int64_t>(t.rank())));
         }},
        {"expand_dims", false, [](const tensor& t) -> std::optional<tensor> {
             const auto r = static_cast<std::int64_t>(t.rank()) + 2;
             std::int64_t a = uniform(0, r - 1), b = uniform(0, r - 1);
             if (a == b) b = (b + 1) % r;
             return t.expand_dims({a, b - r});
         }},
        {"transpose", false, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() < 2) return std::nullopt;
             return t.transpose();
         }},
        {"swap_axes", false, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() == 0) return std::nullopt;
             return t.swap_axes(pick_axis(t), pick_axis(t));
         }},
        {"permute", false, [](const tensor& t) -> std::optional<tensor> { return t.permute(random_permutation(t.rank())); }},
        {"move_axis", false, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() == 0) return std::nullopt;
             return t.move_axis(pick_axis(t), pick_axis(t));
         }},
        {"move_axes", false, [](const tensor& t) -> std::optional<tensor> {
             std::vector<std::int64_t> pos(t.rank());
             std::iota(pos.begin(), pos.end(), 0);
             std::shuffle(pos.begin(), pos.end(), rng());
             return t.move_axes(pos);
         }},
        {"slice", false, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() == 0) return std::nullopt;
             const std::int64_t step = uniform(0, 1) ? uniform(1, 3) : -uniform(1, 3);
             std::optional<std::int64_t> start, stop;
             if (uniform(0, 1)) start = uniform(-6, 6);
             if (uniform(0, 1)) stop = uniform(-6, 6);
             return t.slice(pick_axis(t), start, stop, step);
         }},
        {"unfold", false, [](const tensor& t) -> std::optional<tensor> {
             if (t.rank() == 0) return std::nullopt;
             const auto a = pick_axis(t);
             return t.unfold(a, uniform(0, t.size(a)), uniform(1, 3));
         }},
        {"broadcast_to", false, [](const tensor& t) -> std::optional<tensor> {
             shape_t target;
             for (auto s : t.shape()) target.push_back(s == 1 ? uniform(0, 3) : s);
             if (uniform(0, 1)) target.insert(target.begin(), uniform(0, 3));
             return t.broadcast_to(target);
         }},
        {"broadcast_left", false, [](const tensor& t) -> std::optional<tensor> { return t.broadcast_left({uniform(1, 3)}); }},
        {"align_to", false, [](const tensor& t) -> std::optional<tensor> {
             std::vector<std::string_view> order;
             for (nt::name n : t.names())
                 if (n) order.push_back(n.str());
             std::shuffle(order.begin(), order.end(), rng());
             order.insert(order.begin() + uniform(0, static_cast<std::int64_t>(order.size())), "...");
             if (uniform(0, 1)) order.push_back("Z");
             return tensor(t.base().align_to(order));
         }},
        {"rename", false, [](const tensor& t) -> std::optional<tensor> { return t.rename({}); }},
    };
    return list;
}

void check_laws(const view_op& op, const tensor& base, const tensor& v) {
    INFO("op " << op.name << ": base " << nt::to_string(base.spec()) << " strides " << nt::shape_string(base.strides())
               << " -> view " << nt::to_string(v.spec()) << " strides " << nt::shape_string(v.strides()) << " offset "
               << v.layout().offset());
    // 1. storage
    if (op.may_copy) {
        const bool view_possible = v.shares_storage(base);
        if (!view_possible) CHECK_FALSE(v.is_read_only());
    } else {
        CHECK(v.shares_storage(base));
        CHECK(v.base().storage() == base.base().storage());
    }
    if (base.is_read_only() && v.shares_storage(base)) CHECK(v.is_read_only());
    // 2. offsets in range
    const auto bounds = v.layout().required_span();
    if (!bounds.empty) {
        CHECK(bounds.min >= 0);
        CHECK(bounds.max < v.base().extent());
    }
    CHECK(v.names().size() == v.rank());
    // 3. copies round-trip the values
    const std::vector<T> expected = walk(v);
    CHECK(v.to_vector() == expected);
    const tensor c = v.clone();
    CHECK(c.to_vector() == expected);
    CHECK(c.is_contiguous());
    CHECK_FALSE(c.is_read_only());
    CHECK_FALSE(c.shares_storage(base));
    CHECK(v.contiguous().to_vector() == expected);
    CHECK(v.contiguous().is_contiguous());
    CHECK(std::equal(c.names().begin(), c.names().end(), v.names().begin(), v.names().end()));
    // 4. a write through a writable view is seen in the base, at one element
    if (!v.is_read_only() && v.size() > 0 && v.shares_storage(base)) {
        std::vector<nt::detail::index_item> idx;
        for (auto s : v.shape()) idx.push_back(nt::detail::to_index_item(uniform(0, s - 1)));
        tensor one(v.base().index(idx));
        REQUIRE(one.rank() == 0);
        const T before = one.at();
        one.fill(-1);
        const auto after = base.to_vector();
        CHECK(std::count(after.begin(), after.end(), T(-1)) == 1);
        CHECK(std::count(after.begin(), after.end(), before) == 0);
        one.fill(before);
    }
}

}  // namespace

TEST_CASE("laws of every view op on random tensors", "[laws]") {
    for (const view_op& op : ops()) {
        for (int trial = 0; trial < 60; ++trial) {
            const tensor base = random_base();
            std::optional<tensor> v;
            try {
                v = op.apply(base);
            } catch (const nt::error& e) {
                // Only data-dependent refusals are expected (e.g. a target that does
                // not fit); none of them may be anything but an nt::error.
                INFO("op " << op.name << " on " << nt::to_string(base.spec()) << ": " << e.what());
                CHECK((e.code() == nt::errc::duplicate_name || e.code() == nt::errc::invalid_spec));
                continue;
            }
            if (!v) continue;
            check_laws(op, base, *v);
            // views of views
            std::optional<tensor> w;
            try {
                w = ops()[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(ops().size()) - 1))].apply(*v);
            } catch (const nt::error&) {
                continue;
            }
            if (w && w->shares_storage(*v)) {
                const auto b = w->layout().required_span();
                if (!b.empty) CHECK((b.min >= 0 && b.max < w->base().extent()));
                CHECK(w->to_vector() == walk(*w));
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("copies round-trip for every element type", "[laws]", nt::test::element_types) {
    for (int trial = 0; trial < 40; ++trial) {
        const shape_t s = random_shape(0, 4);
        auto t = nt::zeros<TestType>(s);
        auto flat = t.reshape({-1});
        for (std::int64_t i = 0; i < t.size(); ++i) flat(i) = static_cast<TestType>(uniform(0, 1) ? uniform(0, 100) : 0);
        auto v = t.rank() >= 2 ? t.transpose().slice(0, std::nullopt, std::nullopt, -1) : t;
        auto c = v.clone();
        CHECK(c.to_vector() == v.to_vector());
        CHECK(v.contiguous().to_vector() == v.to_vector());
        auto back = nt::zeros<TestType>(s);
        auto bv = back.rank() >= 2 ? back.transpose().slice(0, std::nullopt, std::nullopt, -1) : back;
        bv.assign(c);
        CHECK(back.to_vector() == t.to_vector());
    }
}
