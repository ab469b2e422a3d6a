// `reactive-max`: the reactive rule, but only on the boundaries that can lower
// the maximum. The global imbalance counts the slowest rank alone, so a move
// between two ranks that are both below it buys nothing now and costs
// migration; this style moves a boundary only when its slower neighbour's time
// is at least mean + focus * (max - mean) (focus 0: slower neighbour above the
// mean; 1: only the slowest rank's two boundaries). Moves are reactive's.

#include "reactive_fields.hpp"

#include <algorithm>
#include <numeric>

namespace cellshift::controller::styles {
namespace {

class ReactiveMaxPolicy final : public Policy {
public:
    ReactiveMaxPolicy(ReactiveParams params, double focus) : params_(params), focus_(focus) {}

private:
    Boundaries next(const Observation& o) override {
        std::vector<double> ds = reactive_proposals(o.rank_times, boundaries(), params_,
                                                    ds_max_slices(layout(), params_));
        const std::vector<double>& t = o.rank_times;
        const double mean =
            std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
        const double slowest = *std::max_element(t.begin(), t.end());
        const double threshold = mean + focus_ * (slowest - mean);
        for (std::size_t k = 0; k < ds.size(); ++k) {
            if (std::max(t[k], t[k + 1]) < threshold) {
                ds[k] = 0.0; // neither neighbour is among the slowest: leave it
            }
        }
        return apply_moves(ds);
    }
    ReactiveParams params_;
    double focus_;
};

struct ReactiveMaxFields : ReactiveFields {
    double focus = 0.0;
};

} // namespace

CELLSHIFT_POLICY_STYLES(reactive_max) {
    std::vector<Field<ReactiveMaxFields>> fields = reactive_fields<ReactiveMaxFields>();
    fields.push_back({"focus", &ReactiveMaxFields::focus, 0.0, 0.0, 1.0,
                      "a boundary moves only if its slower neighbour's time is >= mean + focus "
                      "(max - mean)"});
    styles.push_back(define_style<ReactiveMaxFields>(
        "reactive-max", "reactive rule on the boundaries of the slowest ranks only", fields,
        Reads::rank_times, [](const ReactiveMaxFields& f, const PolicySettings&) {
            return std::make_unique<ReactiveMaxPolicy>(f.params(), f.focus);
        }));
}

} // namespace cellshift::controller::styles
