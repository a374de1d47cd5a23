// NumPy-style text for tensors: a port of numpy/core/arrayprint.py's repr path
// (_formatArray, FloatingFormat with floatmode 'maxprec' and precision 8,
// IntegerFormat, linewidth 75, threshold 1000, edgeitems 3).
#include "nt/print.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "core_errors.hpp"
#include "element_types.hpp"

namespace nt::detail {

namespace {

constexpr std::int64_t threshold = 1000;
constexpr std::int64_t edge_items = 3;
constexpr std::size_t line_width = 75;
constexpr std::string_view separator = ", ";
constexpr std::string_view prefix = "tensor(";

// --- element formats -------------------------------------------------------------

template <class T>
std::string chars(T v, std::chars_format f, int precision) {
    char buf[512];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, f, precision);
    return std::string(buf, r.ptr);
}

std::string chars(half v, std::chars_format f, int precision) {
    return chars(static_cast<float>(v), f, precision);  // exact: float holds every half
}

// True when the decimal `text` reads back as v (for half: through double, exact for
// these short decimals up to a tie no short decimal hits).
template <class T>
bool reads_back(const std::string& text, T v) {
    if constexpr (std::is_same_v<T, half>) {
        double d = 0;
        std::from_chars(text.data(), text.data() + text.size(), d);
        return half(d).bits() == v.bits();
    } else {
        T back{};
        std::from_chars(text.data(), text.data() + text.size(), back);
        return back == v;
    }
}

void strip_zeros(std::string& s) {
    const auto dot = s.find('.');
    if (dot == std::string::npos) return;
    while (s.size() > dot + 1 && s.back() == '0') s.pop_back();
}

// NumPy's array printing (Dragon4 positional, unique, precision 8, min_digits 0, trim
// '.'): every integer digit exact, then the fewest fractional digits (at most 8) that
// read back as v, the last one correctly rounded: "1.", "0.25", "22224." (a float16
// whose shortest form would be 22220.). At p digits the correctly rounded decimal is
// the only candidate: if it does not read back, no p-digit decimal does.
template <class T>
std::string positional(T v) {
    std::string s;
    for (int p = 0; p <= 8; ++p) {
        s = chars(v, std::chars_format::fixed, p);
        if (reads_back(s, v)) break;
    }
    strip_zeros(s);
    if (s.find('.') == std::string::npos) s += '.';
    return s;
}

// The fewest significant digits (at most 9) that read back as v, in scientific
// notation (Dragon4 scientific, unique, precision 8).
template <class T>
std::string shortest_scientific(T v) {
    std::string s;
    for (int p = 0; p <= 8; ++p) {
        s = chars(v, std::chars_format::scientific, p);
        if (reads_back(s, v)) break;
    }
    return s;
}

// Mantissa and exponent parts of a scientific form: "1.25e-05" -> "1.25", "-05" (a
// mantissa without fraction gets its '.': "3.").
void split_scientific(const std::string& s, std::string& mantissa, std::string& exponent) {
    const auto e = s.find('e');
    mantissa = s.substr(0, e);
    strip_zeros(mantissa);
    if (mantissa.find('.') == std::string::npos) mantissa += '.';
    exponent = s.substr(e + 1);  // "+05", "-123"
}

template <class T>
class float_format {
public:
    explicit float_format(const std::vector<T>& data) {
        std::vector<T> finite;
        for (T v : data)
            if (std::isfinite(v)) finite.push_back(v);
        if (!finite.empty()) {
            T max_val = 0, min_val = 0;
            bool any = false;
            for (T v : finite) {
                if (v == 0) continue;
                const T a = std::abs(v);
                if (!any) max_val = min_val = a, any = true;
                max_val = std::max(max_val, a);
                min_val = std::min(min_val, a);
            }
            if (any && (max_val >= T(1e8) || min_val < T(0.0001) || static_cast<T>(max_val / min_val) > T(1000))) exp_ = true;
        }
        if (finite.empty()) {
            pad_left_ = pad_right_ = 0;
        } else if (exp_) {
            std::size_t frac = 0, ints = 0, exp_len = 0;
            for (T v : finite) {
                std::string m, e;
                split_scientific(shortest_scientific(v), m, e);
                const auto dot = m.find('.');
                ints = std::max(ints, dot);
                frac = std::max(frac, m.size() - dot - 1);
                exp_len = std::max(exp_len, e.size());
            }
            exp_size_ = exp_len - 1;
            precision_ = frac;
            pad_left_ = ints;
            pad_right_ = exp_size_ + 2 + precision_;
        } else {
            for (T v : finite) {
                const std::string s = positional(v);
                const auto dot = s.find('.');
                pad_left_ = std::max(pad_left_, dot);
                pad_right_ = std::max(pad_right_, s.size() - dot - 1);
            }
        }
        if (finite.size() != data.size()) {
            bool neginf = false;
            for (T v : data) neginf = neginf || (std::isinf(v) && v < 0);
            const std::size_t offset = pad_right_ + 1;
            const std::size_t inflen = 3 + (neginf ? 1 : 0);
            if (3 > offset) pad_left_ = std::max(pad_left_, 3 - offset);
            if (inflen > offset) pad_left_ = std::max(pad_left_, inflen - offset);
        }
    }

