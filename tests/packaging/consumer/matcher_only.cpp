// A consumer that links ntensor::matcher alone: shapes are matched with no tensor
// library, no JSON and no files on the link line.
#include <nt/match.hpp>
#include <nt/spec.hpp>

#include <iostream>

int main() {
    const nt::plan p = nt::match({nt::parse_spec("(10,3,256,384 | ?,CHANNEL,H,W)"), nt::parse_spec("(10,256,384 | ?,H,W)")});
    if (p.output.rank() != 4 || nt::to_string(p.output) != "(10,3,256,384 | ?,CHANNEL,H,W)") {
        std::cerr << "FAILED: matcher alone gave " << p.output << '\n';
        return 1;
    }
    return 0;
}
