#pragma once
// Intra-rank balancing (seed 001, SimuCell3D's adaptive OpenMP scheduler): before
// a per-element loop, a cheap cost estimate per element (the candidate partners
// in its 27 bins), its coefficient of variation CoV = std / mean, and from it the
// schedule the loop runs with (`schedule(runtime)`): static when the work is
// even, dynamic with a CoV-derived chunk when it is not. Every choice is counted,
// so a log shows which branch actually engaged.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cellshift::sim {

enum class SchedulePolicy { adaptive, fixed_static, fixed_dynamic };

SchedulePolicy parse_schedule_policy(const std::string& name); // adaptive|static|dynamic

struct ScheduleChoice {
    bool dynamic = false;
    int chunk = 0; // 0: the OpenMP default for static
};

class AdaptiveSchedule {
public:
    // CoV at or below `static_below` runs static; above it, dynamic with
    // chunk = max(1, min(n / (threads * divisor), 256)), divisor 10 / 20 / 40 for
    // CoV <= 0.4 / <= 0.6 / above (the seed's bands; its divisors 4 / 10 / 20 were for
    // per-cell loops, ours run over elements, 20-60 per cell, so chunks are finer).
    static constexpr double static_below = 0.15;

    explicit AdaptiveSchedule(SchedulePolicy policy = SchedulePolicy::adaptive) : policy_(policy) {}

    // Chooses for a loop over `costs.size()` items and applies it with
    // omp_set_schedule (the loop must say schedule(runtime)).
    ScheduleChoice choose_and_apply(const std::vector<double>& costs, int threads);

    static double coefficient_of_variation(const std::vector<double>& costs);

    // "schedule: static 40, dynamic/chunk 12: 10 (CoV 0.08..0.52)" since the last call.
    std::string take_report();

private:
    SchedulePolicy policy_;
    std::int64_t static_runs_ = 0;
    std::int64_t dynamic_runs_ = 0;
    int last_chunk_ = 0;
    double cov_min_ = 0.0, cov_max_ = 0.0;
};

} // namespace cellshift::sim
