#pragma once
// What a multi-rank run records of its balancing (rank 0's view): one entry per
// rebalancing event, the runtime under both clocks, and where each rank's wall
// time went by phase.

#include "cellshift/sim/balance_options.hpp"

#include <cstdint>
#include <vector>

namespace cellshift::sim {

// One rebalancing event, as the run record stores it.
struct BalanceEvent {
    std::int64_t step = 0;
    std::vector<double> rank_time;        // [P] of the interval that just ended
    std::vector<std::int64_t> boundaries; // [P+1] that governed it
    std::vector<std::int64_t> elements;   // [P] owned at its end
    double imbalance = 0.0;               // max/mean - 1 of rank_time
    std::int64_t migrated_slices = 0;     // moved by this event's decision
    std::int64_t migrated_elements = 0;   // elements that changed owner because of it
    std::int64_t limited = 0;             // boundaries whose move w_min shortened
};

// Sums over the run so far (rank 0's view), under both clocks whichever one the
// policy sees: runtime = sum over steps of the slowest rank's time plus
// migration; mean = sum over steps of the mean rank time (perfect balance).
struct ClockTotals {
    double runtime = 0.0;
    double mean = 0.0;
    double migration = 0.0; // of runtime
    // Share of the runtime spent waiting for the slowest rank.
    double waiting_fraction() const {
        return runtime > 0.0 ? (runtime - migration - mean) / runtime : 0.0;
    }
};

struct BalanceTotals {
    ClockTotals model, measured;
    std::int64_t steps = 0;
    std::int64_t ghosts = 0;    // ghost elements received, summed over steps and ranks
    std::int64_t divisions = 0; // of the whole tissue
    std::int64_t elements_added = 0;
    std::int64_t differentiations = 0;
    std::int64_t interactions = 0; // pair interactions, whole tissue
    const ClockTotals& of(Clock clock) const { return clock == Clock::model ? model : measured; }
    ClockTotals& of(Clock clock) { return clock == Clock::model ? model : measured; }
};

// Where this rank's wall time went, by phase (steady clock, seconds): what the
// decomposition itself costs beside the physics (docs/simulator.md, "Overheads").
struct PhaseSeconds {
    double ghost_exchange = 0.0; // extents, packing, neighbour exchange, merge
    double forces = 0.0;         // the backend's force evaluation
    double integration = 0.0;    // the Euler step of owned elements
    double step_sync = 0.0;      // the per-step all-gather: mostly waiting for the slowest rank
    double lifecycle = 0.0;      // growth, division, differentiation (not migration)
    double migration = 0.0;      // cells to their owners, after lifecycle and rebalancing
    double decision = 0.0;       // rebalancing: gathers, the policy, the broadcast
    static constexpr int kCount = 7;
    double* begin() { return &ghost_exchange; }
    const double* begin() const { return &ghost_exchange; }
    static const char* name(int k);
};

} // namespace cellshift::sim
