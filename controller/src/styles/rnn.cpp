// `rnn` and `rnn-zero`: the learned GRU controller of a controller file
// (rnn_policy.hpp), and the same network with random weights and a zero head,
// which must reproduce `reactive` exactly (the residual's identity test).
#include "cellshift/controller/features.hpp"
#include "cellshift/controller/rnn_policy.hpp"
#include "reactive_fields.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cellshift::controller::styles {

namespace {

struct RnnFields {
    double hold_horizon = -1.0;
    double calibrate = -1.0;
    double refine = -1.0;
    double end_aware = 1.0;
    double noise_margin = RnnGateOptions{}.noise_margin;
    double median_judge = 1.0;
    double shift_judge = 1.0;
    double steady_judge = 1.0;
    double persistence = 1.0;
    double jump_reset = 1.0;
    double trend_judge = 1.0;
    double last_judge = RnnGateOptions{}.last_judge;
};

// An on/off parameter: 0 or 1, nothing else.
bool switch_on(double value, const char* name) {
    if (value != 0.0 && value != 1.0) {
        throw std::invalid_argument(std::string("rnn.") + name + " must be 0 (off) or 1 (on)");
    }
    return value == 1.0;
}

std::unique_ptr<Policy> make_rnn(const RnnFields& f, const PolicySettings& settings) {
    if (settings.controller == nullptr && settings.controller_file.empty()) {
        throw std::invalid_argument("policy 'rnn' needs a controller file (--controller FILE)");
    }
    data::Controller c = settings.controller != nullptr
                             ? *settings.controller
                             : data::read_controller(settings.controller_file);
    if (f.hold_horizon != -1.0) { // -1: the file's own
        if (c.base == data::kReactiveBase && f.hold_horizon != 0.0) {
            throw std::invalid_argument(
                "rnn.hold_horizon needs a forecast or blend base; this controller's is reactive");
        }
        if (!data::valid_hold_horizon(f.hold_horizon)) {
            throw std::invalid_argument("rnn.hold_horizon must be -1 (the file's), 0 or in [1, "
                                        "1e6]");
        }
        c.hold_horizon = f.hold_horizon;
    }
    if (f.calibrate != -1.0) { // -1: the file's own
        if (!data::valid_calibration_keep(f.calibrate)) {
            throw std::invalid_argument("rnn.calibrate must be -1 (the file's) or in [0, 1]");
        }
        c.calibration_keep = f.calibrate;
    }
    if (f.refine != -1.0) { // -1: the file's own
        if (!data::valid_refine_split(f.refine)) {
            throw std::invalid_argument(std::string("rnn.refine must be -1 (the file's), ") +
                                        data::kRefineSplitValues);
        }
        if (f.refine != 0.0 && c.hold_horizon == 0.0) {
            throw std::invalid_argument(
                "rnn.refine refines the cost gate's choice; this controller has no gate");
        }
        c.refine_split = f.refine;
    }
    RnnGateOptions gate;
    gate.end_aware = switch_on(f.end_aware, "end_aware");
    gate.noise_margin = f.noise_margin;
    gate.median_judge = switch_on(f.median_judge, "median_judge");
    gate.shift_judge = switch_on(f.shift_judge, "shift_judge");
    gate.steady_judge = switch_on(f.steady_judge, "steady_judge");
    gate.persistence = switch_on(f.persistence, "persistence");
    gate.last_judge = f.last_judge;
    gate.jump_reset = switch_on(f.jump_reset, "jump_reset");
    gate.trend_judge = switch_on(f.trend_judge, "trend_judge");
    return make_rnn_policy(c, gate);
}

struct RnnZeroFields : ReactiveFields {
    double seed = 0.0;
};

} // namespace

