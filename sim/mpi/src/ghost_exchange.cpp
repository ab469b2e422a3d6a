#include "ghost_exchange.hpp"

#include "cellshift/sim/collective_error.hpp"
#include "cellshift/sim/mpi_helpers.hpp"
#include "cellshift/sim/slab_decomposition.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace cellshift::sim {

namespace {

constexpr int kTagCount = 11;
constexpr int kTagGhosts = 12;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

GhostExchange exchange_ghosts(MPI_Comm comm, int rank, int size, const Elements& own, double cutoff,
                              std::int64_t step, LocalView& view) {
    const auto P = static_cast<std::size_t>(size);
    // Where every rank's elements lie: the ghost windows, and the check that
    // neighbours are enough.
    const Extent mine = extent_of(own);
    const double mine2[2] = {mine.lo, mine.hi};
    std::vector<double> all(2 * P);
    MPI_Allgather(mine2, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, comm);
    std::vector<Extent> extents(P);
    for (std::size_t p = 0; p < P; ++p)
        extents[p] = {all[2 * p], all[2 * p + 1]};
    if (std::string problem = ghost_reach_problem(extents, cutoff); !problem.empty())
        throw CollectiveError("step " + std::to_string(step) + ": " + problem);

    GhostExchange result;
    const auto pack_start = std::chrono::steady_clock::now();
    std::vector<ElementRecord> to_left, to_right;
    for (std::size_t i = 0; i < own.size(); ++i) {
        if (rank > 0 &&
            in_ghost_window(own.x[i], extents[static_cast<std::size_t>(rank - 1)], cutoff))
            append_element(to_left, own, i);
        if (rank + 1 < size &&
            in_ghost_window(own.x[i], extents[static_cast<std::size_t>(rank) + 1], cutoff))
            append_element(to_right, own, i);
    }
    result.busy_seconds = seconds_since(pack_start);
    std::vector<ElementRecord> from_left, from_right;
    mpi::exchange_with_neighbours(comm, rank, size, to_left, to_right, from_left, from_right,
                                  kTagCount, kTagGhosts);

    const auto merge_start = std::chrono::steady_clock::now();
    std::vector<ElementRecord> ghosts = std::move(from_left);
    ghosts.insert(ghosts.end(), from_right.begin(), from_right.end());
    std::sort(ghosts.begin(), ghosts.end(),
              [](const ElementRecord& a, const ElementRecord& b) { return a.id < b.id; });
    merge_with_ghosts(own, ghosts, view);
    result.ghosts = ghosts.size();
    result.busy_seconds += seconds_since(merge_start);
    return result;
}

} // namespace cellshift::sim
