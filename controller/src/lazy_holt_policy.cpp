// `lazy-holt`: Holt-smoothed per-slice forecast and its equal-load split as the
// target, but a boundary moves only where it buys imbalance. The global
// imbalance counts the slowest rank alone, and one interval's per-slice
// estimates are noisy, so a from-scratch repartition (persistence, holt) moves
// nearly every boundary every event for little gain. Here boundary k moves
//   - only if its heavier neighbour's forecast load is >= (1 + threshold +
//     threshold_slices / (S/P)) x the mean forecast load (the second term is that
//     many slices of a mean-width rank: one slice is a larger share of a rank's
//     load at large P, so a bar in slices suits every P with one setting), and only in the
//     direction that takes slices from that neighbour (a split that shifts as a whole can ask a
//     boundary to load a heavy rank further; that move costs migration and raises the maximum);
//     threshold -1 turns both gates off: holt's repartition,
//   - only if the target is at least `hysteresis` slices away,
//   - by at most `step` slices per event (0: the whole way),
// toward the target; the joint feasible update keeps w_min. Its curve against
// the migration bar of issue 4 is in docs/training.md.

#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/partition.hpp"
#include "styles.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace cellshift::controller::styles {
namespace {

struct LazySettings {
    double threshold;        // heavier neighbour's excess over the mean forecast load
    double threshold_slices; // more excess, in slices of a mean-width rank
    double hysteresis;       // slices between boundary and target before it moves
    double step;             // largest move per event, slices (0 = no limit)
};

class LazyHoltPolicy final : public Policy {
public:
    LazyHoltPolicy(double level_alpha, double trend_beta, LazySettings lazy)
        : holt_(level_alpha, trend_beta), lazy_(lazy) {}

private:
    void on_reset() override { holt_.reset(); }
    void save_extra(PolicyState& state) const override {
        state["holt/level"] = holt_.level();
        state["holt/trend"] = holt_.trend();
    }
    void restore_extra(const PolicyState& state) override {
        const std::size_t n = state.count("holt/level") ? state.at("holt/level").size() : 0;
        if (n != 0 && n != static_cast<std::size_t>(layout().slices))
            throw std::invalid_argument("policy state 'holt/level' does not hold S values");
        holt_.restore(state_array(state, "holt/level", n), state_array(state, "holt/trend", n));
    }

    Boundaries next(const Observation& o) override {
        holt_.observe(require_slice_workload(o, "lazy-holt"));
        const std::vector<double> forecast = holt_.forecast();
        const Boundaries target = split_equal_load(forecast, layout());
        const Boundaries& b = boundaries();

        std::vector<double> load(b.size() - 1, 0.0);
        for (std::size_t p = 0; p + 1 < b.size(); ++p) {
            load[p] = std::accumulate(forecast.begin() + b[p], forecast.begin() + b[p + 1], 0.0);
        }
        const double mean =
            std::accumulate(load.begin(), load.end(), 0.0) / static_cast<double>(load.size());

        const bool gated = lazy_.threshold > -1.0;
        const double mean_width =
            static_cast<double>(layout().slices) / static_cast<double>(layout().ranks);
        const double excess = lazy_.threshold + lazy_.threshold_slices / mean_width;
        std::vector<double> moves(b.size() - 2, 0.0);
        for (std::size_t k = 0; k < moves.size(); ++k) {
            const double gap = static_cast<double>(target[k + 1] - b[k + 1]);
            const bool heavy = !gated || std::max(load[k], load[k + 1]) >= (1.0 + excess) * mean;
            if (!heavy || gap == 0.0 || std::abs(gap) < lazy_.hysteresis) {
                continue;
            }
            if (gated && (load[k] > load[k + 1]) != (gap < 0.0)) {
                continue; // it would load the heavier neighbour further
            }
            moves[k] = lazy_.step > 0.0 ? std::clamp(gap, -lazy_.step, lazy_.step) : gap;
        }
        return apply_moves(moves);
    }

    HoltForecaster holt_;
    LazySettings lazy_;
};

} // namespace

std::unique_ptr<Policy> make_lazy_holt(const Parameters& p, const PolicySettings&) {
    return std::make_unique<LazyHoltPolicy>(
        p["level_alpha"], p["trend_beta"],
        LazySettings{p["threshold"], p["threshold_slices"], p["hysteresis"], p["step"]});
}

} // namespace cellshift::controller::styles
