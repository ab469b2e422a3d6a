// `static`: keeps the initial (workload-aware) partition for the whole run.

#include "styles.hpp"

namespace cellshift::controller::styles {
namespace {

class StaticPolicy final : public Policy {
    Boundaries next(const Observation&) override { return boundaries(); }
};

} // namespace

std::unique_ptr<Policy> make_static(const Parameters&, const PolicySettings&) {
    return std::make_unique<StaticPolicy>();
}

} // namespace cellshift::controller::styles
