// src/python/imaging.cpp: the imaging operations over named spatial axes
// (imaging.md): convolution, pooling and resampling, filters, binary morphology,
// labels, distances, sliding-window inference. Keywords as the C++ options' fields.
#include <map>

#include "binding.hpp"
#include "nt/conv.hpp"
#include "nt/filters.hpp"
#include "nt/morphology.hpp"
#include "nt/pooling.hpp"
#include "nt/sliding_window.hpp"

namespace ntpy {

namespace {

nt::boundary boundary_from(const std::string& s) {
    static const std::map<std::string, nt::boundary> modes{{"reflect", nt::boundary::reflect},
                                                           {"constant", nt::boundary::constant},
                                                           {"nearest", nt::boundary::nearest},
                                                           {"mirror", nt::boundary::mirror},
                                                           {"wrap", nt::boundary::wrap}};
    auto it = modes.find(s);
    if (it == modes.end())
        nt::throw_error(nt::errc::invalid_argument,
                        "mode '" + s + "' is not a boundary; use reflect, constant, nearest, mirror or wrap");
    return it->second;
}

nt::interp interp_from(const std::string& s) {
    if (s == "nearest") return nt::interp::nearest;
    if (s == "linear") return nt::interp::linear;
    if (s == "cubic") return nt::interp::cubic;
    nt::throw_error(nt::errc::invalid_argument, "resize: mode '" + s + "' is not nearest, linear or cubic");
}

nt::dims to_dims(const py::object& o) {
    nt::dims d;
    if (o.is_none()) return d;
    for (auto v : to_ints(o)) d.push_back(v);
    return d;
}

// padding: an int (both sides of every axis), "valid", "same", or a list of ints
// or (before, after) pairs, one per spatial axis.
nt::padding to_padding(const py::object& p) {
    if (py::isinstance<py::str>(p)) {
        const auto s = p.cast<std::string>();
        if (s == "valid") return nt::padding::valid;
        if (s == "same") return nt::padding::same;
        nt::throw_error(nt::errc::invalid_argument, "conv: padding '" + s + "' is not valid or same; or give widths");
    }
    if (py::isinstance<py::int_>(p)) return nt::padding(p.cast<std::int64_t>());
    std::vector<nt::pad_amount> w;
    for (auto v : p) {
        if (py::isinstance<py::int_>(v)) w.push_back({v.cast<std::int64_t>(), v.cast<std::int64_t>()});
        else {
            auto pr = v.cast<std::pair<std::int64_t, std::int64_t>>();
            w.push_back({pr.first, pr.second});
        }
    }
    return nt::padding(std::span<const nt::pad_amount>(w));
}

std::vector<double> to_doubles(const py::object& o) {
    if (py::isinstance<py::float_>(o) || py::isinstance<py::int_>(o)) return {o.cast<double>()};
    return o.cast<std::vector<double>>();
}

/// The options conv and conv_transpose share.
template <class Options>
void shared_conv_options(Options& o, const py::object& stride, const py::object& dilation, const py::object& bias,
                         const py::object& keep) {
    o.stride = to_dims(stride);
    o.dilation = to_dims(dilation);
    if (!bias.is_none()) o.bias = to_tensor(bias);
    if (!keep.is_none()) o.keep = to_axes(keep);
}

}  // namespace

void bind_imaging(py::module_& m, tensor_class&) {
    m.def("conv", [](const py::object& x, const py::object& w, const py::object& axes, const py::object& stride,
                     const py::object& dilation, const py::object& padding, const std::string& pad_mode,
                     const py::object& bias, const py::object& keep) {
        const any_tensor tx = to_tensor(x), tw = to_tensor(w);
        const auto ax = to_axes(axes);
        nt::conv_options o;
        shared_conv_options(o, stride, dilation, bias, keep);
        o.padding = to_padding(padding);
        o.pad_mode = pad_mode_from(pad_mode);
        return released([&] { return nt::conv(tx, tw, nt::axes_arg(ax), o); });
    }, py::arg("x"), py::arg("w"), py::arg("axes"), py::arg("stride") = py::none(), py::arg("dilation") = py::none(),
       py::arg("padding") = 0, py::arg("pad_mode") = "constant", py::arg("bias") = py::none(),
       py::arg("keep") = py::none());
    m.def("correlate", [](const py::object& x, const py::object& k, const py::object& axes, const std::string& mode, double cval) {
        const any_tensor tx = to_tensor(x), tk = to_tensor(k);
        const auto ax = to_axes(axes);
        const auto b = boundary_from(mode);
        return released([&] { return nt::correlate(tx, tk, nt::axes_arg(ax), b, cval); });
    }, py::arg("x"), py::arg("k"), py::arg("axes"), py::arg("mode") = "reflect", py::arg("cval") = 0.0);
    m.def("convolve", [](const py::object& x, const py::object& k, const py::object& axes, const std::string& mode, double cval) {
        const any_tensor tx = to_tensor(x), tk = to_tensor(k);
        const auto ax = to_axes(axes);
        const auto b = boundary_from(mode);
        return released([&] { return nt::convolve(tx, tk, nt::axes_arg(ax), b, cval); });
    }, py::arg("x"), py::arg("k"), py::arg("axes"), py::arg("mode") = "reflect", py::arg("cval") = 0.0);

    // --- pooling and resampling ---------------------------------------------------
    auto pool = [](bool max, const py::object& x, const py::object& axes, const py::object& sizes, const py::object& stride,
                   const py::object& padding, const py::object& dilation, bool ceil_mode, bool count_include_pad) {
        const any_tensor tx = to_tensor(x);
        const auto ax = to_axes(axes);
        const auto sz = to_ints(sizes);
        const auto st = stride.is_none() ? std::vector<std::int64_t>{} : to_ints(stride);
        const auto pd = padding.is_none() ? std::vector<std::int64_t>{} : to_ints(padding);
        const auto dl = dilation.is_none() ? std::vector<std::int64_t>{} : to_ints(dilation);
        nt::pool_options o{nt::dims(st.begin(), st.end()), nt::dims(pd.begin(), pd.end()), nt::dims(dl.begin(), dl.end()),
                           ceil_mode, count_include_pad};
        return released([&] {
            return max ? nt::max_pool(tx, nt::axes_arg(ax), nt::shape_arg(sz), o)
                       : nt::avg_pool(tx, nt::axes_arg(ax), nt::shape_arg(sz), o);
        });
    };
    m.def("max_pool", [pool](const py::object& x, const py::object& axes, const py::object& sizes, const py::object& stride,
                             const py::object& padding, const py::object& dilation, bool ceil_mode) {
        return pool(true, x, axes, sizes, stride, padding, dilation, ceil_mode, true);
    }, py::arg("x"), py::arg("axes"), py::arg("sizes"), py::arg("stride") = py::none(), py::arg("padding") = py::none(),
       py::arg("dilation") = py::none(), py::arg("ceil_mode") = false);
    m.def("avg_pool", [pool](const py::object& x, const py::object& axes, const py::object& sizes, const py::object& stride,
                             const py::object& padding, bool ceil_mode, bool count_include_pad) {
        return pool(false, x, axes, sizes, stride, padding, py::none(), ceil_mode, count_include_pad);
    }, py::arg("x"), py::arg("axes"), py::arg("sizes"), py::arg("stride") = py::none(), py::arg("padding") = py::none(),
       py::arg("ceil_mode") = false, py::arg("count_include_pad") = true);
    // resize(x, {"H": 64, "W": 48}, mode="linear", align_corners=False)
    m.def("resize", [](const py::object& x, const py::dict& targets, const std::string& mode, bool align_corners) {
        const any_tensor tx = to_tensor(x);
        std::vector<nt::axis_target> t;
        for (auto [k, v] : targets) t.push_back({to_axis(k), v.cast<std::int64_t>()});
        const auto i = interp_from(mode);
        nt::resize_options o{align_corners};
        return released([&] { return nt::resize(tx, nt::axis_targets(t), i, o); });
    }, py::arg("x"), py::arg("targets"), py::arg("mode") = "nearest", py::arg("align_corners") = false);
    m.def("zoom", [](const py::object& x, const py::object& factors, const py::object& axes, int order,
                     const std::string& mode, double cval) {
        const any_tensor tx = to_tensor(x);
        const auto f = to_doubles(factors);
        const auto ax = to_axes(axes);
        const auto b = boundary_from(mode);
        return released([&] { return nt::zoom(tx, nt::factors_arg(f), nt::axes_arg(ax), order, b, cval); });
    }, py::arg("x"), py::arg("factors"), py::arg("axes"), py::arg("order") = 3, py::arg("mode") = "constant",
       py::arg("cval") = 0.0);

    // --- filters (scipy.ndimage's keywords) ---------------------------------------
    m.def("gaussian_filter", [](const py::object& x, const py::object& sigma, const py::object& axes, double truncate,
                                const std::string& mode, double cval, const py::object& order) {
        const any_tensor tx = to_tensor(x);
        const auto s = to_doubles(sigma);
        const auto ax = to_axes(axes);
        nt::gaussian_options o{truncate, boundary_from(mode), cval, order.is_none() ? std::vector<std::int64_t>{} : to_ints(order)};
        return released([&] { return nt::gaussian_filter(tx, nt::sigmas_arg(s), nt::axes_arg(ax), o); });
    }, py::arg("x"), py::arg("sigma"), py::arg("axes"), py::arg("truncate") = 4.0, py::arg("mode") = "reflect",
       py::arg("cval") = 0.0, py::arg("order") = py::none());
    m.def("gaussian_gradient_magnitude", [](const py::object& x, const py::object& sigma, const py::object& axes,
                                            double truncate, const std::string& mode, double cval) {
        const any_tensor tx = to_tensor(x);
        const auto s = to_doubles(sigma);
        const auto ax = to_axes(axes);
        nt::gaussian_options o{truncate, boundary_from(mode), cval, {}};
        return released([&] { return nt::gaussian_gradient_magnitude(tx, nt::sigmas_arg(s), nt::axes_arg(ax), o); });
    }, py::arg("x"), py::arg("sigma"), py::arg("axes"), py::arg("truncate") = 4.0, py::arg("mode") = "reflect",
       py::arg("cval") = 0.0);
#define NT_PY_SIZE_FILTER(fn)                                                                                       \
    m.def(#fn, [](const py::object& x, const py::object& size, const py::object& axes, const std::string& mode,      \
                  double cval) {                                                                                    \
        const any_tensor tx = to_tensor(x);                                                                         \
        const auto sz = to_ints(size);                                                                              \
        const auto ax = to_axes(axes);                                                                              \
        nt::filter_options o;                                                                                       \
        o.mode = boundary_from(mode);                                                                               \
        o.cval = cval;                                                                                              \
        return released([&] { return nt::fn(tx, nt::shape_arg(sz), nt::axes_arg(ax), o); });                      \
    }, py::arg("x"), py::arg("size"), py::arg("axes"), py::arg("mode") = "reflect", py::arg("cval") = 0.0);
    NT_PY_SIZE_FILTER(uniform_filter)
    NT_PY_SIZE_FILTER(median_filter)
    NT_PY_SIZE_FILTER(minimum_filter)
    NT_PY_SIZE_FILTER(maximum_filter)
#undef NT_PY_SIZE_FILTER
    m.def("sobel", [](const py::object& x, const py::object& axis, const py::object& axes, const std::string& mode, double cval) {
        const any_tensor tx = to_tensor(x);
        const auto a = to_axis(axis);
        const auto ax = axes.is_none() ? std::vector<nt::Axis>{a} : to_axes(axes);
        nt::sobel_options o{boundary_from(mode), cval};
        return released([&] { return nt::sobel(tx, a, nt::axes_arg(ax), o); });
    }, py::arg("x"), py::arg("axis"), py::arg("axes") = py::none(), py::arg("mode") = "reflect", py::arg("cval") = 0.0);

