#pragma once
// `cellshift-sim calibrate`: measures the model clock's constants on this machine
// (one process): seconds per pair interaction and per element from timed steps of
// grown tissues of several sizes (least squares through the origin), per ghost
// element from the ghost merge, per migrated element from packing and unpacking
// cells. Prints the fit and the options that use it.

#include "cellshift/sim/sem_params.hpp"

#include <cstdint>
#include <string>

namespace cellshift::sim::tool {

struct CalibrateOptions {
    std::string backend = "cpu-binned";
    std::int64_t steps = 40; // timed steps per sample
    int repeats = 5;         // samples per tissue; the median counts
};

int calibrate(const SemParams& params, const CalibrateOptions& options);

} // namespace cellshift::sim::tool
