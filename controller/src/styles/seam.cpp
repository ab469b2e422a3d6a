// `seam`: the seam rule of seed 003 (tumor growth on threads): a boundary moves
// by `delta` slices toward the slower side when the relative difference of its
// two neighbours' loads exceeds `rho`; two adjacent boundaries never move in the
// same event. Candidates are served in order of decreasing relative difference
// (ties: lower index first).

#include "cellshift/controller/reactive.hpp"
#include "style_definition.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cellshift::controller::styles {
namespace {

class SeamPolicy final : public Policy {
public:
    SeamPolicy(double rho, double delta) : rho_(rho), delta_(delta) {}

private:
    Boundaries next(const Observation& o) override {
        const std::size_t count = o.rank_times.size() - 1;
        std::vector<double> diff(count);
        for (std::size_t k = 0; k < count; ++k) {
            diff[k] = local_imbalance(o.rank_times[k], o.rank_times[k + 1]);
        }
        std::vector<std::size_t> order(count);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return std::abs(diff[a]) > std::abs(diff[b]);
        });
        std::vector<double> moves(count, 0.0);
        std::vector<char> taken(count, 0);
        for (std::size_t k : order) {
            if (!(std::abs(diff[k]) > rho_)) {
                break;
            }
            bool neighbour = (k > 0 && taken[k - 1]) || (k + 1 < count && taken[k + 1]);
            if (neighbour) {
                continue;
            }
            taken[k] = 1;
            moves[k] = diff[k] > 0 ? delta_ : -delta_;
        }
        return apply_moves(moves);
    }
    double rho_, delta_;
};

struct SeamFields {
    double rho = 0.0, delta = 0.0;
};

} // namespace

CELLSHIFT_POLICY_STYLES(seam) {
    styles.push_back(define_style<SeamFields>(
        "seam",
        "seam rule (seed 003): move by delta when the relative difference exceeds rho, never "
        "two adjacent boundaries",
        {{"rho", &SeamFields::rho, 0.1, 0.0, 2.0, "threshold on the relative load difference"},
         {"delta", &SeamFields::delta, 1.0, 1.0, 1e9, "slices moved per triggered boundary"}},
        Reads::rank_times, [](const SeamFields& f, const PolicySettings&) {
            return std::make_unique<SeamPolicy>(f.rho, f.delta);
        }));
}

} // namespace cellshift::controller::styles
