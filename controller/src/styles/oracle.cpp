// `oracle`: clairvoyant. It partitions the true workload of the interval its
// boundaries will govern optimally (min-max, exact, honouring w_min): the floor
// that no causal policy can beat on imbalance, and what that floor costs in
// migration. Among optimal partitions it keeps cuts nearest to the current ones.

#include "cellshift/controller/partition.hpp"
#include "style_definition.hpp"

#include <stdexcept>

namespace cellshift::controller::styles {
namespace {

class OraclePolicy final : public Policy {
    Boundaries next(const Observation& o) override {
        if (o.next_workload.empty()) {
            throw std::invalid_argument("policy 'oracle' needs the next interval's true workload "
                                        "(only the evaluator can provide it)");
        }
        return optimal_partition(o.next_workload, layout(), boundaries());
    }
};

} // namespace

CELLSHIFT_POLICY_STYLES(oracle) {
    styles.push_back(define_style<NoFields>(
        "oracle", "clairvoyant optimal min-max partition of the next interval (a floor)", {},
        Reads::next_workload,
        [](const NoFields&, const PolicySettings&) { return std::make_unique<OraclePolicy>(); }));
}

} // namespace cellshift::controller::styles
