#include "cellshift/sim/slab_decomposition.hpp"

#include "cellshift/sim/slab_workload.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cellshift::sim {

void validate_slabs(const SemParams& p, std::int64_t slabs) {
    if (slabs < 1)
        throw std::invalid_argument("--slabs must be >= 1");
    const double width = p.Lx / static_cast<double>(slabs);
    const double bins = width / p.effective_bin_edge();
    if (bins < 1.0 - 1e-9 || std::abs(bins - std::round(bins)) > 1e-9) {
        std::ostringstream msg;
        msg << "--slabs " << slabs << " gives slabs of width " << width
            << ", not a whole number of bins of edge " << p.effective_bin_edge()
            << " (choose S dividing Lx / bin edge = " << std::floor(p.Lx / p.effective_bin_edge())
            << ")";
        throw std::invalid_argument(msg.str());
    }
}

int owner_of_slab(std::int64_t slab, const controller::Boundaries& b) {
    const auto it = std::upper_bound(b.begin() + 1, b.end(), slab);
    return static_cast<int>(
        std::min<std::ptrdiff_t>(it - b.begin() - 1, static_cast<std::ptrdiff_t>(b.size()) - 2));
}

std::vector<double> centroid_x(const Tissue& t) {
    std::vector<double> cx(t.cells.size(), 0.0);
    for (std::size_t i = 0; i < t.elements.size(); ++i)
        cx[static_cast<std::size_t>(t.find_cell(t.elements.cell[i]))] += t.elements.x[i];
    for (std::size_t c = 0; c < cx.size(); ++c)
        cx[c] /= std::max(1, t.cells[c].elements);
    return cx;
}

std::vector<int> cell_owners(const Tissue& t, const SemParams& p, const controller::Boundaries& b) {
    const auto slabs = b.back();
    const std::vector<double> cx = centroid_x(t);
    std::vector<int> owner(cx.size());
    for (std::size_t c = 0; c < cx.size(); ++c)
        owner[c] = owner_of_slab(slab_of(cx[c], p.Lx, slabs), b);
    return owner;
}

Extent extent_of(const Elements& e) {
    Extent x;
    if (e.size() > 0) {
        const auto [lo, hi] = std::minmax_element(e.x.begin(), e.x.end());
        x.lo = *lo;
        x.hi = *hi;
    }
    return x;
}

std::string ghost_reach_problem(const std::vector<Extent>& extents, double cutoff) {
    const std::size_t ranks = extents.size();
    for (std::size_t p = 0; p < ranks; ++p) {
        for (std::size_t q = p + 2; q < ranks; ++q) {
            const Extent& a = extents[p];
            const Extent& b = extents[q];
            if (a.empty() || b.empty())
                continue;
            if (b.lo <= a.hi + cutoff && b.hi >= a.lo - cutoff) {
                std::ostringstream msg;
                msg << "ranks " << p << " and " << q
                    << " are not neighbours but their elements are within the cutoff (rank " << p
                    << " reaches x = " << a.hi << ", rank " << q << " starts at x = " << b.lo
                    << "): slabs are too narrow for neighbour-only ghosts; raise --w-min or use "
                       "fewer ranks";
                return msg.str();
            }
        }
    }
    return {};
}

} // namespace cellshift::sim
