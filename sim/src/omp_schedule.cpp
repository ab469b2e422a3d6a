#include "omp_schedule.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cellshift::sim {

SchedulePolicy parse_schedule_policy(const std::string& name) {
    if (name == "adaptive")
        return SchedulePolicy::adaptive;
    if (name == "static")
        return SchedulePolicy::fixed_static;
    if (name == "dynamic")
        return SchedulePolicy::fixed_dynamic;
    throw std::invalid_argument("unknown OpenMP schedule '" + name +
                                "' (known: adaptive, static, dynamic)");
}

double AdaptiveSchedule::coefficient_of_variation(const std::vector<double>& costs) {
    if (costs.empty()) {
        return 0.0;
    }
    double sum = 0.0;
    for (double c : costs)
        sum += c;
    const double mean = sum / static_cast<double>(costs.size());
    if (mean <= 0.0) {
        return 0.0;
    }
    double var = 0.0;
    for (double c : costs)
        var += (c - mean) * (c - mean);
    return std::sqrt(var / static_cast<double>(costs.size())) / mean;
}

ScheduleChoice AdaptiveSchedule::choose_and_apply(const std::vector<double>& costs, int threads) {
    ScheduleChoice choice;
    const double cov = policy_ == SchedulePolicy::adaptive ? coefficient_of_variation(costs) : 0.0;
    const auto n = static_cast<long>(costs.size());
    const auto chunk_for = [&](int divisor) {
        return static_cast<int>(std::clamp(n / (static_cast<long>(threads) * divisor), 1L, 256L));
    };
    switch (policy_) {
    case SchedulePolicy::fixed_static:
        break;
    case SchedulePolicy::fixed_dynamic:
        choice.dynamic = true;
        choice.chunk = chunk_for(10);
        break;
    case SchedulePolicy::adaptive:
        if (cov > static_below) {
            choice.dynamic = true;
            choice.chunk = chunk_for(cov <= 0.4 ? 10 : (cov <= 0.6 ? 20 : 40));
        }
        break;
    }
    omp_set_schedule(choice.dynamic ? omp_sched_dynamic : omp_sched_static, choice.chunk);

    const std::int64_t runs = static_runs_ + dynamic_runs_;
    cov_min_ = runs == 0 ? cov : std::min(cov_min_, cov);
    cov_max_ = runs == 0 ? cov : std::max(cov_max_, cov);
    (choice.dynamic ? dynamic_runs_ : static_runs_) += 1;
    if (choice.dynamic)
        last_chunk_ = choice.chunk;
    return choice;
}

std::string AdaptiveSchedule::take_report() {
    std::ostringstream out;
    out << "schedule: static " << static_runs_ << ", dynamic " << dynamic_runs_;
    if (dynamic_runs_ > 0)
        out << " (last chunk " << last_chunk_ << ")";
    if (policy_ == SchedulePolicy::adaptive) {
        out.precision(2);
        out << std::fixed << ", CoV " << cov_min_ << ".." << cov_max_;
    }
    static_runs_ = dynamic_runs_ = 0;
    return out.str();
}

} // namespace cellshift::sim
