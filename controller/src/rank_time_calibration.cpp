#include "cellshift/controller/rank_time_calibration.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cellshift::controller {

RankTimeCalibration::RankTimeCalibration(double keep) : keep_(keep) {
    if (!(keep >= 0.0 && keep <= 1.0)) {
        throw std::invalid_argument("the calibration's keep must be in [0, 1]");
    }
}

std::vector<double> RankTimeCalibration::calibrate(const std::vector<double>& estimate,
                                                   const std::vector<double>& rank_times,
                                                   const Boundaries& boundaries) {
    if (!enabled()) {
        return estimate;
    }
    if (mean_.size() != estimate.size()) {
        mean_.assign(estimate.size(), 1.0);
        square_.assign(estimate.size(), 1.0);
    }
    const std::vector<double> estimated = rank_sums(estimate, boundaries);
    const double estimated_total = std::accumulate(estimated.begin(), estimated.end(), 0.0);
    const double measured_total = std::accumulate(rank_times.begin(), rank_times.end(), 0.0);
    if (estimated_total > 0.0 && measured_total > 0.0) {
        for (std::size_t p = 0; p < estimated.size(); ++p) {
            if (!(estimated[p] > 0.0)) {
                continue; // nothing estimated: no ratio to learn from
            }
            const double ratio =
                std::clamp((rank_times[p] / measured_total) / (estimated[p] / estimated_total),
                           1.0 / kMaxCalibration, kMaxCalibration);
            for (auto s = static_cast<std::size_t>(boundaries[p]);
                 s < static_cast<std::size_t>(boundaries[p + 1]); ++s) {
                mean_[s] = keep_ * mean_[s] + (1.0 - keep_) * ratio;
                square_[s] = keep_ * square_[s] + (1.0 - keep_) * ratio * ratio;
            }
        }
    }
    std::vector<double> calibrated(estimate.size());
    for (std::size_t s = 0; s < estimate.size(); ++s) {
        calibrated[s] = estimate[s] * factor(s);
    }
    return calibrated;
}

double RankTimeCalibration::factor(std::size_t s) const {
    if (s >= mean_.size()) {
        return 1.0;
    }
    const double distance = mean_[s] - 1.0;
    if (distance == 0.0) {
        return 1.0;
    }
    // The variance of r, and of its moving average were the ratios independent.
    const double spread = std::max(0.0, square_[s] - mean_[s] * mean_[s]);
    const double noise = spread * (1.0 - keep_) / (1.0 + keep_);
    const double kept = std::max(0.0, 1.0 - kCalibrationEvidence * noise / (distance * distance));
    return 1.0 + kept * distance;
}

void RankTimeCalibration::restore(std::vector<double> mean, std::vector<double> square) {
    bool fits = mean.size() == square.size();
    for (std::size_t s = 0; fits && s < mean.size(); ++s) {
        fits = mean[s] >= 1.0 / kMaxCalibration && mean[s] <= kMaxCalibration && square[s] >= 0.0 &&
               square[s] <= kMaxCalibration * kMaxCalibration;
    }
    if (!fits) {
        throw std::invalid_argument(
            "policy state 'calibration/mean' or 'calibration/square' is out of range or of "
            "another size");
    }
    mean_ = std::move(mean);
    square_ = std::move(square);
}

} // namespace cellshift::controller
