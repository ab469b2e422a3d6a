#pragma once
// CPU Verlet-list backend: the bins of cpu-binned build, every few steps, a list
// of the partners within cutoff + skin of each element (in the canonical bin
// order); forces then gather over that list only. The list is rebuilt when the
// element set changes or any element has moved more than skin / 2 since the last
// build (so no pair within the cutoff can be missing). LAMMPS' `neighbor skin
// bin` scheme, kept as a gather (both orders of each pair, no atomics), so results
// do not depend on the thread count or the OpenMP schedule.

#include "cpu_backend.hpp"
#include "omp_schedule.hpp"
#include "cellshift/sim/pair_lanes.hpp"

#include "cellshift/sim/bin_sort.hpp"

namespace cellshift::sim {

class CpuVerletBackend final : public CpuBackend {
public:
    CpuVerletBackend(const SemParams& params, SchedulePolicy schedule);
    std::string name() const override { return "cpu-verlet"; }
    ForceStats compute_forces(const Elements& elements, ForceField& forces) override;
    std::string take_report() override;

private:
    bool list_is_valid(const Elements& e) const;
    void build(const Elements& e);

    BinGrid grid_;
    double skin_;
    BinSort sort_;
    AdaptiveSchedule schedule_;
    // The list, CSR over sorted positions: partners of the element at sorted
    // position s are the sorted positions list_[offset_[s] .. offset_[s + 1]).
    std::vector<std::int64_t> offset_;
    std::vector<std::int32_t> list_;
    std::vector<double> x0_, y0_, z0_; // positions at the last build
    std::vector<std::int64_t> ids_;    // element set at the last build
    std::vector<double> cost_;
    // Position and owner of each element in sorted order, packed in 32 bytes.
    std::vector<lanes::Partner> packed_;
    bool both_morse_; // one exp per pair (pair_lanes.hpp)
    bool vectorised_; // exp_arith's range covers the list's reach
    std::int64_t builds_ = 0;
    std::int64_t evaluations_ = 0;
};

} // namespace cellshift::sim