    std::string operator()(T v) const {
        if (!std::isfinite(v)) {
            const std::string r = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
            const std::size_t width = pad_left_ + pad_right_ + 1;
            return std::string(width > r.size() ? width - r.size() : 0, ' ') + r;
        }
        if (exp_) {
            // Every value with precision_ fractional digits (NumPy's min_digits): the
            // exact value rounded there, so a short value shows its own further digits
            // (float16 5.96e-08, not 6.00e-08); the exponent zero-padded to exp_size_.
            const std::string text = chars(v, std::chars_format::scientific, static_cast<int>(precision_));
            const auto epos = text.find('e');
            std::string m = text.substr(0, epos);
            const std::string e = text.substr(epos + 1);
            if (m.find('.') == std::string::npos) m += '.';
            const auto dot = m.find('.');
            std::string sign(1, e[0]);
            std::string digits = e.substr(1);
            if (digits.size() < exp_size_) digits.insert(0, exp_size_ - digits.size(), '0');
            std::string out = std::string(pad_left_ > dot ? pad_left_ - dot : 0, ' ') + m + "e" + sign + digits;
            return out;
        }
        const std::string s = positional(v);
        const auto dot = s.find('.');
        const std::size_t frac = s.size() - dot - 1;
        return std::string(pad_left_ > dot ? pad_left_ - dot : 0, ' ') + s +
               std::string(pad_right_ > frac ? pad_right_ - frac : 0, ' ');
    }

private:
    bool exp_ = false;
    std::size_t pad_left_ = 0, pad_right_ = 0, precision_ = 8, exp_size_ = 0;
};

template <class T>
class int_format {
public:
    explicit int_format(const std::vector<T>& data) {
        for (T v : data) width_ = std::max(width_, text(v).size());
    }
    std::string operator()(T v) const {
        const std::string s = text(v);
        return std::string(width_ - s.size(), ' ') + s;
    }

private:
    static std::string text(T v) {
        if constexpr (std::is_unsigned_v<T>) return std::to_string(static_cast<std::uint64_t>(v));
        else return std::to_string(static_cast<std::int64_t>(v));
    }
    std::size_t width_ = 0;
};

class bool_format {
public:
    explicit bool_format(bool scalar) : scalar_(scalar) {}
    std::string operator()(bool v) const { return v ? (scalar_ ? "true" : " true") : "false"; }

private:
    bool scalar_;
};

// --- the array walk ----------------------------------------------------------------

template <class T, class Format>
class printer {
public:
    printer(const tensor_base& t, bool summarize, Format fmt) : t_(t), summarize_(summarize), fmt_(std::move(fmt)) {}

    std::string run(std::string_view next_line_prefix, std::size_t width) {
        dims index;
        return recurse(index, std::string(next_line_prefix), static_cast<std::int64_t>(width));
    }

private:
    T value(const dims& index) const {
        return *(reinterpret_cast<const T*>(t_.storage()) + t_.layout().offset_of(index.span()));
    }

    static void extend_line(std::string& s, std::string& line, const std::string& word, std::int64_t width,
                            const std::string& next_line_prefix) {
        bool needs_wrap = static_cast<std::int64_t>(line.size() + word.size()) > width;
        if (line.size() <= next_line_prefix.size()) needs_wrap = false;
        if (needs_wrap) {
            while (!line.empty() && line.back() == ' ') line.pop_back();
            s += line + "\n";
            line = next_line_prefix;
        }
        line += word;
    }

