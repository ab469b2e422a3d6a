#pragma once
// The modelled duration of one rebalancing interval, migration included
// (docs/runtime.md): the yardstick the evaluator sums over a rollout, and what the
// learned controller's cost gate predicts from its forecast before it moves.

#include "cellshift/controller/layout.hpp"

#include <vector>

namespace cellshift::controller {

// What migration costs the host, in units of the workload itself.
struct MigrationCost {
    // mu: cost of moving one slice relative to computing it for one rebalancing
    // interval. A rank pays mu x (cost of every slice it sends or receives).
    double mu = 0.0;
    // kappa: fixed cost of an event that moves anything (re-binning, neighbour
    // lists, the collective), as a fraction of the interval's mean rank time,
    // paid by every rank.
    double kappa = 0.0;
};

// Per rank, the summed cost of the slices it sends or receives when the
// boundaries change from `before` to `after` (a slice that changes owner counts
// for its old and for its new owner). `slice_cost` holds one value per slice.
std::vector<double> migration_traffic(const std::vector<double>& slice_cost,
                                      const Boundaries& before, const Boundaries& after);

// The modelled duration of one interval: every rank computes its noise-free
// time T_p (the slice costs it owns under `after`) plus mu x its migration
// traffic, plus kappa x mean_p T_p when any boundary moved; the interval lasts
// as long as its slowest rank. With mu = kappa = 0 it is max_p T_p.
double interval_runtime(const std::vector<double>& slice_cost, const Boundaries& before,
                        const Boundaries& after, const MigrationCost& cost);

} // namespace cellshift::controller
