#include "cellshift/sim/bin_sort.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::sim {

BinGrid::BinGrid(double Lx, double Ly, double Lz, double edge) {
    const auto bins = [&](double L) { return std::max(1, static_cast<int>(std::floor(L / edge))); };
    nx = bins(Lx);
    ny = bins(Ly);
    nz = bins(Lz);
    ex = Lx / nx;
    ey = Ly / ny;
    ez = Lz / nz;
}

void BinSort::build(const BinGrid& grid, const double* x, const double* y, const double* z,
                    std::size_t n) {
    const int bins = grid.count();
    start.assign(static_cast<std::size_t>(bins) + 1, 0);
    bin.resize(n);
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        bin[i] = grid.bin_of(x[i], y[i], z[i]);
        ++start[static_cast<std::size_t>(bin[i]) + 1];
    }
    for (int b = 0; b < bins; ++b) {
        start[b + 1] += start[b];
    }
    std::vector<std::int32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
        order[static_cast<std::size_t>(fill[bin[i]]++)] = static_cast<std::int32_t>(i);
    }
}

std::int64_t BinSort::neighbourhood(const BinGrid& grid, int b) const {
    int bx = 0, by = 0, bz = 0;
    grid.coordinates(b, bx, by, bz);
    const int z0 = std::max(bz - 1, 0);
    const int z1 = std::min(bz + 1, grid.nz - 1);
    std::int64_t total = 0;
    for (int X = std::max(bx - 1, 0); X <= std::min(bx + 1, grid.nx - 1); ++X) {
        for (int Y = std::max(by - 1, 0); Y <= std::min(by + 1, grid.ny - 1); ++Y) {
            total += start[grid.index(X, Y, z1) + 1] - start[grid.index(X, Y, z0)];
        }
    }
    return total;
}

} // namespace cellshift::sim
