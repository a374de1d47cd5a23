// The tape on the tensor: with_grad, backward, grad, no_grad, detach, retain_graph,
// create_graph, the version counter, the transforms' contracts, threads, and errors.
#include "laws_support.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

using nt::test::random_tensor;
using nt::test::require_error;

TEST_CASE("backward adds the gradient of a sum of products into the leaves", "[autograd][tape]") {
    auto w = nt::ones<float>({3}, {"C"}).with_grad();
    const auto x = nt::arange<float>(6).reshape({2, 3}, {"N", "C"});
    CHECK(w.requires_grad());
    CHECK_FALSE(x.requires_grad());
    const auto loss = nt::sum(x * w);
    CHECK(loss.requires_grad());
    loss.backward();
    CHECK(w.has_grad());
    CHECK(nt::to_string(w.grad().spec()) == "(3 | C)");
    CHECK(w.grad().to_vector() == nt::sum(x, "N").to_vector());
    // A second pass accumulates, zero_grad resets.
    nt::sum(x * w).backward();
    CHECK(w.grad().to_vector() == (2.0f * nt::sum(x, "N")).to_vector());
    w.zero_grad();
    CHECK(w.grad().to_vector() == std::vector<float>{0, 0, 0});
    // A seed for a result of several elements: the gradient of sum(seed * y).
    auto v = nt::ones<double>({2, 2}, {"A", "B"}).with_grad();
    const auto y = v * v;
    y.backward(nt::full<double>({2, 2}, 3.0, {"A", "B"}));
    CHECK(v.grad().to_vector() == std::vector<double>{6, 6, 6, 6});
}

TEST_CASE("nothing records under no_grad or through detach", "[autograd][tape]") {
    auto w = nt::ones<float>({3}).with_grad();
    {
        const nt::no_grad guard;
        CHECK_FALSE((w * 2.0f).requires_grad());
        w -= 0.5f;  // optimisers update leaves so
    }
    CHECK(w.to_vector() == std::vector<float>{0.5f, 0.5f, 0.5f});
    CHECK((w * 2.0f).requires_grad());
    const auto d = w.detach();
    CHECK_FALSE(d.requires_grad());
    CHECK(d.shares_storage(w));
    CHECK_FALSE(nt::sum(d * 2.0f).requires_grad());
}

TEST_CASE("retain_graph keeps the rules for a second pass; create_graph records it", "[autograd][tape]") {
    auto x = nt::full<double>({1}, 3.0).with_grad();
    const auto y = nt::sum(x * x * x);
    y.backward(nt::backward_options{.retain_graph = true});
    y.backward();
    CHECK(x.grad().to_vector()[0] == 2 * 27.0);
    const std::string freed = nt::test::error_message(nt::errc::invalid_argument, [&] { y.backward(); });
    CHECK(freed.find("freed") != std::string::npos);
    CHECK(freed.find("retain_graph") != std::string::npos);

    auto z = nt::full<double>({1}, 2.0).with_grad();
    nt::sum(z * z * z).backward(nt::backward_options{.create_graph = true});
    const auto g = z.grad();  // 3 z^2, itself differentiable
    CHECK(g.requires_grad());
    z.zero_grad();
    const auto g_value = g.detach().clone();
    {
        // the gradient of g (6 z) lands in z.grad(), which zero_grad left at zeros
        nt::sum(g).backward();
    }
    CHECK(g_value.to_vector()[0] == 12.0);
    CHECK(z.grad().to_vector()[0] == 12.0);
}

TEST_CASE("writes in place to a saved tensor make backward throw modified_in_place", "[autograd][tape]") {
    auto x = nt::ones<float>({3}).with_grad();
    auto e = nt::exp(x * 2.0f);  // exp saves its result
    auto loss = nt::sum(e);  // sum saves nothing: exp's rule is the one that reads e
    {
        const nt::no_grad guard;
        e.fill(0.0f);
    }
    const std::string m = nt::test::error_message(nt::errc::modified_in_place, [&] { loss.backward(); });
    CHECK(m.find("exp") != std::string::npos);
    CHECK(m.find("fill") != std::string::npos);
    // A write to a tensor of the graph while recording is refused at once.
    auto y = x * 2.0f;
    require_error([&] { y += 1.0f; }, nt::errc::invalid_argument, {});
    require_error([&] { x.fill(1.0f); }, nt::errc::invalid_argument, {});
    // Writes to an operand that the rule saved, through another view of its storage.
    auto a = nt::ones<float>({2, 2});
    auto b = (nt::ones<float>({2, 2}) * 3.0f).with_grad();
    auto prod = nt::sum(a * b);  // saves a for b's gradient
    a.index(0).fill(5.0f);
    require_error([&] { prod.backward(); }, nt::errc::modified_in_place, {});
}

