// `static`: keeps the initial (workload-aware) partition for the whole run.

#include "style_definition.hpp"

namespace cellshift::controller::styles {
namespace {

class StaticPolicy final : public Policy {
    Boundaries next(const Observation&) override { return boundaries(); }
};

} // namespace

CELLSHIFT_POLICY_STYLES(static) {
    styles.push_back(define_style<NoFields>(
        "static", "keep the workload-aware initial partition", {}, Reads::rank_times,
        [](const NoFields&, const PolicySettings&) { return std::make_unique<StaticPolicy>(); }));
}

} // namespace cellshift::controller::styles
