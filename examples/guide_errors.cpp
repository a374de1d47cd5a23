// docs/guide.md, "Threads" and "Errors"; docs/reference.md quotes the messages.
// Every misuse throws nt::error (a std::runtime_error) with a stable code().
#include <nt/nt.hpp>

#include <functional>
#include <iostream>
#include <string>

namespace {
// Runs `f` and prints the code and message of the nt::error it throws.
void show(const std::function<void()>& f) {
    try {
        f();
        std::cout << "no error\n";
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << "\n  " << e.message() << "\n";
    }
}
}  // namespace

int main() {
    // [threads]
    nt::set_num_threads(2);  // 0: the hardware concurrency, 1: the calling thread only
    std::cout << "threads: " << nt::get_num_threads() << "\n";
    // [threads]

    // [catch]
    auto img = nt::zeros<float>({10, 3, 4, 5}, {"?", "C", "H", "W"});
    auto lbl = nt::zeros<float>({10, 4, 6}, {"?", "H", "W"});
    try {
        auto sum = img + lbl;
    } catch (const nt::error& e) {  // or std::runtime_error, or std::exception
        std::cout << "code: " << nt::to_string(e.code()) << "\n";
        std::cout << "message: " << e.message() << "\n";
        std::cout << "what: " << e.what() << "\n";
    }
    // [catch]

    std::cout << "\n";
    auto t = nt::zeros<float>({2, 3}, {"N", "C"});
    show([&] { (void)t.squeeze(2); });                                        // axis_out_of_range
    show([&] { (void)nt::sum(t, "H"); });                                     // axis_out_of_range
    show([&] { (void)t.at(2, 0); });                                          // index_out_of_range
    show([&] { (void)t.reshape({4}); });                                      // invalid_argument
    show([&] { (void)t.squeeze("N"); });                                      // invalid_argument
    show([&] { (void)nt::max(nt::zeros<float>({0})); });                      // invalid_argument
    show([&] { (void)t.transpose().view({6}); });                             // not_a_view
    show([&] { t.broadcast_to({4, 2, 3}).fill(1.0f); });                      // read_only
    show([&] { (void)(nt::ones<bool>({2}) - nt::ones<bool>({2})); });         // type_mismatch
    show([&] { (void)(nt::zeros<int>({2, 3}) + nt::zeros<int>({4})); });      // incompatible_sizes
    show([&] { (void)(t + nt::zeros<float>({3, 5}, {"C", "H"})); });          // no_counterpart
    show([&] { (void)(t + nt::zeros<float>({3})); });                         // no_counterpart
    show([&] { (void)nt::zeros<float>({2, 2}, {"H", "H"}); });                // duplicate_name
    show([&] { (void)nt::zeros<float>({2}, {"1C"}); });                       // invalid_spec
    show([&] { (void)nt::zeros<float>({2, 3}, {"N"}); });                     // invalid_spec
    show([&] { (void)t.refine_names({"B", "C"}); });                          // name_mismatch
}
