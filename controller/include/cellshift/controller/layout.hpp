#pragma once
// The hard (deployed) load-balancing loop of docs/design.md section 3: S slices, P ranks,
// contiguous ownership through integer boundaries b_0 = 0 < b_1 < ... < b_P = S,
// every rank keeping at least w_min slices.

#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::controller {

// b[0] = 0, b[P] = S; rank p owns slices [b[p], b[p+1]).
using Boundaries = std::vector<std::int64_t>;

struct Layout {
    std::int64_t slices = 0; // S
    std::int64_t ranks = 0;  // P
    std::int64_t w_min = 1;  // minimum slices per rank

    double mean_width() const { return static_cast<double>(slices) / static_cast<double>(ranks); }
};

// Throws std::invalid_argument with one line naming the problem (for example
// "P * w_min > S (16 * 4 > 60)").
void validate(const Layout& layout);
void validate(const Layout& layout, const Boundaries& boundaries);

// Equal-width contiguous split (the naive geometric decomposition).
Boundaries uniform_boundaries(const Layout& layout);

// Slices each rank owns: widths[p] = b[p+1] - b[p].
std::vector<std::int64_t> widths(const Boundaries& boundaries);

// Per-rank sums of a per-slice quantity under the given ownership.
std::vector<double> rank_sums(const std::vector<double>& per_slice, const Boundaries& boundaries);

// Total migration of one event: sum_k |b'_k - b_k| (docs/design.md section 3).
std::int64_t migrated_slices(const Boundaries& before, const Boundaries& after);

} // namespace cellshift::controller