    std::string recurse(dims& index, const std::string& hanging_indent, std::int64_t curr_width) {
        const std::size_t axis = index.size();
        const std::size_t axes_left = t_.rank() - axis;
        if (axes_left == 0) return fmt_(value(index));
        const std::string next_hanging_indent = hanging_indent + ' ';
        const std::int64_t next_width = curr_width - 1;
        const std::int64_t a_len = t_.layout().size(axis);
        const bool show_summary = summarize_ && 2 * edge_items < a_len;
        const std::int64_t leading = show_summary ? edge_items : 0;
        const std::int64_t trailing = show_summary ? edge_items : a_len;
        auto sub = [&](std::int64_t i) {
            index.push_back(i);
            std::string r = recurse(index, next_hanging_indent, next_width);
            index.pop_back();
            return r;
        };
        std::string s;
        if (axes_left == 1) {
            const std::int64_t elem_width = curr_width - 1;
            std::string line = hanging_indent;
            for (std::int64_t i = 0; i < leading; ++i) {
                extend_line(s, line, sub(i), elem_width, hanging_indent);
                line += separator;
            }
            if (show_summary) {
                extend_line(s, line, "...", elem_width, hanging_indent);
                line += separator;
            }
            for (std::int64_t i = trailing; i > 1; --i) {
                extend_line(s, line, sub(a_len - i), elem_width, hanging_indent);
                line += separator;
            }
            extend_line(s, line, sub(a_len - 1), elem_width, hanging_indent);
            s += line;
        } else {
            const std::string line_sep = "," + std::string(axes_left - 1, '\n');
            for (std::int64_t i = 0; i < leading; ++i) s += hanging_indent + sub(i) + line_sep;
            if (show_summary) s += hanging_indent + "..." + line_sep;
            for (std::int64_t i = trailing; i > 1; --i) s += hanging_indent + sub(a_len - i) + line_sep;
            s += hanging_indent + sub(a_len - 1);
        }
        return "[" + s.substr(hanging_indent.size()) + "]";
    }

    const tensor_base& t_;
    bool summarize_;
    Format fmt_;
};

// The elements that will be shown (all, or the edges of long axes when summarising).
template <class T>
void gather(const tensor_base& t, bool summarize, dims& index, std::vector<T>& out) {
    const std::size_t axis = index.size();
    if (axis == t.rank()) {
        out.push_back(*(reinterpret_cast<const T*>(t.storage()) + t.layout().offset_of(index.span())));
        return;
    }
    const std::int64_t n = t.layout().size(axis);
    for (std::int64_t i = 0; i < n; ++i) {
        if (summarize && n > 2 * edge_items && i == edge_items) i = n - edge_items;
        index.push_back(i);
        gather(t, summarize, index, out);
        index.pop_back();
    }
}

template <class T>
std::string body(const tensor_base& t) {
    if (t.size() == 0) return "[]";
    const bool summarize = t.size() > threshold;
    std::vector<T> shown;
    dims index;
    gather(t, summarize, index, shown);
    const std::string next_line_prefix = " " + std::string(prefix.size(), ' ');
    const std::size_t width = line_width - 1;  // len(suffix ",")
    if constexpr (std::is_same_v<T, bool>) {
        return printer<T, bool_format>(t, summarize, bool_format(t.rank() == 0)).run(next_line_prefix, width);
    } else if constexpr (is_floating_element_v<T>) {
        return printer<T, float_format<T>>(t, summarize, float_format<T>(shown)).run(next_line_prefix, width);
    } else {
        return printer<T, int_format<T>>(t, summarize, int_format<T>(shown)).run(next_line_prefix, width);
    }
}

}  // namespace

std::string format(const tensor_base& t) {
    std::string lst;
    visit_dtype(t.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        lst = body<T>(t);
    });
    std::string out = std::string(prefix) + lst + ",";
    const std::string trailer =
        "shape=" + spec_text(t.shape(), t.names()) + ", dtype=" + std::string(to_string(t.type())) + ")";
    const std::size_t last_line = out.size() - (out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
    if (last_line + trailer.size() + 1 > line_width)
        out += "\n" + std::string(prefix.size(), ' ');
    else
        out += " ";
    return out + trailer;
}

void print(std::ostream& os, const tensor_base& t) { os << format(t); }

}  // namespace nt::detail
