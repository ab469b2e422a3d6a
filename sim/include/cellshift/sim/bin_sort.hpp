#pragma once
// Counting sort of elements by bin: bin b holds sorted positions
// [start[b], start[b + 1]), and order[s] is the element at sorted position s.
// The sort is stable, so within a bin elements keep the array's (id) order: the
// canonical neighbour order every backend and every decomposition shares.

#include "cellshift/sim/bin_grid.hpp"

#include <cstdint>
#include <vector>

namespace cellshift::sim {

struct BinSort {
    std::vector<std::int32_t> start; // [bins + 1]
    std::vector<std::int32_t> order; // [elements]
    std::vector<std::int32_t> bin;   // [elements], bin of each element in array order

    void build(const BinGrid& grid, const double* x, const double* y, const double* z,
               std::size_t n);
    std::int32_t count(int b) const { return start[b + 1] - start[b]; }
    // Elements in the 3x3x3 bins around (and including) bin b.
    std::int64_t neighbourhood(const BinGrid& grid, int b) const;
};

} // namespace cellshift::sim