    // --- binary morphology, labels, distances -------------------------------------
#define NT_PY_MORPHOLOGY(fn)                                                                                  \
    m.def(#fn, [](const py::object& mask, const py::object& axes, int connectivity, std::int64_t iterations) { \
        const any_tensor tm = to_tensor(mask);                                                                \
        const auto ax = to_axes(axes);                                                                        \
        return released([&] { return any_tensor(nt::fn(tm, nt::axes_arg(ax), {connectivity, iterations})); }); \
    }, py::arg("mask"), py::arg("axes"), py::arg("connectivity") = 1, py::arg("iterations") = 1);
    NT_PY_MORPHOLOGY(binary_erosion)
    NT_PY_MORPHOLOGY(binary_dilation)
    NT_PY_MORPHOLOGY(binary_opening)
    NT_PY_MORPHOLOGY(binary_closing)
#undef NT_PY_MORPHOLOGY
    m.def("binary_fill_holes", [](const py::object& mask, const py::object& axes, int connectivity) {
        const any_tensor tm = to_tensor(mask);
        const auto ax = to_axes(axes);
        return released([&] { return any_tensor(nt::binary_fill_holes(tm, nt::axes_arg(ax), connectivity)); });
    }, py::arg("mask"), py::arg("axes"), py::arg("connectivity") = 1);
    // (labels, count), as scipy.ndimage.label.
    m.def("label", [](const py::object& mask, const py::object& axes, int connectivity) {
        const any_tensor tm = to_tensor(mask);
        const auto ax = to_axes(axes);
        auto [labels, count] = released([&] { return nt::label(tm, nt::axes_arg(ax), connectivity); });
        return py::make_tuple(any_tensor(labels), count);
    }, py::arg("mask"), py::arg("axes"), py::arg("connectivity") = 1);
    m.def("distance_transform_edt", [](const py::object& mask, const py::object& axes, const py::object& spacing) {
        const any_tensor tm = to_tensor(mask);
        const auto ax = to_axes(axes);
        const auto sp = spacing.is_none() ? std::vector<double>{} : to_doubles(spacing);
        return released([&] {
            return any_tensor(nt::distance_transform_edt(tm, nt::axes_arg(ax), nt::detail::list_arg<double>(sp)));
        });
    }, py::arg("mask"), py::arg("axes"), py::arg("spacing") = py::none());

    m.def("conv_transpose", [](const py::object& x, const py::object& w, const py::object& axes, const py::object& stride,
                               const py::object& dilation, const py::object& padding, const py::object& output_padding,
                               const py::object& bias, const py::object& keep) {
        const any_tensor tx = to_tensor(x), tw = to_tensor(w);
        const auto ax = to_axes(axes);
        nt::conv_transpose_options o;
        shared_conv_options(o, stride, dilation, bias, keep);
        o.padding = to_dims(padding);
        o.output_padding = to_dims(output_padding);
        return released([&] { return nt::conv_transpose(tx, tw, nt::axes_arg(ax), o); });
    }, py::arg("x"), py::arg("w"), py::arg("axes"), py::arg("stride") = py::none(), py::arg("dilation") = py::none(),
       py::arg("padding") = py::none(), py::arg("output_padding") = py::none(), py::arg("bias") = py::none(),
       py::arg("keep") = py::none());
    // (max, indices) as torch's return_indices (flat indices within each plane).
    m.def("max_pool_with_indices", [](const py::object& x, const py::object& axes, const py::object& sizes,
                                      const py::object& stride, const py::object& padding, const py::object& dilation,
                                      bool ceil_mode) {
        const any_tensor tx = to_tensor(x);
        const auto ax = to_axes(axes);
        const auto sz = to_ints(sizes);
        const auto st = stride.is_none() ? std::vector<std::int64_t>{} : to_ints(stride);
        const auto pd = padding.is_none() ? std::vector<std::int64_t>{} : to_ints(padding);
        const auto dl = dilation.is_none() ? std::vector<std::int64_t>{} : to_ints(dilation);
        nt::pool_options o{nt::dims(st.begin(), st.end()), nt::dims(pd.begin(), pd.end()), nt::dims(dl.begin(), dl.end()),
                           ceil_mode, true};
        auto [mx, where] = released([&] { return nt::max_pool_with_indices(tx, nt::axes_arg(ax), nt::shape_arg(sz), o); });
        return py::make_tuple(mx, any_tensor(where));
    }, py::arg("x"), py::arg("axes"), py::arg("sizes"), py::arg("stride") = py::none(), py::arg("padding") = py::none(),
       py::arg("dilation") = py::none(), py::arg("ceil_mode") = false);
    m.def("center_of_mass", [](const py::object& values, const py::object& labels, const py::object& axes) {
        const any_tensor v = to_tensor(values), l = to_tensor(labels);
        const auto ax = to_axes(axes);
        return released([&] { return any_tensor(nt::center_of_mass(v, l, nt::axes_arg(ax))); });
    }, py::arg("values"), py::arg("labels"), py::arg("axes"));
    // A list with, per label 1..max, None or a tuple of slices (scipy's find_objects).
    m.def("find_objects", [](const py::object& labels, const py::object& axes) {
        const any_tensor l = to_tensor(labels);
        const auto ax = to_axes(axes);
        const auto boxes = released([&] { return nt::find_objects(l, nt::axes_arg(ax)); });
        py::list out;
        for (const auto& b : boxes) {
            if (!b) {
                out.append(py::none());
                continue;
            }
            py::tuple t(b->begin.size());
            for (std::size_t i = 0; i < b->begin.size(); ++i) t[i] = py::module_::import("builtins").attr("slice")(b->begin[i], b->end[i]);
            out.append(t);
        }
        return out;
    }, py::arg("labels"), py::arg("axes"));
    m.def("region_stats", [](const py::object& values, const py::object& labels, const py::object& axes) {
        const any_tensor v = to_tensor(values), l = to_tensor(labels);
        const auto ax = to_axes(axes);
        auto r = released([&] { return nt::region_stats(v, l, nt::axes_arg(ax)); });
        py::dict out;
        out["count"] = any_tensor(r.count);
        out["sum"] = any_tensor(r.sum);
        out["mean"] = any_tensor(r.mean);
        out["min"] = any_tensor(r.min);
        out["max"] = any_tensor(r.max);
        return out;
    }, py::arg("values"), py::arg("labels"), py::arg("axes"));

    // --- sliding-window inference: the predictor is a Python callable taking the
    // windows (a Tensor with a leading window axis); it runs with the GIL held.
    m.def("sliding_window", [](const py::object& x, const py::object& axes, const py::object& roi, py::function predictor,
                               double overlap, std::int64_t batch, const std::string& blend, double sigma_scale,
                               const std::string& pad_mode, double pad_value) {
        const any_tensor tx = to_tensor(x);
        const auto ax = to_axes(axes);
        const auto r = to_ints(roi);
        nt::sliding_window_options o;
        o.overlap = overlap;
        o.batch = batch;
        if (blend != "constant" && blend != "gaussian")
            nt::throw_error(nt::errc::invalid_argument, "sliding_window: blend '" + blend + "' is not constant or gaussian");
        o.blend = blend == "gaussian" ? nt::blend::gaussian : nt::blend::constant;
        o.sigma_scale = sigma_scale;
        o.pad_mode = pad_mode_from(pad_mode);
        o.pad_value = pad_value;
        auto call = [&predictor](const any_tensor& windows) -> any_tensor {
            py::gil_scoped_acquire gil;
            return to_tensor(predictor(windows));
        };
        return released([&] { return nt::sliding_window(tx, nt::axes_arg(ax), nt::shape_arg(r), call, o); });
    }, py::arg("x"), py::arg("axes"), py::arg("roi"), py::arg("predictor"), py::arg("overlap") = 0.25,
       py::arg("batch") = 4, py::arg("blend") = "constant", py::arg("sigma_scale") = 0.125,
       py::arg("pad_mode") = "constant", py::arg("pad_value") = 0.0);
}

}  // namespace ntpy
