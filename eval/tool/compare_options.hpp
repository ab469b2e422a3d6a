#pragma once
// What the comparing subcommands (scenarios, trace, sweep, bound) share: the policy
// list with its --param overrides and controller, the migration cost, the scenario
// family, and the table outputs.

#include "cellshift/controller/registry.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/eval/comparison.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cellshift::eval::tool {

// The CPU simulator's mu at its default rebalance interval, 100 steps (the model clock's
// constants; `cellshift-sim calibrate` prints it, docs/runtime.md derives it).
constexpr double kDefaultMigrationCost = controller::kDefaultMigrationCost;

extern const char* const kDefaultPolicies;

// Options shared by the `scenarios` and `trace` subcommands.
struct CompareOptions {
    std::vector<std::int64_t> ranks{2, 4, 8, 16, 32};
    std::string policies = kDefaultPolicies;
    std::vector<std::string> params;
    std::string controller;
    std::string out_dir = "out/eval";
    std::string json;
    bool records = false;
    bool quiet = false;
    MigrationCost cost{kDefaultMigrationCost, 0.0};
};

void add_compare_options(CLI::App* cmd, CompareOptions& o);
// --migration-cost and --rebalance-cost.
void add_cost_options(CLI::App* cmd, MigrationCost& cost);
// --ranks, --events, --count and --threads of the subcommands that roll scenarios
// themselves (sweep, bound); defaults are the ones already in `s`.
void add_rollout_options(CLI::App* cmd, ScenarioComparison& s);
// --family.
void add_family_option(CLI::App* cmd, std::string& family);
// "runtime: mu = 0.01, kappa = 0" for captions.
std::string cost_caption(const MigrationCost& cost);

std::vector<std::string> split(const std::string& text, char sep);

// The controller `rnn` uses: --controller, else the shipped default (nullopt: none).
std::optional<data::Controller> load_controller(const CompareOptions& o);
// Policy list + --param overrides + the controller, checked against the registry.
std::vector<PolicySpec> policy_specs(const CompareOptions& o, const data::Controller* controller);
// Said under the table when the default policy list had to leave `rnn` out.
std::string rnn_note(const std::vector<PolicySpec>& specs, bool have_controller);
// OUT/STEM.csv and .md (and --json, and the run records with --records), and
// OUT/manifest.json that lists them.
void write_outputs(const CLI::App& command, const CompareOptions& o, const ComparisonResult& result,
                   const std::string& stem, const std::string& caption);
// A scenario comparison with this machine's threads.
ScenarioComparison default_comparison();

} // namespace cellshift::eval::tool
