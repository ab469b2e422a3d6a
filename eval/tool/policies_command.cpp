// `cellshift-eval policies`: the registered policies, their parameters and defaults.
#include "command.hpp"

#include "cellshift/controller/registry.hpp"

#include <iostream>

namespace cellshift::eval::tool {
namespace {

class PoliciesCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand("policies",
                                  "list the registered policies, their parameters and defaults");
    }

    int run() override {
        for (const auto& s : controller::policy_styles()) {
            std::cout << s.name << ": " << s.summary;
            if (s.needs_slice_workload) {
                std::cout << " [needs per-slice workload estimates]";
            }
            if (s.clairvoyant) {
                std::cout << " [clairvoyant: not causal]";
            }
            std::cout << "\n";
            for (const auto& p : s.parameters) {
                std::cout << "    " << s.name << "." << p.name << " = " << p.default_value
                          << "  in [" << p.min_value << ", " << p.max_value << "]  " << p.meaning
                          << "\n";
            }
        }
        return 0;
    }
};

} // namespace

std::unique_ptr<Command> make_policies_command() {
    return std::make_unique<PoliciesCommand>();
}

} // namespace cellshift::eval::tool
