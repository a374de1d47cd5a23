// The tape on the tensor: with_grad, backward, grad, no_grad, detach, and the errors.
#include <nt_test_support.hpp>

#include "nt/nt.hpp"

TEST_CASE("backward adds the gradient of a sum of products into the leaves", "[autograd][tape]") {
    auto w = nt::ones<float>({3}, {"C"}).with_grad();
    const auto x = nt::arange<float>(6).reshape({2, 3}, {"N", "C"});
    nt::sum(x * w).backward();
    CHECK(nt::to_string(w.grad().spec()) == "(3 | C)");
    CHECK(w.grad().to_vector() == nt::sum(x, "N").to_vector());
}
