#pragma once
// `cellshift-sim calibrate`: measures the model clock's constants on this machine
// (one process): seconds per pair interaction and per element from timed steps of
// grown tissues of several sizes (least squares through the origin), per ghost
// element from the ghost merge, per migrated element from packing and unpacking
// cells. Prints the fit and the options that use it, and the migration cost mu
// (docs/design.md 8.1: moving a slab relative to computing it for one rebalancing
// interval) that the fit and the model clock's defaults imply.

#include "cellshift/sim/sem_params.hpp"

#include <cstdint>
#include <string>

namespace cellshift::sim::tool {

struct CalibrateOptions {
    std::string backend = "cpu-binned";
    std::int64_t steps = 40;            // timed steps per sample
    int repeats = 5;                    // samples per tissue; the median counts
    std::int64_t rebalance_every = 100; // steps between rebalancing events, for mu
};

// mu for a rank that moves an element at `per_migrated` seconds and computes it
// at `per_pair` x pairs_per_element + `per_element` seconds a step, rebalancing
// every `rebalance_every` steps.
double migration_cost_mu(double per_pair, double per_element, double per_migrated,
                         double pairs_per_element, std::int64_t rebalance_every);

int calibrate(const SemParams& params, const CalibrateOptions& options);

} // namespace cellshift::sim::tool
