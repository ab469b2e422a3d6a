// `persistence` and `holt`: forecast the next per-slice workload, then
// repartition from scratch into P parts of equal forecast load (docs/design.md section 3).
//   persistence: the forecast is the last observed per-slice workload.
//   holt:        Holt's level + trend smoothing per slice (holt.hpp).

#include "cellshift/controller/partition.hpp"
#include "holt_forecast_policy.hpp"
#include "style_definition.hpp"

#include <stdexcept>

namespace cellshift::controller::styles {

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

CELLSHIFT_POLICY_STYLES(persistence_holt) {
    styles.push_back(define_style<NoFields>(
        "persistence", "forecast = last per-slice workload, equal-load repartition", {},
        Reads::slice_workload, [](const NoFields&, const PolicySettings&) {
            return std::make_unique<PersistencePolicy>();
        }));
    styles.push_back(define_style<HoltFields>(
        "holt", "Holt level+trend forecast per slice, equal-load repartition",
        holt_fields<HoltFields>(), Reads::slice_workload,
        [](const HoltFields& f, const PolicySettings&) {
            return std::make_unique<HoltPolicy>(f.level_alpha, f.trend_beta);
        }));
}

} // namespace cellshift::controller::styles
