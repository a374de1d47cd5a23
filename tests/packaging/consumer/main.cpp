// A consumer of the installed ntensor: the matcher and a Tensor, through the
// umbrella header. Exits 0 when everything behaves; prints what did not.
#include <nt/nt.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

namespace {
int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::cerr << "FAILED: " << what << '\n';
        ++failures;
    }
}
}  // namespace

int main() {
    // The matcher: NCHW image and an HW mask meet by name.
    const nt::plan p = nt::match({nt::parse_spec("(10,3,256,384 | N,C,H,W)"), nt::parse_spec("(256,384 | H,W)")});
    check(p.output.rank() == 4, "match: output rank 4");
    check(p.inputs.size() == 2, "match: two input plans");

    // A Tensor: a view, a write through it, a structural op.
    auto a = nt::arange<std::int64_t>(12).reshape({3, 4});
    auto col = a.index(nt::all, 1);
    col.fill(-1);
    check(a.at(2, 1) == -1, "a write through a view is seen by its base");
    const auto t = a.transpose();
    check(t.shape()[0] == 4 && t.shape()[1] == 3, "transpose swaps the last two axes");
    check(t.shares_storage(a), "transpose is a view");
    const std::vector<std::int64_t> row = a.index(0).to_vector();
    check(row == std::vector<std::int64_t>{0, -1, 2, 3}, "index(0).to_vector()");

    // Errors carry stable codes.
    try {
        (void)a.squeeze(0);
        check(false, "squeeze of a size-3 axis throws");
    } catch (const nt::error& e) {
        check(e.code() == nt::errc::invalid_argument, "squeeze error code is invalid_argument");
    }

    // A product: the static library's private BLAS must link through the package.
    const auto x = nt::arange<float>(6).reshape({2, 3}, {"N", "C"});
    const auto w = nt::ones<float>({3, 2}, {"C", "K"});
    const auto y = nt::dot(x, w, "C");
    check(y.at(1, 0) == 12.0f, "dot over C: 3 + 4 + 5");
    check(nt::matmul(x.rename({}), w.rename({})).at(0, 1) == 3.0f, "matmul: 0 + 1 + 2");

    check(nt::version() == NT_VERSION_STRING, "nt::version() matches the header");
    std::cout << "ntensor " << nt::version() << " consumer: " << (failures ? "FAILED" : "ok") << '\n';
    return failures == 0 ? 0 : 1;
}
