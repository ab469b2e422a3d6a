#include "cellshift/controller/forecast_base.hpp"

#include "cellshift/controller/partition.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cellshift::controller {

double gain_offset() {
    return std::atanh(2.0 / kGainMax - 1.0);
}

double forecast_gain(double output) {
    // Exactly 1 for a zero output, so that an untrained controller is holt bit for bit
    // (0.5 kGainMax (1 + tanh(atanh(x))) is 1 only up to rounding).
    if (output == 0.0) {
        return 1.0;
    }
    return 0.5 * kGainMax * (1.0 + std::tanh(output + gain_offset()));
}

double forecast_correction(double output) {
    return kCorrectionSlices * std::tanh(output);
}

// Leaky at 0: the blend leans towards the fast split, and at most a tenth of the way
// beyond the base (w = -0.46 cost 16% of runtime on the training scenarios). Not
// clamped flat, so that training still sees which way to go from a negative output.
double forecast_blend(double output) {
    return output >= 0.0 ? std::tanh(output) : kBlendLeak * std::tanh(output);
}

Boundaries project_feasible(const std::vector<std::int64_t>& interior, const Layout& layout,
                            std::int64_t* limited) {
    const std::int64_t ranks = layout.ranks;
    const std::int64_t top = layout.slices - ranks * layout.w_min;
    Boundaries b(static_cast<std::size_t>(ranks + 1));
    b.front() = 0;
    b.back() = layout.slices;
    std::int64_t running = 0; // max of u over the cuts so far, and >= 0
    std::int64_t changed = 0;
    for (std::int64_t k = 1; k < ranks; ++k) {
        const std::int64_t want = interior[static_cast<std::size_t>(k - 1)];
        const std::int64_t u = std::clamp(want - k * layout.w_min, std::int64_t{0}, top);
        running = std::max(running, u);
        b[static_cast<std::size_t>(k)] = running + k * layout.w_min;
        changed += b[static_cast<std::size_t>(k)] != want ? 1 : 0;
    }
    if (limited != nullptr) {
        *limited = changed;
    }
    return b;
}

double horizon_within_run(double horizon, std::int64_t intervals_left) {
    return intervals_left > 0 ? std::min(horizon, static_cast<double>(intervals_left)) : horizon;
}

double gate_noise_margin(double z, double forecast_error, const std::vector<double>& load,
                         const Layout& layout) {
    check_noise_margin(z);
    double total = 0.0;
    for (const double w : load) {
        total += w;
    }
    const double slices = static_cast<double>(layout.slices);
    const double ranks = static_cast<double>(layout.ranks);
    return z * forecast_error * forecast_error * total / std::sqrt(ranks * slices);
}

void check_noise_margin(double z) {
    if (!(std::isfinite(z) && z >= 0.0)) {
        throw std::invalid_argument("the gate's noise margin must be finite and >= 0");
    }
}

Boundaries gate_move(const std::vector<double>& load, const Boundaries& current,
                     const std::vector<Boundaries>& aims, const Layout& layout, double horizon,
                     const MigrationCost& cost, double margin) {
    const auto predicted = [&](const Boundaries& r) {
        return interval_runtime(load, current, r, cost) + (horizon - 1.0) * bottleneck(load, r);
    };
    Boundaries best = current;
    double best_time = predicted(current) - horizon * margin;
    std::vector<std::int64_t> cuts(current.size() - 2);
    for (const double fraction : {0.25, 0.5, 0.75, 1.0}) {
        for (const Boundaries& aim : aims) {
            for (std::size_t k = 0; k < cuts.size(); ++k) {
                const double d = static_cast<double>(aim[k + 1] - current[k + 1]);
                cuts[k] = current[k + 1] + std::llround(fraction * d);
            }
            const Boundaries r = project_feasible(cuts, layout);
            const double t = predicted(r);
            if (t < best_time) {
                best = r;
                best_time = t;
            }
        }
    }
    return best;
}

Boundaries refine_move(const std::vector<double>& load, const Boundaries& current,
                       const Boundaries& chosen, const Layout& layout, const MigrationCost& cost,
                       bool holds, double margin) {
    if (chosen == current && !holds) {
        return chosen;
    }
    Boundaries refined = optimal_partition(load, layout, chosen);
    const double required = chosen == current ? margin : 0.0; // a hold is refined past noise
    if (interval_runtime(load, current, refined, cost) >=
        interval_runtime(load, current, chosen, cost) - required) {
        return chosen;
    }
    return refined;
}

} // namespace cellshift::controller
