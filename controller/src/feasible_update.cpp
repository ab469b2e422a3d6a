#include "cellshift/controller/feasible_update.hpp"

#include <cmath>
#include <cstdlib>

namespace cellshift::controller {

// Why this terminates and is correct: m = 0 is feasible because `current` is.
// A rank p below w_min after the moves has w_p - m_{p-1} + m_p < w_min <= w_p,
// so m_{p-1} > 0 (its left boundary moves into it) or m_p < 0 (its right boundary
// does). Shortening those moves by the deficit, split in proportion to their
// lengths, lowers sum |m| by at least one, so the sweep ends after at most
// sum |m| repairs. Every repair moves an m toward zero and never past it.
FeasibleUpdate feasible_update(const Boundaries& current, const std::vector<double>& proposals,
                               std::int64_t w_min) {
    const std::size_t ranks = current.size() - 1;
    std::vector<std::int64_t> m(ranks + 1, 0); // m[0] = m[P] = 0: the domain ends stay put
    std::vector<std::int64_t> wanted(ranks + 1, 0);
    for (std::size_t k = 1; k < ranks; ++k) {
        double p = proposals[k - 1];
        m[k] = std::isfinite(p) ? static_cast<std::int64_t>(std::llround(p)) : 0;
        wanted[k] = m[k];
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::size_t p = 0; p < ranks; ++p) {
            std::int64_t width = (current[p + 1] + m[p + 1]) - (current[p] + m[p]);
            std::int64_t deficit = w_min - width;
            if (deficit <= 0) {
                continue;
            }
            std::int64_t from_left = m[p] > 0 ? m[p] : 0;           // left boundary moving in
            std::int64_t from_right = m[p + 1] < 0 ? -m[p + 1] : 0; // right boundary moving in
            std::int64_t total = from_left + from_right;
            if (total == 0) {
                continue; // a rank already below w_min before the moves: not ours to fix
            }
            // deficit <= total: the shrinking moves alone caused it (see above).
            std::int64_t cut_left = std::min(from_left, (deficit * from_left + total - 1) / total);
            std::int64_t cut_right = std::min(from_right, deficit - cut_left);
            cut_left = deficit - cut_right; // when from_right could not take its share
            m[p] -= cut_left;
            m[p + 1] += cut_right;
            changed = true;
        }
    }
    FeasibleUpdate result;
    result.boundaries = current;
    for (std::size_t k = 1; k < ranks; ++k) {
        result.boundaries[k] += m[k];
        if (m[k] != wanted[k]) {
            ++result.limited;
        }
    }
    return result;
}

} // namespace cellshift::controller
