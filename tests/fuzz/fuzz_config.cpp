// libFuzzer target for one tool's config-file parser (issue 8), chosen at compile
// time by CELLSHIFT_FUZZ_CONFIG: sim, train, eval. The input bytes become the
// file given to --config, parsed with the tool's own option definitions and
// then checked as the tool checks them before it runs. The contract: a config
// is accepted, or rejected with an exception carrying one line; a crash, a
// sanitizer report, an uncaught exception or a hang is a finding.

#include "cellshift/data/error.hpp"
#include "cellshift/tool/run_tool.hpp"
#include "fuzz_input.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(CELLSHIFT_FUZZ_CONFIG_SIM)
#include "tool/run_cli.hpp"
#include "tool/run_command.hpp"
#elif defined(CELLSHIFT_FUZZ_CONFIG_TRAIN)
#include "train_config.hpp"
#elif defined(CELLSHIFT_FUZZ_CONFIG_EVAL)
int cellshift_eval_main(int argc, char** argv); // eval/main.cpp, renamed
#endif

namespace {

void check_one_line(const std::string& message) {
    if (message.empty() || message.find('\n') != std::string::npos)
        std::abort();
}

#if !defined(CELLSHIFT_FUZZ_CONFIG_EVAL) // the eval target runs the tool's own main
// Parses `args` with `app`; a CLI11 rejection must be one line.
bool parse(CLI::App& app, std::vector<std::string> args) {
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        return true;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() != 0)
            check_one_line(cellshift::tool::one_line(e.what()));
        return false;
    }
}
#endif

void parse_config(const std::string& path) {
#if defined(CELLSHIFT_FUZZ_CONFIG_SIM)
    using namespace cellshift::sim;
    CLI::App app{"cellshift-sim"};
    tool::RunCommandLine line;
    line.balance.controller_file = CELLSHIFT_SHIPPED_CONTROLLER;
    tool::add_run_subcommand(app, line);
    if (!parse(app, {"cellshift-sim", "--config", path, "run"}))
        return;
    tool::validate_run_options(line.run, 1);
    // As `mpirun -n P` would check it, for a few P (each may reject alone).
    for (int ranks : {1, 3, 64}) {
        try {
            (void)make_checked_policy(line.params, with_resolved_slabs(line.balance, line.params),
                                      ranks);
        } catch (const std::invalid_argument& e) {
            check_one_line(e.what());
        }
    }
#elif defined(CELLSHIFT_FUZZ_CONFIG_TRAIN)
    CLI::App app{"cellshift-train"};
    cellshift::trainer::TrainCommandLine line;
    cellshift::trainer::add_train_options(app, line);
    if (!parse(app, {"cellshift-train", "--config", path}))
        return;
    cellshift::trainer::validate(line.config);
#elif defined(CELLSHIFT_FUZZ_CONFIG_EVAL)
    // The whole tool, stopped by --dry-run after parsing: the exit code is free,
    // the tool prints its one-line errors itself.
    std::vector<std::string> args = {"cellshift-eval", "--config", path, "--dry-run", "policies"};
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    (void)cellshift_eval_main(static_cast<int>(argv.size()), argv.data());
#endif
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = cellshift::fuzz::input_file("config", ".toml", data, size);
    try {
        parse_config(path);
    } catch (const std::exception& e) {
        // What the tool would print after "<tool>: error: " (run_tool).
        check_one_line(cellshift::tool::one_line(e.what()));
    }
    return 0;
}
