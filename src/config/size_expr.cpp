// Symbolic sizes: parsing, evaluation and printing (nt/size_expr.hpp).
//
// The grammar is Python's for these operators, so that a size reads the same in a
// config and in the script that made the data:
//
//     expr    := term (('+' | '-') term)*
//     term    := unary (('*' | '/' | '//') unary)*
//     unary   := ('+' | '-')* primary
//     primary := integer | symbol | '(' expr ')'
//
// An expression compiles to a postfix program evaluated on a fixed stack; a literal
// or a lone symbol (most sizes) has no program and evaluates without a loop.
#include "nt/size_expr.hpp"

#include <algorithm>
#include <array>

#include "nt/error.hpp"
#include "nt/name.hpp"

namespace nt {

namespace {

/// Deepest nesting of parentheses (and groups of signs) accepted.
constexpr int max_nesting = 64;

/// Longest stretch of an expression shown above the caret in a message.
constexpr std::size_t max_shown = 72;

/// The evaluation stack never holds more than two values per nesting level, plus one.
constexpr std::size_t max_stack = 2 * (max_nesting + 2) + 1;

using op = size_expr::op;

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) noexcept { return is_ident_start(c) || is_digit(c); }

/// A character for a message: 'x', or \xNN for a byte that does not print.
std::string char_text(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) {
        constexpr char hex[] = "0123456789abcdef";
        return std::string("byte \\x") + hex[byte >> 4] + hex[byte & 15];
    }
    return std::string("'") + c + "'";
}

/// Two lines for a message: the text (cut to a window around `at`, bytes that do
/// not print shown as '?') and a caret under character `at`.
std::string caret_lines(std::string_view text, std::size_t at) {
    std::size_t begin = 0;
    if (at > max_shown / 2 && text.size() > max_shown) begin = std::min(at - max_shown / 2, text.size() - max_shown);
    const std::size_t end = std::min(text.size(), begin + max_shown);
    std::string shown = begin > 0 ? "..." : "";
    const std::size_t caret_column = shown.size() + (at - begin);
    for (std::size_t i = begin; i < end; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        shown += byte < 0x20 || byte >= 0x7f ? '?' : text[i];
    }
    if (end < text.size()) shown += "...";
    return "\n    " + shown + "\n    " + std::string(caret_column, ' ') + "^";
}

class parser {
public:
    parser(std::string_view text, symbol_table& symbols) : text_(text), symbols_(symbols) {}

    std::vector<size_expr::instruction> run() {
        skip_space();
        if (pos_ == text_.size())
            fail(pos_, "the size is empty; write a number, a symbol or an expression such as \"(H - 8) / 6 + 1\"");
        expr();
        if (pos_ < text_.size()) {
            if (text_[pos_] == ')') fail(pos_, "')' without a matching '('");
            if (!is_known_char(text_[pos_])) fail(pos_, unexpected());
            fail(pos_, "expected an operator (+ - * / //) or the end, found " + found());
        }
        return std::move(program_);
    }

private:
    [[noreturn]] void fail(std::size_t at, const std::string& problem) const {
        throw_error(errc::invalid_spec, "malformed size expression at character " + std::to_string(at + 1) + ": " +
                                            problem + caret_lines(text_, at));
    }

    std::string found() const { return pos_ == text_.size() ? std::string("the end") : char_text(text_[pos_]); }

    void skip_space() {
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    }

    void expr() {
        term();
        while (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
            const char sign = text_[pos_++];
            skip_space();
            operand_after(sign == '+' ? "'+'" : "'-'");
            term();
            emit(sign == '+' ? op::add : op::sub);
        }
    }

    void term() {
        unary();
        while (pos_ < text_.size() && (text_[pos_] == '*' || text_[pos_] == '/')) {
            op code = text_[pos_] == '*' ? op::mul : op::div;
            const char* spelled = text_[pos_] == '*' ? "'*'" : "'/'";
            ++pos_;
            if (code == op::div && pos_ < text_.size() && text_[pos_] == '/') {
                code = op::floor_div;
                spelled = "'//'";
                ++pos_;
            }
            if (pos_ < text_.size() && (text_[pos_] == '*' || text_[pos_] == '/'))
                fail(pos_, std::string("unexpected ") + char_text(text_[pos_]) +
                               " after " + spelled + "; sizes use + - * / // (no ** or ///)");
            skip_space();
            operand_after(spelled);
            unary();
            emit(code);
        }
    }

    /// Fails unless an operand can start here.
    void operand_after(const char* what) const {
        if (pos_ < text_.size() &&
            (is_digit(text_[pos_]) || is_ident_start(text_[pos_]) || text_[pos_] == '(' || text_[pos_] == '+' ||
             text_[pos_] == '-'))
            return;
        if (pos_ < text_.size() && !is_known_char(text_[pos_])) fail(pos_, unexpected());
        fail(pos_, std::string("expected a number, a symbol or '(' after ") + what + ", found " + found());
    }

