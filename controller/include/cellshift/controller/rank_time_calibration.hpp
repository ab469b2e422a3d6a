#pragma once
// Per-slice workload estimates are proxies: the simulator counts a slab's pair
// interactions at the interval's last step, a host may count atoms or cells. The
// rank times are measured. Where the two disagree systematically (the model clock
// charges per element as well as per pair; growth changes a slab within the
// interval), a policy that balances the estimate leaves the measured times
// unbalanced: on the e2e tissue the slowest rank took up to 20% more than its
// estimated share.
//
// The calibration gives each slice a factor: a moving average of
//     r = (rank's share of the measured time) / (rank's share of the estimate)
// over the rank that held the slice, and hands the policy estimate x factor. Shares,
// not absolute values, so that the estimate's units do not matter. A factor follows
// its slice when the boundaries move: the bias belongs to the tissue there, not to
// the rank. Measured times also carry noise that no estimate explains (jitter, the
// generator's measurement noise); the factor used is shrunk towards 1 by how much of
// its distance from 1 that noise explains, three times over (kCalibrationEvidence; the
// moving average's noise variance estimated from a moving average of r^2). Where
// estimates are exact (the model-clock traces) every factor stays 1 and nothing changes.

#include "cellshift/controller/layout.hpp"

#include <vector>

namespace cellshift::controller {

// Ratios are clamped to [1 / kMaxCalibration, kMaxCalibration]: a rank with almost
// no estimated load but fixed per-rank costs would otherwise get a factor without
// bound.
inline constexpr double kMaxCalibration = 2.0;

// A factor's distance d from 1 is kept in the proportion 1 - kCalibrationEvidence x
// noise / d^2 (at least 0), noise the moving average's variance. At 1 (positive-part
// James-Stein) half of a single event's ratio was used whatever its cause, since one
// ratio's scatter is in proportion to its distance, and a third of the pure-noise
// factors were kept in part: under noisy rank times the controller balanced that noise.
// At 3 a distance must exceed 1.7 standard deviations of that noise to count at all,
// and at memory 0.9 a steady bias counts from its second event. Chosen on selection
// data (docs/research_log.md, issue 22 session 25: 1, 2, 3, 9 and the calibration off;
// off costs 3% live where the host's estimate is a biased proxy).
inline constexpr double kCalibrationEvidence = 3.0;

class RankTimeCalibration {
public:
    // keep: the moving averages' memory per event, in [0, 1]; 1 leaves every factor
    // at 1 (off).
    explicit RankTimeCalibration(double keep = 1.0);

    bool enabled() const { return keep_ < 1.0; }
    void reset() {
        mean_.clear();
        square_.clear();
    }
    // Learns from the interval that just ended (its slice estimates, the rank times
    // it measured, the boundaries that governed it) and returns the calibrated
    // estimate, estimate[s] x factor(s).
    std::vector<double> calibrate(const std::vector<double>& estimate,
                                  const std::vector<double>& rank_times,
                                  const Boundaries& boundaries);
    // The factor slice s is calibrated by: the moving average of r shrunk towards 1.
    double factor(std::size_t s) const;

    // For checkpoints: the moving averages of r and r^2, empty before the first
    // event, then one value per slice each.
    const std::vector<double>& mean() const { return mean_; }
    const std::vector<double>& square() const { return square_; }
    // Throws std::invalid_argument unless both hold the same number of values and
    // fit the clamp (mean in its range, square in [0, kMaxCalibration^2]).
    void restore(std::vector<double> mean, std::vector<double> square);

private:
    double keep_;
    std::vector<double> mean_, square_;
};

} // namespace cellshift::controller
