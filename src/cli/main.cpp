// The `ntensor` command: checks a JSON shape config before any data moves.
//
//     ntensor plan [--json] FILE|-
//     ntensor --help | --version
//
// Exit status: 0 a plan, 1 an nt::error (the config is wrong or does not
// broadcast), 2 a wrong command line or an unreadable file, 3 an internal error.
// Only the matcher is linked: the command never touches tensor data.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nt/shape_config.hpp"
#include "nt/error.hpp"
#include "nt/match.hpp"
#include "nt/version.hpp"

namespace {

enum exit_status : int {
    exit_plan = 0,
    exit_config_error = 1,
    exit_usage_or_io = 2,
    exit_internal = 3,
};

constexpr std::string_view usage_text =
    "usage: ntensor plan [--json] FILE|-\n"
    "       ntensor --help | --version\n"
    "\n"
    "Reads a JSON shape config (see docs/config.md) and prints how its tensors\n"
    "broadcast: the output spec and, for every input, which of its axes feeds each\n"
    "output axis. FILE '-' reads standard input.\n"
    "\n"
    "  --json     print the plan, or the error, as one JSON object\n"
    "  --help     print this help\n"
    "  --version  print the version\n"
    "\n"
    "exit status: 0 a plan, 1 a config error (wrong config or no broadcast),\n"
    "             2 a wrong command line or an unreadable file\n";

/// What the command line asks for.
struct command {
    enum class kind { plan, help, version } what = kind::plan;
    bool json = false;
    std::string file;
};

/// A wrong command line or an unreadable file: exit status 2, one line on stderr.
struct usage_error {
    std::string message;
};

command parse_plan_arguments(const std::vector<std::string_view>& args) {
    command cmd;
    std::optional<std::string> file;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--json") {
            cmd.json = true;
        } else if (arg == "--help" || arg == "-h") {
            return {command::kind::help, false, {}};
        } else if (arg.size() > 1 && arg.front() == '-') {
            throw usage_error{"unknown option '" + std::string(arg) + "' for 'plan' (try 'ntensor --help')"};
        } else if (file) {
            throw usage_error{"'plan' takes one FILE, got '" + *file + "' and '" + std::string(arg) + "'"};
        } else {
            file = std::string(arg);
        }
    }
    if (!file) throw usage_error{"'plan' needs a FILE, or '-' for standard input (try 'ntensor --help')"};
    cmd.file = *file;
    return cmd;
}

command parse_arguments(const std::vector<std::string_view>& args) {
    if (args.empty()) throw usage_error{"no command given (try 'ntensor --help')"};
    const std::string_view first = args.front();
    const bool wants_help = first == "--help" || first == "-h";
    if ((wants_help || first == "--version") && args.size() > 1)
        throw usage_error{"'" + std::string(first) + "' takes no arguments"};
    if (wants_help) return {command::kind::help, false, {}};
    if (first == "--version") return {command::kind::version, false, {}};
    if (first == "plan") return parse_plan_arguments(args);
    throw usage_error{"unknown command '" + std::string(first) + "' (try 'ntensor --help')"};
}

/// Reads all of `stream`; a read error (EISDIR for a directory, EIO) is a usage error.
std::string read_all(std::FILE* stream, const std::string& display_name) {
    std::string text;
    char buffer[1 << 16];
    std::size_t count = 0;
    while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0) text.append(buffer, count);
    if (std::ferror(stream)) throw usage_error{"cannot read " + display_name + ": " + std::strerror(errno)};
    return text;
}

std::string read_input(const std::string& file) {
    if (file == "-") return read_all(stdin, "standard input");
    errno = 0;
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"), &std::fclose);
    if (!stream) throw usage_error{"cannot open '" + file + "': " + std::strerror(errno)};
    return read_all(stream.get(), "'" + file + "'");
}

void print_error(const nt::error& e, bool json) {
    if (json)
        std::cout << nt::error_to_json(e) << '\n';
    else
        std::cout << "error [" << nt::to_string(e.code()) << "]: " << e.message() << '\n';
}

int run_plan(const command& cmd) {
    const std::string text = read_input(cmd.file);
    try {
        const nt::shape_config config = nt::parse_config(text);
        const nt::plan p = nt::plan_config(config);
        if (cmd.json) {
            std::cout << nt::plan_to_json(p, config.broadcast) << '\n';
        } else {
            const std::vector<std::string_view> labels(config.broadcast.begin(), config.broadcast.end());
            std::cout << nt::explain(p, labels);
        }
        return exit_plan;
    } catch (const nt::error& e) {
        print_error(e, cmd.json);
        return exit_config_error;
    }
}

int run(const command& cmd) {
    switch (cmd.what) {
        case command::kind::help: std::cout << usage_text; return exit_plan;
        case command::kind::version: std::cout << "ntensor " << NT_VERSION_STRING << '\n'; return exit_plan;
        case command::kind::plan: return run_plan(cmd);
    }
    return exit_internal;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::vector<std::string_view> args(argv + 1, argv + argc);
        const int status = run(parse_arguments(args));
        std::cout.flush();
        if (!std::cout) {
            std::cerr << "ntensor: cannot write to standard output\n";
            return exit_usage_or_io;
        }
        return status;
    } catch (const usage_error& e) {
        std::cerr << "ntensor: " << e.message << '\n';
        return exit_usage_or_io;
    } catch (const std::exception& e) {
        std::cerr << "ntensor: internal error: " << e.what() << '\n';
        return exit_internal;
    }
}