TEST_CASE("writes to other storages never trip a saved tensor", "[autograd][tape]") {
    // Storages share version slots (src/autograd/graph.cpp): thousands of writes into
    // other tensors, some in the saved one's slot, must not be taken for its own.
    auto w = nt::full<double>({4}, 2.0).with_grad();
    auto saved = nt::full<double>({4}, 3.0);
    auto y = nt::sum(saved * w);  // saves `saved`
    std::vector<nt::Tensor<double>> others;
    for (int i = 0; i < 20000; ++i) {
        others.push_back(nt::zeros<double>({1}));
        others.back().fill(1.0);
    }
    y.backward();
    CHECK(w.grad().to_vector() == std::vector<double>{3, 3, 3, 3});
    // A storage written before it was saved, and again after its graph was freed.
    auto v = nt::full<double>({2}, 1.0);
    v.fill(4.0);
    auto z = nt::sum(v * w.slice(0, 0, 2));
    w.zero_grad();
    z.backward();
    v.fill(5.0);
    auto z2 = nt::sum(v * w.slice(0, 0, 2));
    w.zero_grad();
    z2.backward();
    CHECK(w.grad().to_vector() == std::vector<double>{5, 5, 0, 0});
}

TEST_CASE("errors name the operation and the fix", "[autograd][tape][errors]") {
    auto i = nt::zeros<std::int32_t>({3});
    const std::string integer = nt::test::error_message(nt::errc::invalid_argument, [&] { (void)i.with_grad(); });
    CHECK(integer.find("int32") != std::string::npos);
    CHECK(integer.find("astype") != std::string::npos);

    auto w = nt::ones<float>({3}).with_grad();
    const std::string never = nt::test::error_message(nt::errc::no_gradient, [&] { (void)w.grad(); });
    CHECK(never.find("backward") != std::string::npos);
    const auto plain = nt::ones<float>({3});
    require_error([&] { (void)plain.grad(); }, nt::errc::no_gradient, {});
    require_error([&] { (void)(w * 2.0f).grad(); }, nt::errc::no_gradient, {});

    const std::string vector = nt::test::error_message(nt::errc::invalid_argument, [&] { (w * 2.0f).backward(); });
    CHECK(vector.find("seed") != std::string::npos);
    require_error([&] { plain.backward(); }, nt::errc::invalid_argument, {});
    require_error([&] { (void)(w * 2.0f).with_grad(); }, nt::errc::invalid_argument, {});
    require_error([&] { (w * 2.0f).backward(nt::ones<float>({4})); }, nt::errc::invalid_argument, {});
    const std::string many = nt::test::error_message(
        nt::errc::invalid_argument, [&] { (void)nt::grad([](const auto& t) { return t * 2.0f; }, w); });
    CHECK(many.find("vjp") != std::string::npos);

    // Names longer than a node keeps inline are kept whole (interned).
    auto image = nt::ones<float>({1, 4, 4}, {"C", "H", "W"}).with_grad();
    const auto pooled = nt::max_pool_with_indices(image, {"H", "W"}, {2}).first;
    const std::string long_name = nt::test::error_message(nt::errc::no_gradient, [&] { (void)pooled.grad(); });
    CHECK(long_name.find("'max_pool_with_indices'") != std::string::npos);
    const auto doubled = pooled * 2.0f;
    const std::string short_name = nt::test::error_message(nt::errc::no_gradient, [&] { (void)doubled.grad(); });
    CHECK(short_name.find("'operator*'") != std::string::npos);
}

