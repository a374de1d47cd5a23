// Shared helpers for ntensor's Catch2 tests: printers and spec builders.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <initializer_list>
#include <istream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "nt/error.hpp"
#include "nt/match.hpp"
#include "nt/spec.hpp"

namespace Catch {
template <>
struct StringMaker<nt::spec> {
    static std::string convert(const nt::spec& s) { return nt::to_string(s); }
};
template <>
struct StringMaker<nt::errc> {
    static std::string convert(nt::errc c) { return std::string(nt::to_string(c)); }
};
}  // namespace Catch

namespace nt::test {

/// A spec built axis by axis without validation (to feed invalid specs to match).
inline spec unchecked_spec(std::initializer_list<std::int64_t> sizes, std::initializer_list<const char*> names = {}) {
    spec s;
    auto n = names.begin();
    for (std::int64_t size : sizes) s.push_back({size, n != names.end() ? nt::name(*n++) : nt::name{}});
    return s;
}

/// Source map from a vector with -1 for "inserted".
inline small_vector<std::int32_t, 8> map_of(const std::vector<int>& v) {
    small_vector<std::int32_t, 8> out;
    for (int x : v) out.push_back(x);
    return out;
}

/// A reference to a callable (which must outlive it) giving an R (void: called for
/// its effect). The checks below take one instead of being templates: the tests pass
/// them thousands of distinct lambdas (each a type of its own, many inside
/// TEMPLATE_TEST_CASEs), and a template instantiated the checks' Catch2 machinery
/// once per lambda, the largest part of some test files' compile time.
template <class R = void>
class callback_ref {
public:
    template <class F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, callback_ref>)
    callback_ref(F&& f) noexcept  // NOLINT(google-explicit-constructor): lambdas convert at the call
        : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_(&call<std::remove_reference_t<F>>) {}
    R operator()() const { return call_(callable_); }

private:
    template <class F>
    static R call(void* f) {
        if constexpr (std::is_void_v<R>) (void)(*static_cast<F*>(f))();
        else return R((*static_cast<F*>(f))());
    }
    void* callable_;
    R (*call_)(void*);
};

/// Runs `fn`, requires it to throw nt::error with `code`, returns the message.
inline std::string error_message(errc code, callback_ref<> fn) {
    try {
        fn();
    } catch (const error& e) {
        CHECK(e.code() == code);
        return e.message();
    }
    FAIL("expected nt::error with code " << to_string(code) << ", nothing was thrown");
    return {};
}

/// Runs f, which must throw nt::error with `code` and a message containing every part.
inline void require_error(callback_ref<> f, errc code, std::initializer_list<const char*> parts) {
    try {
        f();
        FAIL("no nt::error thrown");
    } catch (const error& e) {
        INFO(e.what());
        CHECK(e.code() == code);
        for (const char* p : parts) CHECK(std::string(e.message()).find(p) != std::string::npos);
    }
}

// --- oracle data files ---------------------------------------------------------------
// The NumPy generators (tests/numpy/gen_*.py) write line-based files: a first word
// ("case", "input", "out", "error", "end"), then fields; a tensor's shape and names as
// "<rank> <sizes...> <names...>" ("?": unnamed), its elements after the word "values".

/// The shape and names of one tensor of an oracle file.
struct oracle_shape {
    std::vector<std::int64_t> shape;
    std::vector<std::string> names;
};

inline oracle_shape read_oracle_shape(std::istream& in) {
    oracle_shape s;
    std::size_t rank = 0;
    in >> rank;
    s.shape.resize(rank);
    s.names.resize(rank);
    for (auto& size : s.shape) in >> size;
    for (auto& n : s.names) in >> n;
    return s;
}

/// The words after "values" (read next) to the end of the line, as text.
inline std::vector<std::string> read_oracle_values(std::istream& in) {
    std::string word;
    in >> word;
    std::vector<std::string> values;
    for (std::string v; in >> v;) values.push_back(v);
    return values;
}

/// Calls f(kind, fields, line) for each line of an oracle file; `fixture` names the
/// setup test that writes it, for the message when the file is missing.
template <class F>
void for_each_oracle_line(const std::string& path, const char* fixture, F&& f) {
    std::ifstream in(path);
    if (!in) FAIL("cannot open " << path << " (run the fixture test " << fixture << ")");
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string kind;
        fields >> kind;
        f(kind, fields, line);
    }
}

#ifdef NT_SOURCE_DIR
/// The text of examples/specs/<file>, a config of the project.
inline std::string read_example(const std::string& file) {
    std::ifstream in(std::string(NT_SOURCE_DIR) + "/examples/specs/" + file);
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
#endif

}  // namespace nt::test
