// Benchmark: training throughput of the surrogate in scenario-events per second,
// forward pass alone and forward + backward (BPTT), for one batch of 8 scenarios
// x 50 events at P = 8, 16, 32, with the 16 features and with the 12 rank-time
// ones (the difference is the per-slice forecast's cost); median of --repeats
// runs. Prints JSON lines.
// Run: build/trainer/cellshift-bench-surrogate [--repeats N]

#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"
#include "cellshift/surrogate/soft_loop.hpp"

#include "cellshift/tool/run_tool.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace cellshift;

int main(int argc, char** argv) {
    int repeats = 5;
    CLI::App app{"Surrogate throughput in scenario-events per second: forward pass alone and "
                 "forward + backward (BPTT), 8 scenarios x 50 events at P = 8, 16, 32, with 16 "
                 "and 12 features; one JSON line each (medians)"};
    app.add_option("--repeats", repeats, "runs per figure (the median is printed)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    return tool::run_tool<CLI::ParseError>("cellshift-bench-surrogate", app, argc, argv, [&] {
        torch::set_num_threads(1);
        for (std::int64_t features : {16, 12})
            for (std::int64_t ranks : {8, 16, 32}) {
                torch::manual_seed(1);
                surrogate::ResidualGru model(24, features);
                model->to(torch::kFloat64);
                scenarios::ScenarioConfig config;
                config.ranks = ranks;
                config.events = 50;
                config.slices = {512, 512};
                config.w_min = {2, 2};
                std::vector<scenarios::Scenario> list;
                for (std::uint64_t i = 0; i < 8; ++i) {
                    list.push_back(
                        scenarios::generate_scenario(config, scenarios::training_seed(i)));
                }
                auto batch = surrogate::make_batch(list);
                surrogate::SoftLoopConfig loop{0.2, 5e-4, controller::ReactiveParams{}, true};
                loop.round_moves = false;
                std::vector<double> forward, backward;
                for (int r = 0; r < repeats; ++r) {
                    auto t0 = std::chrono::steady_clock::now();
                    {
                        torch::NoGradGuard no_grad;
                        surrogate::run_soft_loop(model, batch, loop);
                    }
                    auto t1 = std::chrono::steady_clock::now();
                    model->zero_grad();
                    surrogate::run_soft_loop(model, batch, loop).loss.backward();
                    auto t2 = std::chrono::steady_clock::now();
                    forward.push_back(std::chrono::duration<double>(t1 - t0).count());
                    backward.push_back(std::chrono::duration<double>(t2 - t1).count());
                }
                std::sort(forward.begin(), forward.end());
                std::sort(backward.begin(), backward.end());
                const double events = 8.0 * 50.0;
                std::printf("{\"features\": %lld, \"ranks\": %lld, \"slices\": 512, \"batch\": 8, "
                            "\"events\": 50, "
                            "\"forward_scenario_events_per_s\": %.0f, "
                            "\"train_step_scenario_events_per_s\": %.0f, "
                            "\"backward_over_forward\": %.2f}\n",
                            static_cast<long long>(features), static_cast<long long>(ranks),
                            events / forward[forward.size() / 2],
                            events / backward[backward.size() / 2],
                            backward[backward.size() / 2] / forward[forward.size() / 2]);
                std::fflush(stdout);
            }
        return 0;
    });
}
