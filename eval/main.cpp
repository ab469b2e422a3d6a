// cellshift-eval: compare load-balancing policies on held-out scenarios and on
// user traces, list the policies, and work with cellshift files. Each subcommand
// lives in its own file under tool/.

#include "tool/command.hpp"

#include "cellshift/tool/run_tool.hpp"
#include "cellshift/version.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    using namespace cellshift::eval::tool;
    CLI::App app{"cellshift-eval: evaluate load-balancing policies on held-out scenarios and "
                 "user traces, and inspect cellshift files."};
    app.set_version_flag("--version", std::string("cellshift-eval ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + ")");
    app.set_config("--config", "", "read options from an INI or TOML file");
    app.require_subcommand(1);
    bool dry_run = false;
    app.add_flag("--dry-run", dry_run,
                 "check the command line and the config file, print the options as a config "
                 "file would set them, and stop without running");

    std::vector<std::unique_ptr<Command>> commands;
    for (auto make :
         {make_scenarios_command, make_trace_command, make_sweep_command, make_bound_command,
          make_policies_command, make_inspect_command, make_report_command, make_runs_command,
          make_convert_trace_command, make_write_scenario_command}) {
        commands.push_back(make());
        commands.back()->add_to(app);
    }

    return cellshift::tool::run_tool<CLI::ParseError>("cellshift-eval", app, argc, argv, [&] {
        if (dry_run) {
            std::cout << app.config_to_str(true, false);
            return 0;
        }
        for (const auto& command : commands) {
            if (command->parsed())
                return command->run();
        }
        return 0;
    });
}
