#include "cpu_binned.hpp"

#include <omp.h>

#include <algorithm>

namespace cellshift::sim {

CpuBinnedBackend::CpuBinnedBackend(const SemParams& params, SchedulePolicy schedule)
    : CpuBackend(params), grid_(params.Lx, params.Ly, params.Lz, params.effective_bin_edge()),
      schedule_(schedule) {}

ForceStats CpuBinnedBackend::compute_forces(const Elements& e, ForceField& f) {
    const std::size_t n = e.size();
    f.assign_zero(n);
    sort_.build(grid_, e.x.data(), e.y.data(), e.z.data(), n);
    sx_.resize(n);
    sy_.resize(n);
    sz_.resize(n);
    scell_.resize(n);
    cost_.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        const auto i = static_cast<std::size_t>(sort_.order[s]);
        sx_[s] = e.x[i];
        sy_[s] = e.y[i];
        sz_[s] = e.z[i];
        scell_[s] = e.cell[i];
    }
    // Cost estimate per element: the candidates in its 27 bins (one value per bin).
    const int bins = grid_.count();
    for (int b = 0; b < bins; ++b) {
        if (sort_.count(b) == 0)
            continue;
        const auto c = static_cast<double>(sort_.neighbourhood(grid_, b));
        std::fill(cost_.begin() + sort_.start[b], cost_.begin() + sort_.start[b + 1], c);
    }
    schedule_.choose_and_apply(cost_, omp_get_max_threads());

    const BinGrid g = grid_;
    const std::int32_t* start = sort_.start.data();
    const NeighbourColumns columns(pair_.cutoff2);
    std::int64_t candidates = 0;
    std::int64_t interactions = 0;
    const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(runtime) reduction(+ : candidates, interactions)
    for (std::ptrdiff_t s = 0; s < count; ++s) {
        const std::size_t i = static_cast<std::size_t>(sort_.order[s]);
        if (!is_active(i))
            continue;
        const int b = sort_.bin[i];
        int bx = 0, by = 0, bz = 0;
        g.coordinates(b, bx, by, bz);
        const double xi = sx_[s], yi = sy_[s], zi = sz_[s];
        const std::int64_t ci = scell_[s];
        double fx = 0.0, fy = 0.0, fz = 0.0;
        columns.for_each(g, start, xi, yi, zi, bx, by, bz, [&](std::int32_t j0, std::int32_t j1) {
            candidates += j1 - j0;
            for (std::int32_t j = j0; j < j1; ++j) {
                if (j == s)
                    continue;
                if (pair_.accumulate(xi, yi, zi, ci, sx_[j], sy_[j], sz_[j], scell_[j], fx, fy,
                                     fz)) {
                    ++interactions;
                }
            }
        });
        --candidates; // the element itself
        store_total_force(e, i, xi, yi, zi, fx, fy, fz, f);
    }
    return ForceStats{candidates, interactions};
}

} // namespace cellshift::sim
