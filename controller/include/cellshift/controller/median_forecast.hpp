#pragma once
// The per-slice median of the last five observations, a forecast that ignores a load
// seen in fewer than three of them: a one-event hot spot (a stiff cell, a regrid, a
// collision) moves it only if it comes back, and noisy observations are filtered
// without the lag of a slow smoother. The cost gate judges under it when it has been
// the most accurate of the controller's forecasts (rnn_policy.cpp): on transient bursts
// the Holt forecasts carry each burst into the next interval and the gate paid to
// balance a load that had gone. Five, not three or seven: on the stress workloads
// (scripts/stress_figures.sh) and the training traces under 10-30% observation noise,
// three lets bursts that recur by chance through and seven costs the generator's
// training seeds (docs/research_log.md, issue 22 session 20). From the third to the
// fifth observation the forecast is the median of the last three (a burst in the first
// events is then not carried while the window fills: issue 22 session 22), before the
// third it is the last observation.

#include <cstddef>
#include <vector>

namespace cellshift::controller {

class MedianForecaster {
public:
    static constexpr std::size_t kWindow = 5;
    static constexpr std::size_t kStartWindow = 3; // while fewer than kWindow are kept

    void reset() { history_.clear(); }
    void observe(const std::vector<double>& workload);
    // Empty before the first observation.
    std::vector<double> forecast() const;
    // Whether the forecast is a median (of three or of five), else the last observation.
    bool ready() const { return history_.size() >= kStartWindow; }
    // The last observation (empty before the first): the gate's sixth forecast.
    std::vector<double> last() const {
        return history_.empty() ? std::vector<double>{} : history_.back();
    }

    // The observations kept, oldest first, one after another (k x S values, k <= 5).
    std::vector<double> state() const;
    // Continues from state() of a run with `slices` slices (empty: nothing observed);
    // throws std::invalid_argument if its size is not a multiple k <= 5 of `slices`.
    void restore(const std::vector<double>& state, std::size_t slices);

private:
    std::vector<std::vector<double>> history_; // oldest first
};

} // namespace cellshift::controller
