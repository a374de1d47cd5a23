// nt/size_expr.hpp: symbolic sizes of pipeline configs (docs/config.md).
//
// A size is an integer, a symbol, or an integer expression over symbols with
// + - * / // and parentheses, with Python's precedence and unary + and -:
//
//     nt::symbol_table symbols;
//     auto e = nt::size_expr::parse("(H - 8) / 6 + 1", symbols);   // symbol H gets index 0
//     std::int64_t values[] = {256};
//     e.evaluate(values).value;                                  // error: 248 / 6 is not exact
//
// `/` must divide exactly; `//` rounds toward minus infinity (Python's floor
// division). Intermediate values may be negative; 64-bit overflow is an error.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nt {

/// Symbols by name, each with a stable index (the order of first interning).
class symbol_table {
public:
    /// The index of `name`, added if new. `name` must be a valid identifier.
    std::uint32_t intern(std::string_view name);
    /// The index of `name`, or -1.
    [[nodiscard]] std::int64_t find(std::string_view name) const noexcept;
    [[nodiscard]] const std::string& name(std::uint32_t index) const noexcept { return names_[index]; }
    [[nodiscard]] std::size_t size() const noexcept { return names_.size(); }
    [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }

private:
    struct hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> names_;
    std::unordered_map<std::string, std::uint32_t, hash, std::equal_to<>> index_;
};

/// What evaluating a size_expr gave.
struct size_eval {
    enum class status : std::uint8_t {
        ok,                ///< `value` is the size (>= 0)
        unbound,           ///< `symbol` has no value yet
        inexact,           ///< `lhs / rhs` does not divide exactly
        division_by_zero,  ///< `lhs / 0` or `lhs // 0`
        overflow,          ///< an intermediate value leaves the 64-bit range
        negative,          ///< the result, `value`, is below 0
    };
    status state = status::ok;
    std::int64_t value = 0;
    std::uint32_t symbol = 0;
    std::int64_t lhs = 0;
    std::int64_t rhs = 0;
    [[nodiscard]] bool ok() const noexcept { return state == status::ok; }
};

/// An integer size: a literal, a symbol, or an expression over symbols.
class size_expr {
public:
    /// The literal 0.
    size_expr() = default;
    [[nodiscard]] static size_expr literal(std::int64_t value) noexcept;
    [[nodiscard]] static size_expr symbol(std::uint32_t index) noexcept;

    /// Parses `text`, interning its symbols in `symbols`. Throws nt::error
    /// (invalid_spec) whose message names the offending character: its position
    /// (1-based) and the text with a caret under it. Nesting deeper than 64
    /// levels of parentheses or signs is refused.
    [[nodiscard]] static size_expr parse(std::string_view text, symbol_table& symbols);

    [[nodiscard]] bool is_literal() const noexcept { return kind_ == kind::literal; }
    [[nodiscard]] bool is_symbol() const noexcept { return kind_ == kind::symbol; }
    /// The literal value (is_literal) or the symbol index (is_symbol).
    [[nodiscard]] std::int64_t literal_value() const noexcept { return value_; }
    [[nodiscard]] std::uint32_t symbol_index() const noexcept { return static_cast<std::uint32_t>(value_); }

    /// The symbols it uses, each once, in order of appearance.
    [[nodiscard]] std::vector<std::uint32_t> symbols() const;

    /// Evaluates with `values[s]` for symbol s (a value < 0, or s past the end,
    /// means unbound). Never throws.
    [[nodiscard]] size_eval evaluate(std::span<const std::int64_t> values) const noexcept;

    /// The expression with single spaces around binary operators and only the
    /// parentheses it needs: "(H - 8) / 6 + 1", "N", "3". Equal texts, equal
    /// expressions.
    [[nodiscard]] std::string text(const symbol_table& symbols) const;

    friend bool operator==(const size_expr&, const size_expr&) = default;

    /// One instruction of the postfix program of an expression.
    enum class op : std::uint8_t { literal, symbol, add, sub, mul, div, floor_div, neg };
    struct instruction {
        op code = op::literal;
        std::int64_t value = 0;  ///< literal value or symbol index
        friend bool operator==(const instruction&, const instruction&) = default;
    };

private:
    enum class kind : std::uint8_t { literal, symbol, expression };
    kind kind_ = kind::literal;
    std::int64_t value_ = 0;
    std::vector<instruction> program_;  // expressions only
};

/// The text of an evaluation failure, e.g. "248 / 6 does not divide exactly (use
/// // to round down)"; `symbols` name an unbound symbol. Empty for ok.
[[nodiscard]] std::string to_string(const size_eval& e, const symbol_table& symbols);

}  // namespace nt
