#pragma once
// Configurations for the SEM tests: a random gas of elements in a few cells, and
// a tissue grown from the basal patch by the simulator itself.

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstdint>

namespace cellshift::test {

// A small domain that keeps the tests fast (a few hundred to a few thousand elements).
sim::SemParams small_domain_params();

// `n` elements uniform in the domain (with a margin of `margin` from the walls),
// spread over `cells` cells, ids sorted; every third cell adheres to the membrane.
sim::Elements random_elements(const sim::SemParams& params, std::size_t n, int cells,
                              std::uint64_t seed, double margin = 0.0);

// max |a - b| over all force components, relative to max |b|.
double relative_difference(const sim::ForceField& a, const sim::ForceField& b);

// The basal patch of `params` advanced `steps` steps with cpu-binned.
sim::Tissue grown_tissue(const sim::SemParams& params, std::int64_t steps);

} // namespace cellshift::test
