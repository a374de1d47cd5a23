// A consumer that links ntensor::config alone: a JSON shape config is read, planned
// and written back as JSON without the tensor library.
#include <nt/shape_config.hpp>

#include <iostream>
#include <string>

int main() {
    const nt::shape_config c = nt::parse_config(R"({
        "tensors": {"image": {"shape": [10, 3, 256, 384], "names": "? CHANNEL H W"},
                    "labels": {"shape": [10, 256, 384], "names": "? H W"}},
        "broadcast": ["image", "labels"]})");
    const nt::plan p = nt::plan_config(c);
    const std::string json = nt::plan_to_json(p, c.broadcast);
    if (p.output.rank() != 4 || json.find("CHANNEL") == std::string::npos) {
        std::cerr << "FAILED: config alone gave " << json << '\n';
        return 1;
    }
    return 0;
}
