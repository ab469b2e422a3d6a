#pragma once
// One step's ghosts (docs/design.md section 5): every rank publishes the x extent
// of its elements, sends each neighbour the elements within the cutoff of that
// neighbour's extent, and merges what it receives with its own, in id order,
// into the view the force backend reads.

#include "cellshift/sim/element_parcel.hpp"
#include "cellshift/sim/tissue.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace cellshift::sim {

struct GhostExchange {
    std::size_t ghosts = 0;   // elements received from the neighbours
    double busy_seconds = 0.; // packing and merging; the wait for the neighbours excluded
};

// Collective. Throws CollectiveError when a neighbour's ghosts would not be
// enough (an element farther than one rank away within the cutoff).
GhostExchange exchange_ghosts(MPI_Comm comm, int rank, int size, const Elements& own, double cutoff,
                              std::int64_t step, LocalView& view);

} // namespace cellshift::sim
