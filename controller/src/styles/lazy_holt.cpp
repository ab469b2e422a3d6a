// `lazy-holt`: Holt-smoothed per-slice forecast and its equal-load split as the
// target, but a boundary moves only where it buys imbalance. The global
// imbalance counts the slowest rank alone, and one interval's per-slice
// estimates are noisy, so a from-scratch repartition (persistence, holt) moves
// nearly every boundary every event for little gain. Boundary k moves toward
// the target only
//   - if its heavier neighbour's forecast load is >= (1 + threshold +
//     threshold_slices / (S/P)) x the mean (the second term counts slices of a
//     mean-width rank: one slice is a larger share of a narrow rank's load, so a
//     bar in slices suits every P with one setting),
//   - in the direction that takes slices from that neighbour (a split that
//     shifts as a whole can ask a boundary to load a heavy rank further: migration
//     that raises the maximum),
//   - if the target is at least `hysteresis` slices away,
//   - by at most `step` slices per event (0: the whole way).
// threshold -1 turns the first two gates off (with hysteresis 1 and step 0 that
// is holt). The joint feasible update keeps w_min. Its curve against the
// migration bar of issue 4 is in docs/research_log.md.

#include "cellshift/controller/partition.hpp"
#include "holt_forecast_policy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cellshift::controller::styles {
namespace {

struct LazySettings {
    double threshold;        // heavier neighbour's excess over the mean forecast load
    double threshold_slices; // more excess, in slices of a mean-width rank
    double hysteresis;       // slices between boundary and target before it moves
    double step;             // largest move per event, slices (0 = no limit)
};

class LazyHoltPolicy final : public HoltForecastPolicy {
public:
    LazyHoltPolicy(double level_alpha, double trend_beta, LazySettings lazy)
        : HoltForecastPolicy(level_alpha, trend_beta), lazy_(lazy) {}

private:
    Boundaries next(const Observation& o) override {
        holt_.observe(require_slice_workload(o, "lazy-holt"));
        const std::vector<double> forecast = holt_.forecast();
        const Boundaries target = split_equal_load(forecast, layout());
        const Boundaries& b = boundaries();

        const std::vector<double> load = rank_sums(forecast, b);
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

    LazySettings lazy_;
};

struct LazyHoltFields : HoltFields {
    double threshold = 0.0, threshold_slices = 0.0, hysteresis = 0.0, step = 0.0;
};

} // namespace

CELLSHIFT_POLICY_STYLES(lazy_holt) {
    using F = LazyHoltFields;
    std::vector<Field<F>> fields = holt_fields<F>();
    fields.insert(fields.end(),
                  {{"threshold", &F::threshold, -1.0, -1.0, 10.0,
                    "a boundary moves only to unload a neighbour whose forecast load is >= (1 + "
                    "threshold) x mean (-1: no gate, holt's repartition)"},
                   {"threshold_slices", &F::threshold_slices, 0.0, 0.0, 1e6,
                    "added to threshold in slices of a mean-width rank: threshold + this / (S/P)"},
                   {"hysteresis", &F::hysteresis, 1.0, 0.0, 1e6,
                    "slices between boundary and target before it moves"},
                   {"step", &F::step, 0.0, 0.0, 1e6,
                    "largest move per boundary and event, slices (0: no limit)"}});
    styles.push_back(define_style<F>(
        "lazy-holt",
        "holt's target, but a boundary moves only to unload a neighbour heavier than (1 + "
        "threshold + threshold_slices / (S/P)) x mean, by at most step slices",
        fields, Reads::slice_workload, [](const F& f, const PolicySettings&) {
            return std::make_unique<LazyHoltPolicy>(
                f.level_alpha, f.trend_beta,
                LazySettings{f.threshold, f.threshold_slices, f.hysteresis, f.step});
        }));
}

} // namespace cellshift::controller::styles
