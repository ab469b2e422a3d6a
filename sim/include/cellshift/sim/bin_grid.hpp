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
    CELLSHIFT_HD int bin_of(double x, double y, double z) const {
        return index(coordinate(x, ex, nx), coordinate(y, ey, ny), coordinate(z, ez, nz));
    }
};

} // namespace cellshift::sim