CELLSHIFT_POLICY_STYLES(rnn) {
    styles.push_back(define_style<RnnFields>(
        "rnn",
        "learned GRU controller from a controller file: a gain and correction on holt's split "
        "(forecast base; reads per-slice workload and the host's migration cost) or a residual "
        "on the reactive rule (the paper's)",
        {{"hold_horizon", &RnnFields::hold_horizon, -1.0, -1.0, 1e6,
          "cost gate: move only if the forecast says the move pays within this many intervals, "
          "migration included (0: no gate; -1: the controller file's value)"},
         {kCalibrateParameter, &RnnFields::calibrate, -1.0, -1.0, 1.0,
          "memory per event of the per-slice estimates' calibration against the measured rank "
          "times (0: the last interval's ratio alone; 1: off; -1: the controller file's value)"},
         {"refine", &RnnFields::refine, -1.0, -1.0, 2.0,
          "cost gate: its choice is replaced by the minimax whole-slice split if that "
          "shortens the next interval, migration included (1: when it moves; 2: when it moves "
          "or holds; 0: off; -1: the controller file's value)"},
         {"end_aware", &RnnFields::end_aware, 1.0, 0.0, 1.0,
          "cost gate: its horizon is no longer than the intervals the run has left, where the "
          "host says (the evaluator: the rollout's events; the simulator: --steps or "
          "--last-step; the C API: cellshift_controller_set_intervals_left); 0: off, as if the "
          "run never ended"},
         {"noise_margin", &RnnFields::noise_margin, RnnGateOptions{}.noise_margin, 0.0, 100.0,
          "cost gate: a move must gain more per interval than noisy observations could fake, "
          "z e^2 x total load / sqrt(P S) with e the judged forecast's relative error (this "
          "is z; 0: any gain; blend-base files)"},
         {"median_judge", &RnnFields::median_judge, 1.0, 0.0, 1.0,
          "cost gate: it may judge moves under the median of the last five observations (three "
          "at first) when that has been more accurate than both Holt forecasts, so a load "
          "seen once is not taken for a lasting one (0: off; blend-base files)"},
         {"shift_judge", &RnnFields::shift_judge, 1.0, 0.0, 1.0,
          "cost gate: it may judge moves under a forecast that carries the load along its "
          "measured motion when that has been the most accurate, so a move ahead of a "
          "travelling front is not vetoed by a lagging forecast (0: off; blend-base files)"},
         {"steady_judge", &RnnFields::steady_judge, 1.0, 0.0, 1.0,
          "cost gate: it may judge moves under a steady forecast (smoothing with no trend, "
          "level weight 0.3) when that has been the most accurate, so noise on a profile "
          "that stands still is not taken for imbalance (0: off; blend-base files)"},
         {"persistence", &RnnFields::persistence, 1.0, 0.0, 1.0,
          "cost gate: it follows the moves it would make for 8 intervals and, where their "
          "saving has not lasted past the fourth, weighs moves over one interval only, so a "
          "profile that switches back and forth is not chased (0: off; blend-base files)"},
         {"last_judge", &RnnFields::last_judge, RnnGateOptions{}.last_judge, 0.0, 1e6,
          "cost gate: it may judge moves under the last observation itself when that has been "
          "the most accurate forecast by a tenth and the migration cost mu is at most this, so "
          "a load that jumps is followed at once where moves are cheap (0: never; blend-base "
          "files whose choice is refined)"},
         {"jump_reset", &RnnFields::jump_reset, 1.0, 0.0, 1.0,
          "its smoothed forecasts restart from the observation where the steady forecast's "
          "error on the ranks' loads is 12 mean deviations above its moving average, so a "
          "profile that switches at once is followed at the next event (0: off; blend-base "
          "files)"},
         {"trend_judge", &RnnFields::trend_judge, 1.0, 0.0, 1.0,
          "cost gate: it may judge moves under a trend forecast (the last observation plus "
          "0.6 of the smoothed change per event) when that has been the most accurate, so a "
          "load that travels fast across narrow ranks is judged where it is going (0: off; "
          "blend-base files)"}},
        Reads::rank_times, make_rnn));

    std::vector<Field<RnnZeroFields>> zero = reactive_fields<RnnZeroFields>();
    zero.push_back(
        {"seed", &RnnZeroFields::seed, 0.0, 0.0, 1e15, "seed of the random GRU weights"});
    styles.push_back(define_style<RnnZeroFields>(
        "rnn-zero", "residual GRU with random weights and a zero head: must equal reactive exactly",
        zero, Reads::rank_times, [](const RnnZeroFields& f, const PolicySettings&) {
            // The rank-time set: like reactive, it needs nothing but rank times.
            return make_rnn_policy(untrained_controller(
                f.params(), 24, static_cast<std::uint64_t>(f.seed), kRankTimeFeatureCount));
        }));
}

} // namespace cellshift::controller::styles
