// `reactive`: the reactive boundary-shift rule of docs/design.md section 3, applied to all
// interior boundaries at once through the joint feasible update.

#include "cellshift/controller/reactive.hpp"
#include "styles.hpp"

namespace cellshift::controller::styles {
namespace {

class ReactivePolicy final : public Policy {
public:
    explicit ReactivePolicy(ReactiveParams params) : params_(params) {}

private:
    Boundaries next(const Observation& o) override {
        double ds_max = ds_max_slices(layout(), params_);
        return apply_moves(reactive_proposals(o.rank_times, boundaries(), params_, ds_max));
    }
    ReactiveParams params_;
};

} // namespace

std::unique_ptr<Policy> make_reactive(const Parameters& p, const PolicySettings&) {
    return std::make_unique<ReactivePolicy>(
        ReactiveParams{p["alpha"], p["tau"], p["ds_max_fraction"]});
}

} // namespace cellshift::controller::styles
