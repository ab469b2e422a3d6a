#pragma once
// The training and validation workloads of one step, drawn from the step's key:
// a window of a recorded trace (a share trace_fraction of the steps, when traces
// are given) or a generator family (equal weights), P drawn in [min_ranks,
// max_ranks], and each scenario's migration cost mu log-uniform in the config's
// range. Torch-free: the BPTT trainer turns the list into a tensor batch, the
// evolution-strategies trainer rolls it out in the hard loop.

#include "train_config.hpp"

#include "cellshift/data/trace.hpp"
#include "cellshift/scenarios/scenario.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::trainer {

struct SampledScenarios {
    std::vector<scenarios::Scenario> scenarios; // share P, S and w_min
    std::vector<double> migration_cost;         // mu, one per scenario
};

// `count` scenarios for step `index` on the seed range starting at `base`.
SampledScenarios sample_scenarios(const TrainConfig& config, const std::vector<data::Trace>& traces,
                                  std::uint64_t base, std::uint64_t index, std::int64_t count);

// Reads the trace files; throws data::Error for a trace shorter than 3 events.
std::vector<data::Trace> read_traces(const std::vector<std::string>& paths);

} // namespace cellshift::trainer
