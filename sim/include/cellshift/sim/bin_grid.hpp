#pragma once
// The spatial bins: a regular grid of cubes of edge >= r_c over the domain, so an
// element's interaction partners all lie in its own bin and the 26 around it.
// Bins are numbered with x slowest, so a slab of the domain along x is a
// contiguous range of bins (the decomposition cuts the domain along x).

#include "cellshift/sim/hd.hpp"

#include <cstdint>

namespace cellshift::sim {

struct BinGrid {
    int nx = 1, ny = 1, nz = 1;
    double ex = 1.0, ey = 1.0, ez = 1.0; // actual edges: L / n >= requested edge

    BinGrid() = default;
    // The largest grid whose bins are at least `edge` wide in every direction.
    BinGrid(double Lx, double Ly, double Lz, double edge);

    int count() const { return nx * ny * nz; }

    CELLSHIFT_HD static int coordinate(double v, double e, int n) {
        int c = static_cast<int>(v / e);
        return c < 0 ? 0 : (c >= n ? n - 1 : c);
    }
    CELLSHIFT_HD int index(int bx, int by, int bz) const { return (bx * ny + by) * nz + bz; }
    // The inverse of index().
    CELLSHIFT_HD void coordinates(int b, int& bx, int& by, int& bz) const {
        bz = b % nz;
        by = (b / nz) % ny;
        bx = b / (nz * ny);
    }
    CELLSHIFT_HD int bin_of(double x, double y, double z) const {
        return index(coordinate(x, ex, nx), coordinate(y, ey, ny), coordinate(z, ez, nz));
    }

    // Distance from v to the bin slab [c e, (c + 1) e] along one axis (0 inside).
    CELLSHIFT_HD static double gap(double v, int c, double e) {
        const double lo = c * e;
        const double hi = lo + e;
        return v < lo ? lo - v : (v > hi ? v - hi : 0.0);
    }
};

// The bins one element at (x, y, z) in bin (bx, by, bz) must scan: of its 27
// neighbour bins, only those whose nearest point is within the cutoff. Skipping
// the others removes no partner and keeps the canonical order of the rest, so
// forces are bitwise those of the full 27-bin scan. Bins along z are adjacent in
// the numbering, so each (X, Y) column is one contiguous run [z_lo, z_hi].
struct NeighbourColumns {
    double cutoff2_pruning; // cutoff^2 with a hair of margin against rounding

    CELLSHIFT_HD explicit NeighbourColumns(double cutoff2)
        : cutoff2_pruning(cutoff2 * (1.0 + 1e-12)) {}

    // Calls visit(first_sorted, end_sorted) for each column run in canonical order.
    template <typename Visit>
    CELLSHIFT_HD void for_each(const BinGrid& g, const std::int32_t* start, double x, double y,
                               double z, int bx, int by, int bz, Visit&& visit) const {
        const int x0 = bx > 0 ? bx - 1 : 0, x1 = bx + 1 < g.nx ? bx + 1 : g.nx - 1;
        const int y0 = by > 0 ? by - 1 : 0, y1 = by + 1 < g.ny ? by + 1 : g.ny - 1;
        const double below = bz > 0 ? BinGrid::gap(z, bz - 1, g.ez) : 0.0;
        const double above = bz + 1 < g.nz ? BinGrid::gap(z, bz + 1, g.ez) : 0.0;
        for (int X = x0; X <= x1; ++X) {
            const double gx = BinGrid::gap(x, X, g.ex);
            for (int Y = y0; Y <= y1; ++Y) {
                const double gy = BinGrid::gap(y, Y, g.ey);
                const double g2 = gx * gx + gy * gy;
                if (g2 > cutoff2_pruning)
                    continue;
                const int z0 = bz > 0 && g2 + below * below <= cutoff2_pruning ? bz - 1 : bz;
                const int z1 = bz + 1 < g.nz && g2 + above * above <= cutoff2_pruning ? bz + 1 : bz;
                visit(start[g.index(X, Y, z0)], start[g.index(X, Y, z1) + 1]);
            }
        }
    }
};

} // namespace cellshift::sim
