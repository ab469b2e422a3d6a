#include "cellshift/controller/features.hpp"

#include "cellshift/controller/reactive.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cellshift::controller {

std::vector<std::string> feature_names(std::size_t count) {
    std::vector<std::string> names;
    for (std::size_t f = 0; f < count; ++f) {
        names.emplace_back(kFeatures.at(f).name);
    }
    return names;
}

std::vector<double> feature_clamp_min(std::size_t count) {
    std::vector<double> v;
    for (std::size_t f = 0; f < count; ++f) {
        v.push_back(kFeatures.at(f).min);
    }
    return v;
}

std::vector<double> feature_clamp_max(std::size_t count) {
    std::vector<double> v;
    for (std::size_t f = 0; f < count; ++f) {
        v.push_back(kFeatures.at(f).max);
    }
    return v;
}

double migration_cost_feature(double mu) {
    return 0.5 * std::log10(std::max(mu, 1e-6) / kReferenceMigrationCost);
}

std::int64_t growth_window(std::int64_t slices, std::int64_t ranks) {
    return std::max<std::int64_t>(1, (slices + ranks) / (2 * ranks)); // round(S / 2P)
}

Eigen::MatrixXd compute_features(const FeatureInputs& in) {
    const auto& t = *in.rank_times;
    const auto& b = *in.boundaries;
    const std::size_t ranks = t.size();
    const std::size_t count = ranks - 1;
    const std::int64_t slices = b.back();
    const double mean_width = static_cast<double>(slices) / static_cast<double>(ranks);

    double t_max = 0.0;
    double t_sum = 0.0;
    for (double x : t) {
        t_max = std::max(t_max, x);
        t_sum += x;
    }
    double t_mean = t_sum / static_cast<double>(ranks);
    double global = t_mean > 0.0 ? t_max / t_mean - 1.0 : 0.0;
    double phase_sin = std::sin(in.cycle_phase);
    double phase_cos = std::cos(in.cycle_phase);
    std::int64_t window = growth_window(slices, static_cast<std::int64_t>(ranks));
    const bool forecast = in.forecast_loads != nullptr && in.forecast_target != nullptr;
    const std::vector<double> none(ranks, 0.0);
    const auto& fc = forecast ? *in.forecast_loads : none;
    double f_mean = 0.0;
    for (double v : fc) {
        f_mean += v / static_cast<double>(ranks);
    }

    Eigen::MatrixXd x(static_cast<Eigen::Index>(kFeatureCount), static_cast<Eigen::Index>(count));
    for (std::size_t k = 0; k < count; ++k) {
        const std::int64_t boundary = b[k + 1];
        const double n_left = static_cast<double>(b[k + 1] - b[k]);
        const double n_right = static_cast<double>(b[k + 2] - b[k + 1]);
        const double imbalance = local_imbalance(t[k], t[k + 1]);
        double growth = 0.0;
        if (in.growth_events != nullptr) {
            const auto& g = *in.growth_events;
            double left = 0.0;
            double right = 0.0;
            for (std::int64_t s = std::max<std::int64_t>(0, boundary - window); s < boundary; ++s) {
                left += g[static_cast<std::size_t>(s)];
            }
            for (std::int64_t s = boundary; s < std::min(slices, boundary + window); ++s) {
                right += g[static_cast<std::size_t>(s)];
            }
            growth = (right - left) / std::max(1.0, right + left);
        }
        double values[kFeatureCount];
        values[kLocalImbalance] = imbalance;
        values[kGlobalImbalance] = global;
        values[kLeftWidth] = n_left / mean_width;
        values[kRightWidth] = n_right / mean_width;
        values[kLeftSlack] = (n_left - static_cast<double>(in.w_min)) / mean_width;
        values[kRightSlack] = (n_right - static_cast<double>(in.w_min)) / mean_width;
        values[kPreviousMove] = (*in.previous_moves)[k] / in.ds_max;
        values[kCycleSin] = phase_sin;
        values[kCycleCos] = phase_cos;
        values[kGrowthNearBoundary] = growth;
        values[kReactiveProposal] = (*in.reactive)[k] / in.ds_max;
        values[kLocalImbalanceChange] = imbalance - (*in.previous_local_imbalance)[k];
        values[kTargetOffset] =
            forecast ? static_cast<double>((*in.forecast_target)[k + 1] - boundary) / in.ds_max
                     : 0.0;
        values[kHeavyExcess] =
            f_mean > 0.0 ? (std::max(fc[k], fc[k + 1]) / f_mean - 1.0) * mean_width : 0.0;
        values[kForecastImbalance] = local_imbalance(fc[k], fc[k + 1]);
        values[kSliceOverDsMax] = forecast ? 1.0 / in.ds_max : 0.0;
        values[kMigrationCost] = migration_cost_feature(in.migration_cost);
        values[kRebalanceCost] = in.rebalance_cost;
        for (std::size_t f = 0; f < kFeatureCount; ++f) {
            x(static_cast<Eigen::Index>(f), static_cast<Eigen::Index>(k)) =
                std::clamp(values[f], kFeatures[f].min, kFeatures[f].max);
        }
    }
    return x;
}

} // namespace cellshift::controller
