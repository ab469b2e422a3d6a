// `reactive`: the reactive boundary-shift rule of docs/design.md section 3, applied to all
// interior boundaries at once through the joint feasible update.

#include "reactive_fields.hpp"

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

CELLSHIFT_POLICY_STYLES(reactive) {
    styles.push_back(
        define_style<ReactiveFields>("reactive", "reactive boundary-shift rule (paper baseline)",
                                     reactive_fields<ReactiveFields>(), Reads::rank_times,
                                     [](const ReactiveFields& f, const PolicySettings&) {
                                         return std::make_unique<ReactivePolicy>(f.params());
                                     }));
}

} // namespace cellshift::controller::styles
