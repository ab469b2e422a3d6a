#pragma once
// CPU binned backend: counting sort by bin every step, then one gather per element
// over its 27 bins (9 contiguous runs, since bins along z are adjacent in the
// numbering), OpenMP over elements with the adaptive schedule of omp_schedule.hpp.

#include "cpu_backend.hpp"
#include "omp_schedule.hpp"

#include "cellshift/sim/bin_sort.hpp"

namespace cellshift::sim {

class CpuBinnedBackend final : public CpuBackend {
public:
    CpuBinnedBackend(const SemParams& params, SchedulePolicy schedule);
    std::string name() const override { return "cpu-binned"; }
    ForceStats compute_forces(const Elements& elements, ForceField& forces) override;
    std::string take_report() override { return schedule_.take_report(); }

private:
    BinGrid grid_;
    BinSort sort_;
    AdaptiveSchedule schedule_;
    // Positions and owners in sorted order: the gather reads them contiguously.
    std::vector<double> sx_, sy_, sz_;
    std::vector<std::int64_t> scell_;
    std::vector<double> cost_;
};

} // namespace cellshift::sim