TEST_CASE("function transforms leave the leaves' gradients alone", "[autograd][tape][transforms]") {
    auto w = nt::ones<double>({3}).with_grad();
    const auto g = nt::grad([](const auto& t) { return nt::sum(t * t); }, w);
    CHECK(g.to_vector() == std::vector<double>{2, 2, 2});
    CHECK_FALSE(w.has_grad());
    // value_and_grad; several arguments give a tuple; f independent of an argument: zeros.
    const auto x = random_tensor({2, 3}, {"N", "C"}, -1, 1, 3);
    const auto [value, grads] =
        nt::value_and_grad([](const auto& a, const auto& /*b*/) { return nt::sum(a * 2.0); }, x, x.index(0));
    CHECK(value.to_vector()[0] == Approx(2.0 * nt::sum(x).to_vector()[0]));
    CHECK(std::get<1>(grads).to_vector() == std::vector<double>{0, 0, 0});
    // vjp and jvp of an element-wise square: 2 x v.
    const auto v = random_tensor({2, 3}, {"N", "C"}, -1, 1, 5);
    const auto vjp = nt::vjp([](const auto& t) { return t * t; }, x, v);
    const auto jvp = nt::jvp([](const auto& t) { return t * t; }, x, v);
    CHECK(nt::max(nt::abs(vjp - 2.0 * x * v)).to_vector()[0] < 1e-15);
    CHECK(nt::max(nt::abs(jvp - 2.0 * x * v)).to_vector()[0] < 1e-15);
    // jvp of a map that mixes elements: J t against central differences of f along t.
    auto f = [](const auto& t) { return nt::softmax(t, "C") * nt::sum(t, "N"); };
    const auto jt = nt::jvp(f, x, v);
    const double eps = 1e-6;
    const auto numeric = (f(x + eps * v) - f(x - eps * v)) / (2 * eps);
    CHECK(nt::max(nt::abs(jt - numeric)).to_vector()[0] < 1e-8);
    // check_grad reports a wrong gradient: a function whose rule is deliberately
    // bypassed (detach in the middle) disagrees with the finite differences.
    const auto report = nt::check_grad([](const auto& t) { return nt::sum(t * t.detach()); }, x);
    CHECK_FALSE(report.ok);
    CHECK(report.where.find("argument 0") != std::string::npos);
}

TEST_CASE("a write in place is caught whichever threads saved, freed and wrote", "[autograd][tape][threads]") {
    // Saved tensors are counted per thread (src/autograd/graph.cpp): a count left by a
    // thread that has ended, or one made on one thread and freed on another, must
    // still tell a write whether its storage is watched.
    auto w = nt::full<double>({3}, 2.0).with_grad();
    auto a = nt::full<double>({3}, 3.0);
    nt::Tensor<double> loss;
    std::thread([&] { loss = nt::sum(a * w); }).join();  // saved on a thread that ended
    a.fill(7.0);
    require_error([&] { loss.backward(); }, nt::errc::modified_in_place, {});

    // Saved on this thread, freed on another: the storage is no longer watched, and
    // a later graph over it computes with the new values.
    auto b = nt::full<double>({3}, 3.0);
    auto first = nt::sum(b * w);
    std::thread([moved = std::move(first)]() mutable { moved = nt::Tensor<double>(); }).join();
    b.fill(4.0);
    w.zero_grad();
    nt::sum(b * w).backward();
    CHECK(w.grad().to_vector() == std::vector<double>{4, 4, 4});

    // Saved on a second thread, written on this one while that thread still runs.
    std::mutex m;
    std::condition_variable cv;
    bool saved = false, written = false;
    std::string message;
    auto c = nt::full<double>({3}, 1.0);
    std::thread t([&] {
        auto y = nt::sum(c * w);
        {
            std::unique_lock lock(m);
            saved = true;
            cv.notify_all();
            cv.wait(lock, [&] { return written; });
        }
        message = nt::test::error_message(nt::errc::modified_in_place, [&] { y.backward(); });
    });
    {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return saved; });
        c.fill(9.0);
        written = true;
        cv.notify_all();
    }
    t.join();
    CHECK(message.find("fill") != std::string::npos);
}

