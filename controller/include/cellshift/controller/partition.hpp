#pragma once
// Repartitioning from scratch, given a per-slice load: the equal-share
// prefix-sum split used by the forecast baselines and the initial partition, and
// the exact min-max partition used by the clairvoyant oracle.

#include "cellshift/controller/layout.hpp"

#include <vector>

namespace cellshift::controller {

// Cut k is placed where the prefix load is nearest to k/P of the total, then
// pushed right/left as needed so that every rank keeps >= w_min slices.
Boundaries split_equal_load(const std::vector<double>& load, const Layout& layout);

// Max over ranks of the summed load under `boundaries` (from prefix sums).
double bottleneck(const std::vector<double>& load, const Boundaries& boundaries);

// The contiguous partition into P parts of >= w_min slices that minimises the
// largest part load, exactly (bisection on the bottleneck down to adjacent
// doubles, each step an exact reachability check). Among optimal partitions it
// picks, from the last cut to the first, the cut nearest to `prefer` (the current
// boundaries), so that the oracle does not migrate for nothing.
Boundaries optimal_partition(const std::vector<double>& load, const Layout& layout,
                             const Boundaries& prefer);

} // namespace cellshift::controller
