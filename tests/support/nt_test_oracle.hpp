// Readers of the oracle files' tokens shared by the [numpy] cases of the tensor
// library (the line and shape readers are in nt_test_support.hpp, which the matcher's
// tests use too, without the tensor headers).
#pragma once

#include <charconv>
#include <cstdlib>
#include <string>
#include <istream>
#include <type_traits>
#include <vector>

#include "nt/axis.hpp"
#include "nt/creation.hpp"
#include "nt/tensor.hpp"
#include "nt_test_support.hpp"

namespace nt::test {

/// An operand of a case line: its dtype (when the format writes one), shape, names
/// and element texts ("f32 2 3 4 A ? B values ...").
struct oracle_operand : oracle_shape {
    std::string dtype;
    std::vector<std::string> values;
};

inline oracle_operand read_oracle_operand(std::istream& in, bool with_dtype = true) {
    oracle_operand o;
    if (with_dtype) in >> o.dtype;
    static_cast<oracle_shape&>(o) = read_oracle_shape(in);
    o.values = read_oracle_values(in);
    return o;
}

/// An axis as the generators write it: a (possibly negative) index, or a name.
inline nt::Axis oracle_axis(const std::string& token) {
    if (!token.empty() && (token[0] == '-' || (token[0] >= '0' && token[0] <= '9'))) return nt::Axis(std::stoll(token));
    return nt::Axis(token);
}

/// A value of T from its text: bools as 0/1, integers exactly, floating values by
/// strtod (which reads "nan", "inf" and "-inf").
template <class T>
T oracle_value(const std::string& text) {
    if constexpr (std::is_same_v<T, bool>) {
        return text != "0";
    } else if constexpr (std::is_integral_v<T>) {
        T v{};
        std::from_chars(text.data(), text.data() + text.size(), v);
        return v;
    } else {
        return static_cast<T>(std::strtod(text.c_str(), nullptr));
    }
}

/// The tensor of an operand: its shape, names ("?" unnamed) and values as T.
template <class T>
nt::Tensor<T> oracle_tensor(const oracle_operand& o) {
    auto t = nt::empty<T>(o.shape);
    std::size_t i = 0;
    for (auto& x : t) x = oracle_value<T>(o.values.at(i++));
    std::vector<nt::name> names;
    bool named = false;
    for (const auto& n : o.names) {
        names.push_back(n == "?" ? nt::name{} : nt::name(n));
        named = named || n != "?";
    }
    return named ? t.rename(names) : t;
}

}  // namespace nt::test
