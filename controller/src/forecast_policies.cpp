// `persistence` and `holt`: forecast the next per-slice workload, then
// repartition from scratch into P parts of equal forecast load (DESIGN section 3).
//   persistence: the forecast is the last observed per-slice workload.
//   holt:        Holt's level + trend smoothing per slice (holt.hpp).

#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/partition.hpp"
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

class HoltPolicy final : public Policy {
public:
    HoltPolicy(double level_alpha, double trend_beta) : holt_(level_alpha, trend_beta) {}

private:
    void on_reset() override { holt_.reset(); }
    void save_extra(PolicyState& state) const override {
        state["holt/level"] = holt_.level();
        state["holt/trend"] = holt_.trend();
    }
    void restore_extra(const PolicyState& state) override {
        // Before the first observation both are empty; afterwards both hold S values.
        const std::size_t n = state.count("holt/level") ? state.at("holt/level").size() : 0;
        if (n != 0 && n != static_cast<std::size_t>(layout().slices))
            throw std::invalid_argument("policy state 'holt/level' does not hold S values");
        holt_.restore(state_array(state, "holt/level", n), state_array(state, "holt/trend", n));
    }
    Boundaries next(const Observation& o) override {
        holt_.observe(require_slice_workload(o, "holt"));
        return split_equal_load(holt_.forecast(), layout());
    }
    HoltForecaster holt_;
};

} // namespace

std::unique_ptr<Policy> make_persistence(const Parameters&, const PolicySettings&) {
    return std::make_unique<PersistencePolicy>();
}

std::unique_ptr<Policy> make_holt(const Parameters& p, const PolicySettings&) {
    return std::make_unique<HoltPolicy>(p["level_alpha"], p["trend_beta"]);
}

} // namespace cellshift::controller::styles