    static bool is_known_char(char c) noexcept {
        return is_digit(c) || is_ident_start(c) || is_space(c) || c == '+' || c == '-' || c == '*' || c == '/' ||
               c == '(' || c == ')';
    }

    std::string unexpected() const {
        return "unexpected " + char_text(text_[pos_]) +
               "; a size is an integer, a symbol or an expression with + - * / // and parentheses";
    }

    void unary() {
        // Signs fold into one negation or none: "- -N" is N, as in Python.
        bool negate = false;
        int signs = 0;
        while (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
            if (++signs > max_nesting) fail(pos_, "more than " + std::to_string(max_nesting) + " signs in a row");
            if (text_[pos_] == '-') negate = !negate;
            ++pos_;
            skip_space();
        }
        primary();
        if (negate) emit(op::neg);
    }

    void primary() {
        if (pos_ == text_.size()) fail(pos_, "expected a number, a symbol or '(', found the end");
        const char c = text_[pos_];
        if (is_digit(c)) return number();
        if (is_ident_start(c)) return symbol();
        if (c == '(') {
            const std::size_t open = pos_;
            if (++depth_ > max_nesting)
                fail(pos_, "parentheses nest deeper than " + std::to_string(max_nesting) + " levels");
            ++pos_;
            skip_space();
            if (pos_ < text_.size() && text_[pos_] == ')') fail(pos_, "empty parentheses");
            expr();
            if (pos_ == text_.size()) fail(open, "'(' is never closed; add ')'");
            if (text_[pos_] != ')') {
                if (!is_known_char(text_[pos_])) fail(pos_, unexpected());
                fail(pos_, "expected an operator (+ - * / //) or ')', found " + found());
            }
            ++pos_;
            --depth_;
            skip_space();
            return;
        }
        if (c == ')') fail(pos_, "expected a number, a symbol or '(', found ')'");
        if (c == '*' || c == '/') fail(pos_, "expected a number, a symbol or '(' before " + char_text(c));
        fail(pos_, unexpected());
    }

    void number() {
        const std::size_t start = pos_;
        std::uint64_t value = 0;
        bool too_large = false;
        while (pos_ < text_.size() && is_digit(text_[pos_])) {
            const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
            if (value > (static_cast<std::uint64_t>(INT64_MAX) - digit) / 10) too_large = true;
            else value = value * 10 + digit;
            ++pos_;
        }
        if (too_large)
            fail(start, "the number " + std::string(text_.substr(start, std::min<std::size_t>(pos_ - start, 40))) +
                            " does not fit in 64 bits (the limit is 2^63-1)");
        program_.push_back({op::literal, static_cast<std::int64_t>(value)});
        skip_space();
    }

    void symbol() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
        const std::string_view word = text_.substr(start, pos_ - start);
        if (word.size() > max_name_length)
            fail(start, "a symbol has at most " + std::to_string(max_name_length) + " characters");
        program_.push_back({op::symbol, static_cast<std::int64_t>(symbols_.intern(word))});
        skip_space();
    }

    void emit(op code) { program_.push_back({code, 0}); }

    std::string_view text_;
    symbol_table& symbols_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::vector<size_expr::instruction> program_;
};

bool checked(op code, std::int64_t a, std::int64_t b, size_eval& out) noexcept {
    switch (code) {
        case op::add: return !__builtin_add_overflow(a, b, &out.value);
        case op::sub: return !__builtin_sub_overflow(a, b, &out.value);
        case op::mul: return !__builtin_mul_overflow(a, b, &out.value);
        default: break;
    }
    if (b == 0) {
        out.state = size_eval::status::division_by_zero;
        out.lhs = a;
        return false;
    }
    if (a == INT64_MIN && b == -1) return false;
    if (code == op::div && a % b != 0) {
        out.state = size_eval::status::inexact;
        out.lhs = a;
        out.rhs = b;
        return false;
    }
    out.value = a / b;
    if (code == op::floor_div && a % b != 0 && ((a < 0) != (b < 0))) --out.value;
    return true;
}

int precedence(op code) noexcept {
    switch (code) {
        case op::add:
        case op::sub: return 1;
        case op::mul:
        case op::div:
        case op::floor_div: return 2;
        case op::neg: return 3;
        default: return 4;
    }
}

std::string_view spelling(op code) noexcept {
    switch (code) {
        case op::add: return " + ";
        case op::sub: return " - ";
        case op::mul: return " * ";
        case op::div: return " / ";
        case op::floor_div: return " // ";
        default: return "";
    }
}

}  // namespace

// ---------------------------------------------------------------------------------

std::uint32_t symbol_table::intern(std::string_view name) {
    if (const auto it = index_.find(name); it != index_.end()) return it->second;
    const auto index = static_cast<std::uint32_t>(names_.size());
    names_.emplace_back(name);
    index_.emplace(names_.back(), index);
    return index;
}

