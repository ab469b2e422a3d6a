#pragma once
// Counter-based random numbers for the simulator: a pure function of
// (seed, stream id, step, component), so every backend and every decomposition
// draws the same number for the same element at the same step, with no state to
// carry, share or checkpoint.

#include "cellshift/common/counter_rng.hpp"

namespace cellshift::sim {

// The project's one definition (cellshift/common/counter_rng.hpp): the simulator's
// streams are element or cell ids, its counters the step and a component.
using common::counter_hash;
using common::counter_normal;
using common::counter_uniform;
using common::mix64;

} // namespace cellshift::sim
