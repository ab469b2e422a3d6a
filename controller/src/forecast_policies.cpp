// `persistence` and `holt`: forecast the next per-slice workload, then
// repartition from scratch into P parts of equal forecast load (docs/design.md section 3).
//   persistence: the forecast is the last observed per-slice workload.
//   holt:        Holt's level + trend smoothing per slice (holt.hpp).

#include "cellshift/controller/partition.hpp"
#include "holt_forecast_policy.hpp"
#include "styles.hpp"

#include <stdexcept>

namespace cellshift::controller::styles {

const std::vector<double>& require_slice_workload(const Observation& o, const char* policy) {
    if (o.slice_workload.empty()) {
        throw std::invalid_argument(std::string("policy '") + policy +
                                    "' needs per-slice workload estimates, and the caller "
                                    "gave none");
    }
    return o.slice_workload;
}

namespace {

class PersistencePolicy final : public Policy {
    Boundaries next(const Observation& o) override {
        return split_equal_load(require_slice_workload(o, "persistence"), layout());
    }
};

class HoltPolicy final : public HoltForecastPolicy {
public:
    using HoltForecastPolicy::HoltForecastPolicy;

private:
    Boundaries next(const Observation& o) override {
        holt_.observe(require_slice_workload(o, "holt"));
        return split_equal_load(holt_.forecast(), layout());
    }
};

} // namespace

std::unique_ptr<Policy> make_persistence(const Parameters&, const PolicySettings&) {
    return std::make_unique<PersistencePolicy>();
}

std::unique_ptr<Policy> make_holt(const Parameters& p, const PolicySettings&) {
    return std::make_unique<HoltPolicy>(p["level_alpha"], p["trend_beta"]);
}

} // namespace cellshift::controller::styles
