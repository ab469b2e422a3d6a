#pragma once
// Workload along the decomposed axis x, per slab (the balancer's slices): the
// paper's workload score for the initial partition, and a per-slab interaction
// estimate for the forecast policies. Slab k covers x in [k Lx / S, (k+1) Lx / S).

#include "cellshift/controller/layout.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstdint>
#include <vector>

namespace cellshift::sim {

std::int64_t slab_of(double x, double Lx, std::int64_t slabs);

// w_i = n_i * n_N(i) for every cell i (n_i its elements, n_N(i) the elements in the
// 3x3x3 bins around the bin of its centroid), summed per slab of the centroid.
std::vector<double> cell_workload_per_slab(const Tissue& tissue, const SemParams& params,
                                           std::int64_t slabs);

// Candidate partners per element (the elements in its 3x3x3 bin neighbourhood),
// summed per slab of the element: proportional to a binned backend's pair work.
std::vector<double> interaction_estimate_per_slab(const Tissue& tissue, const SemParams& params,
                                                  std::int64_t slabs);

// Elements per bin of the whole domain's grid (BinGrid numbering). With MPI each
// rank counts its own and the sum over ranks is the whole tissue's count, from
// which the estimate below is exact whatever the decomposition (a rank's ghosts
// reach one cutoff, a bin's neighbourhood up to two bin edges).
std::vector<double> element_count_per_bin(const Elements& elements, const SemParams& params);

// The estimate above from the whole tissue's count per bin: each bin's count
// times the count of its 3x3x3 neighbourhood, on the slab of the bin's centre
// (the slab of every element in it when a slab is a whole number of bins).
std::vector<double> interaction_estimate_per_slab(const std::vector<double>& count_per_bin,
                                                  const SemParams& params, std::int64_t slabs);

// Partners within the cutoff of every element with counted[i] != 0 (0 for the
// others; every element counts as a partner): exactly the pairs a backend's
// gather counts as interactions, element by element. The model clock's per-slab
// cost (cellshift-sim run --trace-out) is built from it.
std::vector<std::int32_t> partners_within_cutoff(const Elements& elements,
                                                 const std::vector<std::uint8_t>& counted,
                                                 const SemParams& params);

// The workload-aware initial partition: contiguous slabs split into equal shares
// of cell_workload_per_slab, every rank keeping >= w_min slabs.
controller::Boundaries initial_partition(const Tissue& tissue, const SemParams& params,
                                         const controller::Layout& layout);

} // namespace cellshift::sim
