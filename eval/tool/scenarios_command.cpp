// `cellshift-eval scenarios`: every policy on the same held-out generator scenarios.
#include "command.hpp"
#include "compare_options.hpp"

#include "cellshift/eval/tables.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace cellshift::eval::tool {
namespace {

class ScenariosCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand(
            "scenarios", "every policy on the same held-out scenarios (evaluation seeds, never "
                         "trained on); prints one table per rank count");
        add_compare_options(sub_, options_);
        sub_->add_option("--events", sc_.events, "rebalancing events per rollout (400: stability)")
            ->check(CLI::Range(1, 1000000))
            ->capture_default_str();
        sub_->add_option("--count", sc_.count, "scenarios per rank count")
            ->check(CLI::Range(1, 1000000))
            ->capture_default_str();
        sub_->add_option("--first-index", sc_.first_index,
                         "index of the first evaluation seed (scenario i uses evaluation seed "
                         "first-index + i)")
            ->capture_default_str();
        std::string names;
        for (const auto& r : scenarios::range_names())
            names += (names.empty() ? "" : ", ") + r;
        sub_->add_option("--scenario", ranges_,
                         "override a scenario parameter range, NAME=LO,HI (repeatable); names: " +
                             names)
            ->delimiter('\0');
        sub_->add_option("--threads", sc_.threads, "threads (results do not depend on it)")
            ->check(CLI::Range(1, 1024))
            ->capture_default_str();
        add_family_option(sub_, sc_.base.family);
    }

    int run() override {
        auto weights = load_controller(options_);
        auto specs = policy_specs(options_, weights ? &*weights : nullptr);
        sc_.ranks = options_.ranks;
        for (const auto& r : ranges_)
            set_scenario_range(r);
        sc_.keep_records = options_.records;
        sc_.cost = options_.cost;
        const auto start = std::chrono::steady_clock::now();
        const auto seconds = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        if (!options_.quiet) {
            const bool tty = ::isatty(2) != 0;
            sc_.progress = [=](std::int64_t ranks, std::int64_t done, std::int64_t total) {
                if (tty || done == total) {
                    std::fprintf(stderr, "%s[eval] P = %lld: %lld/%lld scenarios, %.1f s%s",
                                 tty ? "\r" : "", static_cast<long long>(ranks),
                                 static_cast<long long>(done), static_cast<long long>(total),
                                 seconds(), done == total ? "\n" : "");
                }
            };
        }
        const ComparisonResult result = compare_on_scenarios(specs, sc_);
        const double elapsed = seconds();
        const std::string caption =
            "family " + sc_.base.family + ", evaluation seeds " +
            std::to_string(scenarios::kEvaluationSeedBase + sc_.first_index) +
            "+; clock: workload (noise-free per-slice cost); " + cost_caption(sc_.cost);
        std::cout << format_table(result.rows, caption) << rnn_note(specs, weights.has_value())
                  << std::flush;
        if (!options_.quiet) {
            const double decisions = static_cast<double>(specs.size() * sc_.ranks.size()) *
                                     static_cast<double>(sc_.count * sc_.events);
            std::fprintf(stderr,
                         "[eval] %.0f policy decisions in %.2f s (%.0f events/s, %d threads)\n",
                         decisions, elapsed, decisions / elapsed, sc_.threads);
        }
        write_outputs(*sub_, options_, result, "scenarios", caption);
        return 0;
    }

private:
    // "NAME=LO,HI" -> the scenario range NAME.
    void set_scenario_range(const std::string& r) {
        const auto eq = r.find('=');
        const auto comma = r.find(',', eq == std::string::npos ? 0 : eq);
        if (eq == std::string::npos || comma == std::string::npos) {
            throw std::invalid_argument("--scenario '" + r + "' is not NAME=LO,HI");
        }
        try {
            scenarios::set_range(
                sc_.base, r.substr(0, eq),
                {std::stod(r.substr(eq + 1, comma - eq - 1)), std::stod(r.substr(comma + 1))});
        } catch (const std::invalid_argument& e) {
            if (std::string(e.what()).rfind("unknown scenario", 0) == 0) {
                throw;
            }
            throw std::invalid_argument("--scenario '" + r + "': bounds are not numbers");
        }
    }

    CompareOptions options_;
    ScenarioComparison sc_ = default_comparison();
    std::vector<std::string> ranges_;
};

} // namespace

std::unique_ptr<Command> make_scenarios_command() {
    return std::make_unique<ScenariosCommand>();
}

} // namespace cellshift::eval::tool