std::int64_t symbol_table::find(std::string_view name) const noexcept {
    const auto it = index_.find(name);
    return it == index_.end() ? -1 : static_cast<std::int64_t>(it->second);
}

size_expr size_expr::literal(std::int64_t value) noexcept {
    size_expr e;
    e.kind_ = kind::literal;
    e.value_ = value;
    return e;
}

size_expr size_expr::symbol(std::uint32_t index) noexcept {
    size_expr e;
    e.kind_ = kind::symbol;
    e.value_ = index;
    return e;
}

size_expr size_expr::parse(std::string_view text, symbol_table& symbols) {
    std::vector<instruction> program = parser(text, symbols).run();
    if (program.size() == 1) return program[0].code == op::literal ? literal(program[0].value)
                                                                    : symbol(static_cast<std::uint32_t>(program[0].value));
    size_expr e;
    e.kind_ = kind::expression;
    e.program_ = std::move(program);
    return e;
}

std::vector<std::uint32_t> size_expr::symbols() const {
    std::vector<std::uint32_t> out;
    if (kind_ == kind::symbol) out.push_back(symbol_index());
    for (const instruction& in : program_) {
        const auto s = static_cast<std::uint32_t>(in.value);
        if (in.code == op::symbol && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    return out;
}

size_eval size_expr::evaluate(std::span<const std::int64_t> values) const noexcept {
    size_eval out;
    const auto lookup = [&](std::int64_t index, std::int64_t& value) {
        const auto s = static_cast<std::size_t>(index);
        if (s >= values.size() || values[s] < 0) {
            out.state = size_eval::status::unbound;
            out.symbol = static_cast<std::uint32_t>(index);
            return false;
        }
        value = values[s];
        return true;
    };
    if (kind_ == kind::literal) {
        out.value = value_;
        return out;
    }
    if (kind_ == kind::symbol) {
        lookup(value_, out.value);
        return out;
    }
    std::array<std::int64_t, max_stack> stack{};
    std::size_t top = 0;  // values on the stack
    for (const instruction& in : program_) {
        switch (in.code) {
            case op::literal: stack[top++] = in.value; break;
            case op::symbol:
                if (!lookup(in.value, stack[top++])) return out;
                break;
            case op::neg:
                if (stack[top - 1] == INT64_MIN) {
                    out.state = size_eval::status::overflow;
                    return out;
                }
                stack[top - 1] = -stack[top - 1];
                break;
            default: {
                const std::int64_t b = stack[--top];
                const std::int64_t a = stack[top - 1];
                if (!checked(in.code, a, b, out)) {
                    if (out.state == size_eval::status::ok) out.state = size_eval::status::overflow;
                    return out;
                }
                stack[top - 1] = out.value;
            }
        }
    }
    out.value = stack[0];
    if (out.value < 0) out.state = size_eval::status::negative;
    return out;
}

std::string size_expr::text(const symbol_table& symbols) const {
    if (kind_ == kind::literal) return std::to_string(value_);
    if (kind_ == kind::symbol) return symbols.name(symbol_index());
    struct part {
        std::string text;
        int precedence;
    };
    std::vector<part> stack;
    for (const instruction& in : program_) {
        switch (in.code) {
            case op::literal: stack.push_back({std::to_string(in.value), 4}); break;
            case op::symbol: stack.push_back({symbols.name(static_cast<std::uint32_t>(in.value)), 4}); break;
            case op::neg: {
                part& p = stack.back();
                p.text = p.precedence <= 3 ? "-(" + p.text + ")" : "-" + p.text;
                p.precedence = 3;
                break;
            }
            default: {
                part b = std::move(stack.back());
                stack.pop_back();
                part& a = stack.back();
                const int prec = precedence(in.code);
                // Left-associative: the right operand of equal precedence keeps its
                // parentheses (a - (b - c), a * (b / c) differ from their flat forms).
                if (a.precedence < prec) a.text = "(" + a.text + ")";
                if (b.precedence <= prec) b.text = "(" + b.text + ")";
                a.text += std::string(spelling(in.code)) + b.text;
                a.precedence = prec;
            }
        }
    }
    return stack.empty() ? std::string("0") : stack.back().text;
}

std::string to_string(const size_eval& e, const symbol_table& symbols) {
    switch (e.state) {
        case size_eval::status::ok: return {};
        case size_eval::status::unbound:
            return "symbol " + (e.symbol < symbols.size() ? symbols.name(e.symbol) : std::to_string(e.symbol)) +
                   " is not bound yet";
        case size_eval::status::inexact:
            return std::to_string(e.lhs) + " / " + std::to_string(e.rhs) +
                   " does not divide exactly (use // to round down)";
        case size_eval::status::division_by_zero: return "it divides " + std::to_string(e.lhs) + " by 0";
        case size_eval::status::overflow: return "an intermediate value overflows 64 bits";
        case size_eval::status::negative: return "it is " + std::to_string(e.value) + "; a size must be >= 0";
    }
    return {};
}

}  // namespace nt
