#include "scenario_sampler.hpp"

#include "cellshift/data/error.hpp"
#include "cellshift/scenarios/counter_rng.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::trainer {
namespace {

// The scenario source of one step, drawn from the step's key: a window of a
// recorded trace (a share trace_fraction of the steps, when traces are given) or
// a generator family (equal weights).
std::vector<scenarios::Scenario> trace_windows(const TrainConfig& c,
                                               const std::vector<data::Trace>& traces,
                                               std::uint64_t key, std::uint64_t base,
                                               std::int64_t ranks, std::int64_t count) {
    const auto pick = static_cast<std::size_t>(scenarios::counter_uniform(key, 7, 2) *
                                               static_cast<double>(traces.size()));
    const data::Trace& trace = traces[std::min(pick, traces.size() - 1)];
    const auto fine = static_cast<std::int64_t>(trace.slices());
    // At least 4 slices per rank: fewer ranks on a narrow trace, and a coarsening
    // (1, 2 or 4 slices merged) drawn among those that keep it.
    ranks = std::max<std::int64_t>(2, std::min(ranks, fine / 4));
    std::vector<std::int64_t> coarsenings;
    for (std::int64_t k : {1, 2, 4}) {
        if (fine / k >= 4 * ranks) {
            coarsenings.push_back(k);
        }
    }
    const std::int64_t coarsen =
        coarsenings.empty() ? 1
                            : coarsenings[std::min<std::size_t>(
                                  static_cast<std::size_t>(scenarios::counter_uniform(key, 7, 3) *
                                                           static_cast<double>(coarsenings.size())),
                                  coarsenings.size() - 1)];
    const auto rows = static_cast<std::int64_t>(trace.events());
    const std::int64_t events = std::min(c.events, rows - 1);
    const double jitter = 0.01 + 0.04 * scenarios::counter_uniform(key, 7, 4);
    std::vector<scenarios::Scenario> list;
    for (std::int64_t i = 0; i < count; ++i) {
        const auto start = static_cast<std::int64_t>(
            scenarios::counter_uniform(key, 8, static_cast<std::uint64_t>(i)) *
            static_cast<double>(rows - events));
        const std::uint64_t seed =
            base + (key + static_cast<std::uint64_t>(i)) % scenarios::kSeedRangeSize;
        list.push_back(scenarios::scenario_from_trace(trace, std::min(start, rows - events - 1),
                                                      events, ranks, coarsen, 1, jitter, seed));
    }
    return list;
}

// One batch of scenarios that share P, S and w_min: P is drawn per step, the
// first scenario's S and w_min are imposed on the others. Each scenario draws its
// mu log-uniform in [migration_cost_min, migration_cost_max].
} // namespace

SampledScenarios sample_scenarios(const TrainConfig& c, const std::vector<data::Trace>& traces,
                                  std::uint64_t base, std::uint64_t index, std::int64_t count) {
    scenarios::ScenarioConfig config;
    config.events = c.events;
    const std::uint64_t key = scenarios::mix64(c.seed * 0x9E3779B97F4A7C15ULL + index);
    const double u = scenarios::counter_uniform(key, 7, 0);
    const std::int64_t span = c.max_ranks - c.min_ranks + 1;
    config.ranks =
        c.min_ranks +
        std::min<std::int64_t>(static_cast<std::int64_t>(u * static_cast<double>(span)), span - 1);
    std::vector<scenarios::Scenario> list;
    if (!traces.empty() && scenarios::counter_uniform(key, 7, 1) < c.trace_fraction) {
        list = trace_windows(c, traces, key, base, config.ranks, count);
    } else {
        const auto f = static_cast<std::size_t>(scenarios::counter_uniform(key, 7, 5) *
                                                static_cast<double>(c.families.size()));
        config.family = c.families[std::min(f, c.families.size() - 1)];
        for (std::int64_t i = 0; i < count; ++i) {
            std::uint64_t offset =
                (key + static_cast<std::uint64_t>(i)) % scenarios::kSeedRangeSize;
            list.push_back(scenarios::generate_scenario(config, base + offset));
            if (i == 0) {
                const double s = static_cast<double>(list[0].layout.slices);
                const double w = static_cast<double>(list[0].layout.w_min);
                config.slices = {s, s};
                config.w_min = {w, w};
                const double per_rank = s / static_cast<double>(config.ranks);
                config.slices_per_rank = {per_rank, per_rank};
            }
        }
    }
    SampledScenarios sampled;
    sampled.scenarios = std::move(list);
    const double lo = std::log(c.migration_cost_min), hi = std::log(c.migration_cost_max);
    for (std::int64_t i = 0; i < count; ++i) {
        sampled.migration_cost.push_back(std::exp(
            lo + (hi - lo) * scenarios::counter_uniform(key, 9, static_cast<std::uint64_t>(i))));
    }
    return sampled;
}

std::vector<data::Trace> read_traces(const std::vector<std::string>& paths) {
    std::vector<data::Trace> traces;
    for (const auto& path : paths) {
        traces.push_back(data::read_trace(path));
        if (traces.back().events() < 3) {
            data::fail(path, "a training trace needs at least 3 events");
        }
    }
    return traces;
}

} // namespace cellshift::trainer
