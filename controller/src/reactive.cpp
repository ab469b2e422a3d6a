#include "cellshift/controller/reactive.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::controller {

double local_imbalance(double t_left, double t_right) {
    double mean = 0.5 * (t_left + t_right);
    return mean > 0.0 ? (t_right - t_left) / mean : 0.0;
}

double reactive_proposal(double t_left, double t_right, double n_left, double n_right,
                         const ReactiveParams& params, double ds_max) {
    double imbalance = local_imbalance(t_left, t_right);
    if (!(std::abs(imbalance) > params.tau)) {
        return 0.0;
    }
    bool right_slower = t_right > t_left;
    double t_slow = right_slower ? t_right : t_left;
    double n_slow = right_slower ? n_right : n_left;
    double magnitude = params.alpha * n_slow * std::abs(t_right - t_left) / (2.0 * t_slow);
    double ds = right_slower ? magnitude : -magnitude;
    return std::clamp(ds, -ds_max, ds_max);
}

double ds_max_slices(const Layout& layout, const ReactiveParams& params) {
    // The floor of one slice: below it every move rounds to zero and narrow ranks
    // (S/P below 1 / (2 ds_max_fraction)) would never be rebalanced at all.
    return std::max(1.0, params.ds_max_fraction * layout.mean_width());
}

std::vector<double> reactive_proposals(const std::vector<double>& rank_times, const Boundaries& b,
                                       const ReactiveParams& params, double ds_max) {
    std::vector<double> ds(b.size() >= 2 ? b.size() - 2 : 0);
    for (std::size_t k = 0; k < ds.size(); ++k) {
        // Interior boundary k+1 separates rank k (left) and rank k+1 (right).
        double n_left = static_cast<double>(b[k + 1] - b[k]);
        double n_right = static_cast<double>(b[k + 2] - b[k + 1]);
        ds[k] =
            reactive_proposal(rank_times[k], rank_times[k + 1], n_left, n_right, params, ds_max);
    }
    return ds;
}

} // namespace cellshift::controller
