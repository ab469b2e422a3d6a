#include "cpu_verlet.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

// One clone per instruction set, picked at load time by an ifunc resolver. Not under
// ThreadSanitizer: the resolver runs during relocation, before TSan's runtime is up,
// and the instrumented resolver crashes the program at start.
#if defined(__SANITIZE_THREAD__)
#define CELLSHIFT_NO_TARGET_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CELLSHIFT_NO_TARGET_CLONES 1
#endif
#endif
#ifdef CELLSHIFT_NO_TARGET_CLONES
#define CELLSHIFT_TARGET_CLONES
#else
#define CELLSHIFT_TARGET_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif

namespace cellshift::sim {
namespace {

// One element's pair sum, compiled once per instruction set and picked at load time;
// which clone runs does not change the bits (pair_lanes.hpp).
CELLSHIFT_TARGET_CLONES lanes::ElementForce
verlet_element(const SemPairEvaluator& pair, bool both_morse, const lanes::Partner& me,
               const lanes::Partner* partners, const std::int32_t* list, std::int64_t begin,
               std::int64_t end, lanes::Scratch& scratch) {
    return both_morse ? lanes::sum_over_list<true>(pair, me, partners, list, begin, end, scratch)
                      : lanes::sum_over_list<false>(pair, me, partners, list, begin, end, scratch);
}

} // namespace

CpuVerletBackend::CpuVerletBackend(const SemParams& params, SchedulePolicy schedule)
    : CpuBackend(params),
      // Bins must cover cutoff + skin so the 27-bin scan finds every list partner.
      grid_(params.Lx, params.Ly, params.Lz,
            std::max(params.effective_bin_edge(), params.cutoff + params.neighbor_skin)),
      skin_(params.neighbor_skin), schedule_(schedule),
      both_morse_(pair_.intra.morse && pair_.inter.morse),
      vectorised_(lanes::lanes_cover(pair_, std::sqrt(pair_.cutoff2) + skin_)) {}

bool CpuVerletBackend::list_is_valid(const Elements& e) const {
    if (e.id != ids_)
        return false;
    const double limit2 = 0.25 * skin_ * skin_;
    const auto n = static_cast<std::ptrdiff_t>(e.size());
    bool valid = true;
#pragma omp parallel for schedule(static) reduction(&& : valid)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        const double dx = e.x[i] - x0_[i], dy = e.y[i] - y0_[i], dz = e.z[i] - z0_[i];
        valid = valid && dx * dx + dy * dy + dz * dz <= limit2;
    }
    return valid;
}

void CpuVerletBackend::build(const Elements& e) {
    const std::size_t n = e.size();
    sort_.build(grid_, e.x.data(), e.y.data(), e.z.data(), n);
    const double reach = pair_.cutoff2 > 0.0 ? std::sqrt(pair_.cutoff2) + skin_ : 0.0;
    const NeighbourColumns columns(reach * reach);
    const BinGrid g = grid_;
    const std::int32_t* start = sort_.start.data();
    const std::int32_t* order = sort_.order.data();
    // Two passes (count, then fill) so that the list is contiguous and each
    // element's partners are in canonical order. Rows and entries are sorted
    // (bin-order) positions, so partners are near each other in memory (what
    // LAMMPS gets from its periodic spatial sort of atoms).
    std::vector<std::int32_t> count(n, 0);
    const auto scan = [&](std::size_t s, auto&& keep) {
        const auto i = static_cast<std::size_t>(order[s]);
        const int b = sort_.bin[i];
        int bx = 0, by = 0, bz = 0;
        g.coordinates(b, bx, by, bz);
        const double xi = e.x[i], yi = e.y[i], zi = e.z[i];
        columns.for_each(g, start, xi, yi, zi, bx, by, bz, [&](std::int32_t j0, std::int32_t j1) {
            for (std::int32_t js = j0; js < j1; ++js) {
                const auto j = static_cast<std::size_t>(order[js]);
                if (j == i)
                    continue;
                const double dx = xi - e.x[j], dy = yi - e.y[j], dz = zi - e.z[j];
                if (dx * dx + dy * dy + dz * dz < reach * reach)
                    keep(js);
            }
        });
    };
    const auto count_n = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < count_n; ++i) {
        std::int32_t c = 0;
        scan(static_cast<std::size_t>(i), [&](std::int32_t) { ++c; });
        count[static_cast<std::size_t>(i)] = c;
    }
    offset_.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        offset_[i + 1] = offset_[i] + count[i];
    list_.resize(static_cast<std::size_t>(offset_[n]));
#pragma omp parallel for schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < count_n; ++i) {
        std::int64_t k = offset_[static_cast<std::size_t>(i)];
        scan(static_cast<std::size_t>(i),
             [&](std::int32_t j) { list_[static_cast<std::size_t>(k++)] = j; });
    }
    x0_ = e.x;
    y0_ = e.y;
    z0_ = e.z;
    ids_ = e.id;
    cost_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        cost_[i] = static_cast<double>(count[i]);
    ++builds_;
}

ForceStats CpuVerletBackend::compute_forces(const Elements& e, ForceField& f) {
    const std::size_t n = e.size();
    f.assign_zero(n);
    if (!list_is_valid(e))
        build(e);
    ++evaluations_;
    schedule_.choose_and_apply(cost_, omp_get_max_threads());
    std::int64_t interactions = 0;
    const auto count = static_cast<std::ptrdiff_t>(n);
    packed_.resize(n);
    lanes::Partner* packed = packed_.data();
    const std::int32_t* order = sort_.order.data(); // of the last build
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t s = 0; s < count; ++s) {
        const auto i = static_cast<std::size_t>(order[s]);
        packed[s] = {e.x[i], e.y[i], e.z[i], e.cell[i]};
    }
    const std::int32_t* list = list_.data();
    const std::int64_t* offset = offset_.data();
#pragma omp parallel
    {
        lanes::Scratch scratch;
#pragma omp for schedule(runtime) reduction(+ : interactions)
        for (std::ptrdiff_t s = 0; s < count; ++s) {
            const auto i = static_cast<std::size_t>(order[s]);
            if (!is_active(i))
                continue;
            const lanes::Partner me = packed[s];
            double fx = 0.0, fy = 0.0, fz = 0.0;
            if (vectorised_) {
                const lanes::ElementForce sum = verlet_element(pair_, both_morse_, me, packed, list,
                                                               offset[s], offset[s + 1], scratch);
                interactions += sum.interactions;
                fx = sum.fx;
                fy = sum.fy;
                fz = sum.fz;
            } else { // too steep for exp_arith's range: libm's exp, one pair at a time
                for (std::int64_t k = offset[s]; k < offset[s + 1]; ++k) {
                    const lanes::Partner& o = packed[list[k]];
                    if (pair_.accumulate(me.x, me.y, me.z, me.cell, o.x, o.y, o.z, o.cell, fx, fy,
                                         fz))
                        ++interactions;
                }
            }
            store_total_force(e, i, me.x, me.y, me.z, fx, fy, fz, f);
        }
    }
    return ForceStats{offset_[n], interactions};
}

std::string CpuVerletBackend::take_report() {
    std::string out = "list builds " + std::to_string(builds_) + " / " +
                      std::to_string(evaluations_) + " steps, " + schedule_.take_report();
    builds_ = evaluations_ = 0;
    return out;
}

} // namespace cellshift::sim
