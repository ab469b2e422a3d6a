#pragma once
// How a simulation balances (docs/design.md section 5): the slabs, the policy and
// its parameters, the clock the policy reads and the cost model behind it, and the
// check of all of them against the model and the rank count. MPI-free, so the
// config fuzzer and the tools check a setup without starting MPI.

#include "cellshift/controller/policy.hpp"
#include "cellshift/sim/cost_model.hpp"
#include "cellshift/sim/sem_params.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cellshift::sim {

// The rank times a policy sees: the calibrated cost model (reproducible, the same
// on every machine) or the steady clock around each rank's compute.
enum class Clock { model, measured };
const char* clock_name(Clock clock);

// The per-slab workload a forecast policy observes at each event, both taken at
// the interval's last step:
//   interactions: candidate partners per element in its 3x3x3 bin neighbourhood,
//                 on the slab of the bin (a proxy in arbitrary units);
//   cost:         the cost model's seconds for that step per slab: pairs within the
//                 cutoff and the per-element term, each element on the slab of its
//                 cell's centroid, i.e. what the model clock charges (ghosts aside).
// Both are whole-tissue sums, so they do not depend on the boundaries. With `cost`
// the shipped controller ran 1.5% faster live on the training and validation tissues
// (mixed per tissue), holt and persistence 1.3-2% (docs/research_log.md, session 15);
// the default stays the proxy the trace corpus and the controller were made with.
enum class SlabEstimate { interactions, cost };
const char* slab_estimate_name(SlabEstimate estimate);

struct BalanceOptions {
    std::int64_t slabs = 0;             // S: slabs along x (the balancer's slices);
                                        // 0: one per bin column, Lx / bin edge
    std::int64_t w_min = 2;             // minimum slabs per rank
    std::int64_t rebalance_every = 100; // steps between rebalancing events (0: never)
    std::string policy = "static";      // registry name
    std::string controller_file;        // for rnn
    std::vector<std::string> params;    // POLICY.NAME=VALUE overrides of its parameters
    Clock clock = Clock::model;
    SlabEstimate slab_estimate = SlabEstimate::cost;
    CostModel cost;
};

// The rebalancing intervals a run that stops at `last_step` has left after an event at
// `step`, the one the new boundaries govern included (at least 1; a last interval cut
// short counts), or 0 where the last step is not known (0) or nothing rebalances.
std::int64_t rebalance_intervals_left(std::int64_t step, std::int64_t last_step,
                                      std::int64_t rebalance_every);

// `balance` with --slabs 0 resolved to one slab per bin column of `params`.
BalanceOptions with_resolved_slabs(BalanceOptions balance, const SemParams& params);

// Checks the model and the (resolved) balancing options for `ranks` ranks, as a
// SlabSimulation does before anything runs, and makes the policy. Throws
// std::invalid_argument with one line naming the option.
std::unique_ptr<controller::Policy> make_checked_policy(const SemParams& params,
                                                        const BalanceOptions& balance, int ranks);

} // namespace cellshift::sim
