#pragma once
// Internal: the base of the styles that forecast per-slice workload with Holt's
// smoothing (`holt`, `lazy-holt`). It owns the forecaster and its part of the
// checkpointed policy state, so both styles save and restore it the same way.

#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/policy.hpp"
#include "style_definition.hpp"

#include <stdexcept>
#include <vector>

namespace cellshift::controller::styles {

class HoltForecastPolicy : public Policy {
public:
    HoltForecastPolicy(double level_alpha, double trend_beta) : holt_(level_alpha, trend_beta) {}

protected:
    HoltForecaster holt_;

private:
    void on_reset() final { holt_.reset(); }
    void save_extra(PolicyState& state) const final {
        state["holt/level"] = holt_.level();
        state["holt/trend"] = holt_.trend();
    }
    void restore_extra(const PolicyState& state) final {
        // Before the first observation both are empty; afterwards both hold S values.
        const std::size_t n = state.count("holt/level") ? state.at("holt/level").size() : 0;
        if (n != 0 && n != static_cast<std::size_t>(layout().slices))
            throw std::invalid_argument("policy state 'holt/level' does not hold S values");
        holt_.restore(state_array(state, "holt/level", n), state_array(state, "holt/trend", n));
    }
};

// Holt's two constants, shared by both styles' parameter tables.
struct HoltFields {
    double level_alpha = 0.0;
    double trend_beta = 0.0;
};

template <class Fields>
std::vector<Field<Fields>> holt_fields() {
    return {{"level_alpha", &Fields::level_alpha, 0.6, 0.0, 1.0, "smoothing of the level"},
            {"trend_beta", &Fields::trend_beta, 0.0, 0.0, 1.0, "smoothing of the trend"}};
}

} // namespace cellshift::controller::styles
