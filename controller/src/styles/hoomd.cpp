// `hoomd`: HOOMD-blue style domain scaling. When max/mean of the rank times
// exceeds `tolerance`, every domain's width is scaled by the inverse of its load
// ratio T_p / mean T, limited to +-`max_change` of its width, the widths are
// renormalised to fill the domain, and each boundary moves at most half the gap
// to its neighbour on the side it moves toward.

#include "style_definition.hpp"

#include <algorithm>
#include <numeric>

namespace cellshift::controller::styles {
namespace {

class HoomdPolicy final : public Policy {
public:
    HoomdPolicy(double tolerance, double max_change) : tolerance_(tolerance), max_(max_change) {}

private:
    Boundaries next(const Observation& o) override {
        const auto& t = o.rank_times;
        const std::size_t ranks = t.size();
        double mean = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(ranks);
        double worst = *std::max_element(t.begin(), t.end());
        if (!(mean > 0.0) || worst / mean <= tolerance_) {
            return boundaries();
        }
        const Boundaries& b = boundaries();
        std::vector<double> width(ranks);
        double total = 0.0;
        for (std::size_t p = 0; p < ranks; ++p) {
            double w = static_cast<double>(b[p + 1] - b[p]);
            double scale = t[p] > 0.0 ? mean / t[p] : 1.0 + max_;
            width[p] = w * std::clamp(scale, 1.0 - max_, 1.0 + max_);
            total += width[p];
        }
        std::vector<double> moves(ranks - 1);
        double edge = 0.0;
        double norm = static_cast<double>(layout().slices) / total;
        for (std::size_t k = 0; k + 1 < ranks; ++k) {
            edge += width[k] * norm;
            double ds = edge - static_cast<double>(b[k + 1]);
            double gap = ds > 0 ? static_cast<double>(b[k + 2] - b[k + 1])
                                : static_cast<double>(b[k + 1] - b[k]);
            moves[k] = std::clamp(ds, -0.5 * gap, 0.5 * gap);
        }
        return apply_moves(moves);
    }
    double tolerance_, max_;
};

struct HoomdFields {
    double tolerance = 0.0, max_change = 0.0;
};

} // namespace

CELLSHIFT_POLICY_STYLES(hoomd) {
    styles.push_back(define_style<HoomdFields>(
        "hoomd", "HOOMD-blue style: scale domains by inverse load ratio",
        {{"tolerance", &HoomdFields::tolerance, 1.05, 1.0, 10.0,
          "balance only when max/mean exceeds this"},
         {"max_change", &HoomdFields::max_change, 0.002, 0.0, 1.0,
          "largest relative width change per event"}},
        Reads::rank_times, [](const HoomdFields& f, const PolicySettings&) {
            return std::make_unique<HoomdPolicy>(f.tolerance, f.max_change);
        }));
}

} // namespace cellshift::controller::styles
