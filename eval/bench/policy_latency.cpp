// Benchmark: decision latency of every policy per rebalancing event, at
// P = 16, 256 and 4096 (S = 16 P slices, w_min = 2), on a generated scenario.
// Prints one JSON object per (policy, P): the median over --repeats runs of the
// mean time per decision, and per interior boundary. Not a test: it asserts
// nothing about time. Run: build/eval/cellshift-bench-policies [--repeats N] [--policy NAME]

#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include "cellshift/tool/run_tool.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace cellshift;

int main(int argc, char** argv) {
    int repeats = 5;
    std::string only; // --policy NAME: just that one
    CLI::App app{"Decision latency of every policy per rebalancing event at P = 16, 256, 4096 "
                 "(S = 16 P); one JSON line per (policy, P), medians over --repeats runs"};
    app.add_option("--repeats", repeats, "runs per figure (the median is printed)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    std::vector<std::string> names;
    for (const auto& style : controller::policy_styles()) {
        names.push_back(style.name);
    }
    app.add_option("--policy", only, "only this policy")->check(CLI::IsMember(names));
    return tool::run_tool<CLI::ParseError>("cellshift-bench-policies", app, argc, argv, [&] {
        for (std::int64_t ranks : {16, 256, 4096}) {
            scenarios::ScenarioConfig config;
            config.ranks = ranks;
            config.events = 40;
            config.slices = {16.0 * static_cast<double>(ranks), 16.0 * static_cast<double>(ranks)};
            config.w_min = {2, 2};
            config.cluster_count = {60.0 * static_cast<double>(ranks) / 16.0,
                                    60.0 * static_cast<double>(ranks) / 16.0};
            auto sc = scenarios::generate_scenario(config, scenarios::evaluation_seed(0));
            for (const auto& style : controller::policy_styles()) {
                if (!only.empty() && style.name != only) {
                    continue;
                }
                if (style.name == "rnn") {
                    continue; // rnn-zero runs the same GRU arithmetic without a file
                }
                if (style.name == "oracle" && ranks > 256) {
                    std::printf(
                        "{\"policy\": \"oracle\", \"ranks\": %lld, \"skipped\": \"O(P S) per "
                        "bisection step, about 60 steps: seconds per decision\"}\n",
                        static_cast<long long>(ranks));
                    continue;
                }
                std::vector<double> per_decision;
                for (int r = 0; r < repeats; ++r) {
                    auto policy = controller::make_policy(style.name);
                    controller::Boundaries b = controller::split_equal_load(sc.row(0), sc.layout);
                    policy->reset(sc.layout, b);
                    double seconds = 0.0;
                    for (std::int64_t t = 1; t <= sc.events(); ++t) {
                        controller::Observation o;
                        o.slice_workload = sc.row(t - 1);
                        o.rank_times =
                            controller::rank_sums(o.slice_workload, policy->boundaries());
                        o.growth_events = sc.growth_row(t - 1);
                        o.cycle_phase = sc.cycle_phase[static_cast<std::size_t>(t - 1)];
                        o.next_workload = sc.row(t);
                        auto start = std::chrono::steady_clock::now();
                        policy->decide(o);
                        seconds +=
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                                .count();
                    }
                    per_decision.push_back(seconds / static_cast<double>(sc.events()));
                }
                std::sort(per_decision.begin(), per_decision.end());
                double median = per_decision[per_decision.size() / 2];
                std::printf(
                    "{\"policy\": \"%s\", \"ranks\": %lld, \"slices\": %lld, \"repeats\": %d, "
                    "\"us_per_decision\": %.3f, \"ns_per_boundary\": %.1f}\n",
                    style.name.c_str(), static_cast<long long>(ranks),
                    static_cast<long long>(sc.layout.slices), repeats, 1e6 * median,
                    1e9 * median / static_cast<double>(ranks - 1));
                std::fflush(stdout);
            }
        }
        return 0;
    });
}
