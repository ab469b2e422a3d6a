#pragma once
// One cellshift-eval subcommand per file (as sim/tool/ does): each declares its
// options on the app and runs when the command line named it; main.cpp only
// loops over them.

#include <CLI/CLI.hpp>

#include <memory>
#include <vector>

namespace cellshift::eval::tool {

class Command {
public:
    virtual ~Command() = default;
    // Adds the subcommand and its options to `app`; keeps the subcommand.
    virtual void add_to(CLI::App& app) = 0;
    virtual int run() = 0;
    bool parsed() const { return sub_ != nullptr && sub_->parsed(); }

protected:
    CLI::App* sub_ = nullptr;
};

std::unique_ptr<Command> make_scenarios_command();
std::unique_ptr<Command> make_trace_command();
std::unique_ptr<Command> make_sweep_command();
std::unique_ptr<Command> make_bound_command();
std::unique_ptr<Command> make_policies_command();
std::unique_ptr<Command> make_inspect_command();
std::unique_ptr<Command> make_report_command();
std::unique_ptr<Command> make_runs_command();
std::unique_ptr<Command> make_convert_trace_command();
std::unique_ptr<Command> make_write_scenario_command();

} // namespace cellshift::eval::tool
