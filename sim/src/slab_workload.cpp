#include "cellshift/sim/slab_workload.hpp"

#include "cellshift/controller/partition.hpp"
#include "cellshift/sim/bin_sort.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cellshift::sim {

std::int64_t slab_of(double x, double Lx, std::int64_t slabs) {
    const auto k = static_cast<std::int64_t>(std::floor(x / Lx * static_cast<double>(slabs)));
    return std::clamp<std::int64_t>(k, 0, slabs - 1);
}

namespace {
// The bins and the counting sort both per-slab estimates start from.
struct SortedTissue {
    BinGrid grid;
    BinSort sort;
    SortedTissue(const Elements& e, const SemParams& p)
        : grid(p.Lx, p.Ly, p.Lz, p.effective_bin_edge()) {
        sort.build(grid, e.x.data(), e.y.data(), e.z.data(), e.size());
    }
};

void require_slabs(std::int64_t slabs) {
    if (slabs < 1)
        throw std::invalid_argument("the number of slabs must be >= 1");
}
} // namespace

std::vector<double> cell_workload_per_slab(const Tissue& t, const SemParams& p,
                                           std::int64_t slabs) {
    require_slabs(slabs);
    const Elements& e = t.elements;
    const SortedTissue sorted(e, p);
    const BinGrid& grid = sorted.grid;
    const BinSort& sort = sorted.sort;
    // Centroids, accumulated in element order (the canonical order).
    std::vector<double> cx(t.cells.size(), 0.0), cy(cx), cz(cx);
    for (std::size_t i = 0; i < e.size(); ++i) {
        const auto c = static_cast<std::size_t>(t.find_cell(e.cell[i]));
        cx[c] += e.x[i];
        cy[c] += e.y[i];
        cz[c] += e.z[i];
    }
    std::vector<double> w(static_cast<std::size_t>(slabs), 0.0);
    for (std::size_t c = 0; c < t.cells.size(); ++c) {
        const double n = t.cells[c].elements;
        if (n <= 0)
            continue;
        const double x = cx[c] / n, y = cy[c] / n, z = cz[c] / n;
        const auto neighbourhood =
            static_cast<double>(sort.neighbourhood(grid, grid.bin_of(x, y, z)));
        w[static_cast<std::size_t>(slab_of(x, p.Lx, slabs))] += n * neighbourhood;
    }
    return w;
}

std::vector<double> interaction_estimate_per_slab(const Tissue& t, const SemParams& p,
                                                  std::int64_t slabs) {
    return interaction_estimate_per_slab(element_count_per_bin(t.elements, p), p, slabs);
}

std::vector<double> element_count_per_bin(const Elements& e, const SemParams& p) {
    const BinGrid grid(p.Lx, p.Ly, p.Lz, p.effective_bin_edge());
    std::vector<double> count(static_cast<std::size_t>(grid.count()), 0.0);
    for (std::size_t i = 0; i < e.size(); ++i)
        count[static_cast<std::size_t>(grid.bin_of(e.x[i], e.y[i], e.z[i]))] += 1.0;
    return count;
}

std::vector<double> interaction_estimate_per_slab(const std::vector<double>& count,
                                                  const SemParams& p, std::int64_t slabs) {
    require_slabs(slabs);
    const BinGrid g(p.Lx, p.Ly, p.Lz, p.effective_bin_edge());
    if (count.size() != static_cast<std::size_t>(g.count()))
        throw std::invalid_argument("per-bin counts for " + std::to_string(count.size()) +
                                    " bins, the grid has " + std::to_string(g.count()));
    const auto at = [&](int X, int Y, int Z) {
        return count[static_cast<std::size_t>(g.index(X, Y, Z))];
    };
    std::vector<double> w(static_cast<std::size_t>(slabs), 0.0);
    for (int bx = 0; bx < g.nx; ++bx) {
        const auto slab =
            static_cast<std::size_t>(slab_of((static_cast<double>(bx) + 0.5) * g.ex, p.Lx, slabs));
        for (int by = 0; by < g.ny; ++by) {
            for (int bz = 0; bz < g.nz; ++bz) {
                const double own = at(bx, by, bz);
                if (own == 0.0)
                    continue;
                double neighbourhood = 0.0;
                for (int X = std::max(bx - 1, 0); X <= std::min(bx + 1, g.nx - 1); ++X)
                    for (int Y = std::max(by - 1, 0); Y <= std::min(by + 1, g.ny - 1); ++Y)
                        for (int Z = std::max(bz - 1, 0); Z <= std::min(bz + 1, g.nz - 1); ++Z)
                            neighbourhood += at(X, Y, Z);
                w[slab] += own * neighbourhood;
            }
        }
    }
    return w;
}

std::vector<std::int32_t> partners_within_cutoff(const Elements& e,
                                                 const std::vector<std::uint8_t>& counted,
                                                 const SemParams& p) {
    const SortedTissue sorted(e, p);
    const BinGrid& grid = sorted.grid;
    const BinSort& sort = sorted.sort;
    const double cutoff2 = p.cutoff * p.cutoff;
    const NeighbourColumns columns(cutoff2);
    std::vector<std::int32_t> partners(e.size(), 0);
    const auto n = static_cast<std::ptrdiff_t>(e.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(k);
        if (!counted.empty() && counted[i] == 0)
            continue;
        const int b = sort.bin[i];
        int bx = 0, by = 0, bz = 0;
        grid.coordinates(b, bx, by, bz);
        std::int32_t count = 0;
        columns.for_each(grid, sort.start.data(), e.x[i], e.y[i], e.z[i], bx, by, bz,
                         [&](std::int32_t j0, std::int32_t j1) {
                             for (std::int32_t s = j0; s < j1; ++s) {
                                 const auto j = static_cast<std::size_t>(sort.order[s]);
                                 if (j == i)
                                     continue;
                                 const double dx = e.x[i] - e.x[j], dy = e.y[i] - e.y[j],
                                              dz = e.z[i] - e.z[j];
                                 if (dx * dx + dy * dy + dz * dz < cutoff2)
                                     ++count;
                             }
                         });
        partners[i] = count;
    }
    return partners;
}

controller::Boundaries initial_partition(const Tissue& t, const SemParams& p,
                                         const controller::Layout& layout) {
    controller::validate(layout);
    return controller::split_equal_load(cell_workload_per_slab(t, p, layout.slices), layout);
}

} // namespace cellshift::sim
