// `lammps-shift`: LAMMPS `fix balance ... shift x Niter stopthresh` style. When
// the measured max/mean exceeds `threshold`, the cuts are adjusted on per-slice
// cost estimates for up to `iterations` rounds: in each round every cut's target
// (the slice where the prefix cost reaches k/P of the total, found by bisection)
// is approached by at most half the gap to the neighbouring cut, all cuts at
// once, until the estimated max/mean is at most `stop`.

#include "cellshift/controller/feasible_update.hpp"
#include "cellshift/controller/partition.hpp"
#include "style_definition.hpp"

#include <algorithm>
#include <numeric>

namespace cellshift::controller::styles {
namespace {

double max_over_mean(const std::vector<double>& loads) {
    double mean =
        std::accumulate(loads.begin(), loads.end(), 0.0) / static_cast<double>(loads.size());
    return mean > 0.0 ? *std::max_element(loads.begin(), loads.end()) / mean : 1.0;
}

class LammpsShiftPolicy final : public Policy {
public:
    LammpsShiftPolicy(double threshold, double iterations, double stop)
        : threshold_(threshold), iterations_(static_cast<int>(iterations)), stop_(stop) {}

private:
    Boundaries next(const Observation& o) override {
        if (max_over_mean(o.rank_times) <= threshold_) {
            return boundaries();
        }
        const auto& w = require_slice_workload(o, "lammps-shift");
        std::vector<double> prefix(w.size() + 1, 0.0);
        std::partial_sum(w.begin(), w.end(), prefix.begin() + 1);
        const double total = prefix.back();
        const std::size_t ranks = o.rank_times.size();
        Boundaries b = boundaries();
        for (int it = 0; it < iterations_; ++it) {
            if (max_over_mean(rank_sums(w, b)) <= stop_) {
                break;
            }
            std::vector<double> moves(ranks - 1);
            for (std::size_t k = 1; k < ranks; ++k) {
                double target = total * static_cast<double>(k) / static_cast<double>(ranks);
                // Bisection: first cut whose prefix cost reaches the target.
                auto cut = std::lower_bound(prefix.begin(), prefix.end(), target) - prefix.begin();
                double ds = static_cast<double>(cut - b[k]);
                double gap = ds > 0 ? static_cast<double>(b[k + 1] - b[k])
                                    : static_cast<double>(b[k] - b[k - 1]);
                moves[k - 1] = std::clamp(ds, -0.5 * gap, 0.5 * gap);
            }
            FeasibleUpdate u = feasible_update(b, moves, layout().w_min);
            limited_ = std::max(limited_, u.limited);
            if (u.boundaries == b) {
                break;
            }
            b = u.boundaries;
        }
        return b;
    }
    double threshold_;
    int iterations_;
    double stop_;
};

struct LammpsShiftFields {
    double threshold = 0.0, iterations = 0.0, stop = 0.0;
};

} // namespace

CELLSHIFT_POLICY_STYLES(lammps_shift) {
    using F = LammpsShiftFields;
    styles.push_back(define_style<F>(
        "lammps-shift",
        "LAMMPS fix balance shift style: threshold, then bisection of cuts on slice costs",
        {{"threshold", &F::threshold, 1.01, 1.0, 10.0,
          "rebalance when measured max/mean exceeds this"},
         {"iterations", &F::iterations, 10.0, 1.0, 1000.0, "Niter: adjustment rounds per event"},
         {"stop", &F::stop, 1.01, 1.0, 10.0,
          "stopthresh: stop when the estimated max/mean is below"}},
        Reads::slice_workload, [](const F& f, const PolicySettings&) {
            return std::make_unique<LammpsShiftPolicy>(f.threshold, f.iterations, f.stop);
        }));
}

} // namespace cellshift::controller::styles
