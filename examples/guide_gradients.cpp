// docs/guide.md, "Gradients": reverse mode on the tensor, gradients that keep their
// names, the function transforms, and what stops a recording (nt/autograd.hpp).
#include <nt/nt.hpp>

#include <iomanip>
#include <iostream>

int main() {
    {
        // [tape]
        // A leaf that accumulates a gradient, and a batch that does not.
        auto w = nt::tensor<float>({0.5f, -1.0f, 2.0f}).rename({"C"}).with_grad();
        auto x = nt::arange<float>(6).reshape({2, 3}, {"N", "C"});
        auto loss = nt::sum(nt::square(x * w - 1.0f));
        loss.backward();  // d loss / d w, added into w.grad()
        std::cout << "loss    " << loss << "\n";
        std::cout << "w.grad  " << w.grad() << "\n";
        // [tape]
    }
    {
        // [names]
        // w (C) was broadcast over N by the matcher: its gradient is summed over N,
        // and comes back with w's shape and names. nt::sum_to is that reduction.
        auto g = nt::ones<float>({2, 3}, {"N", "C"});
        std::cout << "sum_to  " << nt::sum_to(g, nt::spec({3}, {"C"})) << "\n";
        // An operand whose names come in another order gets its gradient in its own order.
        auto b = nt::ones<float>({3, 2}, {"C", "N"}).with_grad();
        nt::sum(nt::arange<float>(6).reshape({2, 3}, {"N", "C"}) * b).backward();
        std::cout << "b.grad  " << b.grad() << "\n";
        // [names]
    }
    {
        // [transforms]
        auto f = [](const nt::Tensor<double>& x) { return nt::sum(x * x * x); };
        auto x = nt::tensor<double>({1.0, 2.0, 3.0});
        std::cout << "grad        " << nt::grad(f, x) << "\n";  // 3 x^2
        // Gradients of gradients: the rules are written with ntensor's own operations.
        auto second = [&](const nt::Tensor<double>& y) { return nt::sum(nt::grad(f, y)); };
        std::cout << "grad(grad)  " << nt::grad(second, x) << "\n";  // 6 x
        auto v = nt::tensor<double>({1.0, 0.0, -1.0});
        std::cout << "vjp         " << nt::vjp([](const auto& t) { return nt::exp(t); }, x, v) << "\n";
        std::cout << "jvp         " << nt::jvp([](const auto& t) { return t * t; }, x, v) << "\n";
        auto report = nt::check_grad([](const auto& t) { return nt::sum(nt::softmax(t, 0) * t); }, x);
        std::cout << "check_grad  ok " << report.ok << ", max relative error below 1e-8 " << (report.max_rel_error < 1e-8)
                  << "\n";
        // [transforms]
    }
    {
        // [control]
        auto w = nt::ones<float>({2}).with_grad();
        {
            nt::no_grad guard;  // nothing records: an update in place is allowed
            w -= 0.5f;
            std::cout << "under no_grad, requires_grad " << (w * 2.0f).requires_grad() << "\n";
        }
        std::cout << "detach shares storage " << w.detach().shares_storage(w) << ", requires_grad "
                  << w.detach().requires_grad() << "\n";
        try {
            auto y = w * 2.0f;
            y += 1.0f;  // the graph would not see it
        } catch (const nt::error& e) {
            std::cout << "error [" << nt::to_string(e.code()) << "]\n";
        }
        try {
            (void)nt::ones<float>({2}).with_grad().grad();
        } catch (const nt::error& e) {
            std::cout << "error [" << nt::to_string(e.code()) << "]\n";
        }
        // [control]
    }
    {
        // [training]
        // A linear model over a named feature axis, fitted by Adam: a training step is
        // zero_grad, a loss, backward, step.
        auto x = nt::sin(nt::square(nt::arange<float>(24)) * 0.37f).reshape({8, 3}, {"N", "F"});
        auto y = nt::sum(x * nt::tensor<float>({1.0f, -2.0f, 0.5f}).rename({"F"}), "F") + 0.3f;
        auto w = nt::zeros<float>({3}, {"F"}).with_grad();
        auto b = nt::zeros<float>({}).with_grad();
        nt::optim::adam opt({w, b}, {.lr = 0.1});
        for (int step = 0; step <= 400; ++step) {
            opt.zero_grad();
            auto loss = nt::mse_loss(nt::sum(x * w, "F") + b, y);
            loss.backward();
            opt.step();  // w and b change in place, under nt::no_grad
            if (step % 100 == 0)
                std::cout << "step " << step << "  loss " << std::fixed << std::setprecision(5) << loss.to_vector()[0]
                          << "\n";
        }
        std::cout << "w " << nt::round(w * 100.0f) / 100.0f << ", b " << nt::round(b * 100.0f) / 100.0f << "\n";
        // [training]
    }
}
