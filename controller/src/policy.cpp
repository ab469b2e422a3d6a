#include "cellshift/controller/policy.hpp"

#include "cellshift/controller/feasible_update.hpp"

#include <cmath>
#include <stdexcept>

namespace cellshift::controller {

void Policy::reset(const Layout& layout, const Boundaries& initial) {
    validate(layout, initial);
    layout_ = layout;
    boundaries_ = initial;
    limited_ = 0;
    calibration_.reset();
    on_reset();
}

const Boundaries& Policy::decide(const Observation& o) {
    const std::size_t ranks = static_cast<std::size_t>(layout_.ranks);
    if (o.rank_times.size() != ranks) {
        throw std::invalid_argument("observation holds " + std::to_string(o.rank_times.size()) +
                                    " rank times, expected P = " + std::to_string(ranks));
    }
    for (std::size_t p = 0; p < ranks; ++p) {
        double t = o.rank_times[p];
        if (!std::isfinite(t) || t < 0.0) {
            throw std::invalid_argument("rank time of rank " + std::to_string(p) + " is " +
                                        (std::isnan(t) ? std::string("NaN") : std::to_string(t)) +
                                        " (times must be finite and >= 0)");
        }
    }
    const std::size_t slices = static_cast<std::size_t>(layout_.slices);
    for (const auto* v : {&o.slice_workload, &o.growth_events, &o.next_workload}) {
        if (!v->empty() && v->size() != slices) {
            throw std::invalid_argument("per-slice observation holds " + std::to_string(v->size()) +
                                        " values, expected S = " + std::to_string(slices));
        }
    }
    limited_ = 0;
    if (calibration_.enabled() && !o.slice_workload.empty()) {
        Observation calibrated = o;
        calibrated.slice_workload =
            calibration_.calibrate(o.slice_workload, o.rank_times, boundaries_);
        boundaries_ = next(calibrated);
    } else {
        boundaries_ = next(o);
    }
    return boundaries_;
}

PolicyState Policy::save_state() const {
    PolicyState state;
    state["boundaries"].assign(boundaries_.begin(), boundaries_.end());
    state["limited"] = {static_cast<double>(limited_)};
    if (calibration_.enabled()) {
        state["calibration/mean"] = calibration_.mean();
        state["calibration/square"] = calibration_.square();
    }
    save_extra(state);
    return state;
}

void Policy::restore_state(const PolicyState& state) {
    const auto& b = state_array(state, "boundaries", boundaries_.size());
    Boundaries restored(b.size());
    for (std::size_t k = 0; k < b.size(); ++k)
        restored[k] = static_cast<std::int64_t>(b[k]);
    validate(layout_, restored);
    const auto& limited = state_array(state, "limited", 1);
    if (calibration_.enabled()) {
        // Empty before the first event, one value per slice afterwards; absent from
        // checkpoints written without calibration: start afresh.
        const auto array = [&](const std::string& name) {
            const auto it = state.find(name);
            return it == state.end() ? std::vector<double>{} : it->second;
        };
        const std::vector<double> mean = array("calibration/mean");
        if (!mean.empty() && mean.size() != static_cast<std::size_t>(layout_.slices))
            throw std::invalid_argument("policy state 'calibration/mean' does not hold S values");
        calibration_.restore(mean, array("calibration/square"));
    }
    restore_extra(state);
    boundaries_ = restored;
    limited_ = static_cast<std::int64_t>(limited[0]);
}

const std::vector<double>& Policy::state_array(const PolicyState& state, const std::string& name,
                                               std::size_t size) {
    const auto it = state.find(name);
    if (it == state.end())
        throw std::invalid_argument("policy state has no '" + name + "'");
    if (it->second.size() != size) {
        throw std::invalid_argument("policy state '" + name + "' holds " +
                                    std::to_string(it->second.size()) + " values, expected " +
                                    std::to_string(size));
    }
    for (double v : it->second) {
        if (!std::isfinite(v))
            throw std::invalid_argument("policy state '" + name + "' is not finite");
    }
    return it->second;
}

Boundaries Policy::apply_moves(const std::vector<double>& moves) {
    FeasibleUpdate u = feasible_update(boundaries_, moves, layout_.w_min);
    limited_ = u.limited;
    return u.boundaries;
}

} // namespace cellshift::controller