TEST_CASE("two graphs on two threads at once", "[autograd][tape][threads]") {
    auto w = nt::ones<double>({64}).with_grad();
    auto run = [&](double scale, nt::Tensor<double>& out) {
        auto x = nt::arange<double>(64) * scale;
        for (int k = 0; k < 50; ++k) {
            nt::sum(nt::exp(x * w * 0.01) * scale).backward();
            // no_grad is per thread: the other thread keeps recording meanwhile
            const nt::no_grad guard;
            out = w.grad().clone();
        }
    };
    nt::Tensor<double> a, b;
    std::thread t1(run, 1.0, std::ref(a));
    std::thread t2(run, 2.0, std::ref(b));
    t1.join();
    t2.join();
    // Both threads accumulated into the one leaf: 50 passes each.
    const auto x = nt::arange<double>(64);
    const auto expected = 50.0 * (nt::exp(x * 0.01) * x * 0.01 + nt::exp(x * 0.02) * 2.0 * x * 0.02);
    CHECK(nt::max(nt::abs(w.grad() - expected) / (1.0 + nt::abs(expected))).to_vector()[0] < 1e-12);
}

namespace {

// The storage of a tensor that only the graph's saved tensors keep: expired once
// the graph is freed.
std::weak_ptr<void> storage_of(const nt::Tensor<double>& t) { return t.base().owner(); }

}  // namespace

TEST_CASE("a graph dropped on another thread is freed", "[autograd][tape][threads]") {
    auto w = nt::full<double>({3}, 2.0).with_grad();

    // Made on a thread that has ended: freed when the last tensor goes.
    nt::Tensor<double> loss;
    std::weak_ptr<void> saved;
    std::thread([&] {
        const auto a = nt::full<double>({3}, 3.0);
        saved = storage_of(a);
        loss = nt::sum(a * w);  // saves a
    }).join();
    CHECK(!saved.expired());
    loss = nt::Tensor<double>();
    CHECK(saved.expired());

    // Made on a thread that still runs: freed by the time it has recorded again.
    std::mutex m;
    std::condition_variable cv;
    int stage = 0;  // 1: graph handed over, 2: dropped here, 3: the thread recorded again
    auto wait_for = [&](int s) {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stage >= s; });
    };
    auto advance = [&](int s) {
        const std::lock_guard lock(m);
        stage = s;
        cv.notify_all();
    };
    std::thread maker([&] {
        {
            const auto a = nt::full<double>({3}, 3.0);
            saved = storage_of(a);
            loss = nt::sum(nt::tanh(a * w));
        }
        advance(1);
        wait_for(2);
        const auto other = nt::sum(w * 3.0);  // records, so takes note of what was dropped
        advance(3);
        wait_for(4);
    });
    wait_for(1);
    CHECK(!saved.expired());
    loss = nt::Tensor<double>();
    advance(2);
    wait_for(3);
    CHECK(saved.expired());
    advance(4);
    maker.join();
}

TEST_CASE("tensors of one graph copied and dropped on many threads at once", "[autograd][tape][threads]") {
    auto w = nt::full<double>({4}, 0.5).with_grad();
    std::weak_ptr<void> saved;
    nt::Tensor<double> y;
    {
        const auto a = nt::full<double>({4}, 3.0);
        saved = storage_of(a);
        y = nt::exp(a * w);
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([y, w] {
            for (int k = 0; k < 2000; ++k) {
                const nt::Tensor<double> copy = y;  // a reference counted by a thread other than the maker
                const auto z = copy * w;            // a node of this thread over the maker's
                (void)z;
            }
        });
    // Meanwhile this thread drops and takes references of its own.
    for (int k = 0; k < 2000; ++k) {
        const nt::Tensor<double> copy = y;
        (void)copy;
    }
    for (auto& t : threads) t.join();
    nt::sum(y).backward(nt::backward_options{.retain_graph = true});
    CHECK(nt::max(nt::abs(w.grad() - 3.0 * nt::exp(nt::full<double>({4}, 1.5)))).to_vector()[0] < 1e-12);
    CHECK(!saved.expired());
    y = nt::Tensor<double>();
    CHECK(saved.expired());
}

TEST_CASE("a graph as long as the program ran is freed without recursion", "[autograd][tape]") {
    // 200,000 nodes, each holding the one before: a recursive free takes a frame per
    // node and overflows the stack.
    auto w = nt::full<double>({1}, 1.0).with_grad();
    auto y = w * 1.0;
    for (int k = 0; k < 200000; ++k) y = y + 1.0;
    CHECK(y.to_vector()[0] == 200001.0);
    y = nt::Tensor<double>();
    CHECK(!y.requires_grad());
}
