#include "cellshift/controller/rnn_policy.hpp"

#include "cellshift/controller/features.hpp"
#include "cellshift/controller/forecast_base.hpp"
#include "cellshift/controller/gru.hpp"
#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/load_jump.hpp"
#include "cellshift/controller/median_forecast.hpp"
#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/residual.hpp"
#include "cellshift/controller/shift_forecast.hpp"
#include "cellshift/controller/split_persistence.hpp"
#include "cellshift/controller/total_volatility.hpp"
#include "styles/style_definition.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace cellshift::controller {
namespace {

// The steady forecast the gate may judge under (RnnGateOptions::steady_judge): an
// exponential smoothing with no trend that keeps 0.7 of its level per event. Where a
// profile stands still under noisy observations it is the most accurate forecast and
// the quietest: a split balanced under it leaves less of the noise in the boundaries.
// 0.3 (0.1-0.4 compared; the shift forecast's profile weight) on the stress workloads
// at 2, 10 and 30% noise (docs/research_log.md, issue 22 session 22).
constexpr double kSteadyLevel = 0.3;

// The trend forecast the gate may judge under (RnnGateOptions::trend_judge): the last
// observation plus 0.6 of the smoothed change per event, the trend weight that the `holt`
// sweep's best point has on the training seeds of the fast-moving families (`point`,
// `front`) at P = 4..64. 0.45-1 compared on the training seeds: within 0.0001
// (docs/research_log.md, issue 22 session 27).
constexpr double kTrendLevel = 1.0;
constexpr double kTrendBeta = 0.6;

class RnnPolicy final : public Policy {
public:
    RnnPolicy(const data::Controller& c, const RnnGateOptions& gate)
        : gru_(c), params_{c.alpha, c.tau, c.ds_max_fraction}, features_(c.feature_count()),
          forecast_base_(c.base == data::kForecastBase || c.base == data::kBlendBase),
          blend_(c.base == data::kBlendBase),
          forecaster_(c.forecast_level_alpha, c.forecast_trend_beta),
          fast_forecaster_(c.fast_level_alpha, c.fast_trend_beta), hold_horizon_(c.hold_horizon),
          refine_(c.refine_split != 0.0),
          refine_holds_(c.refine_split == data::kRefineMovesAndHolds), gate_options_(gate) {
        set_calibration(c.calibration_keep);
    }

    bool reads_slice_workload() const override {
        return forecast_base_ || features_ > kRankTimeFeatureCount;
    }

private:
    void on_reset() override {
        const auto count = static_cast<Eigen::Index>(layout().ranks - 1);
        hidden_ = Eigen::MatrixXf::Zero(gru_.hidden_size(), count);
        previous_moves_.assign(static_cast<std::size_t>(count), 0.0);
        previous_imbalance_.clear();
        forecaster_.reset();
        fast_forecaster_.reset();
        median_forecaster_.reset();
        persistence_.reset();
        jump_.reset();
        shift_forecaster_.reset();
        steady_forecaster_.reset();
        trend_forecaster_.reset();
        reset_forecast_errors();
        volatility_.reset();
    }

    void save_extra(PolicyState& state) const override {
        state["rnn/hidden"].assign(hidden_.data(), hidden_.data() + hidden_.size());
        state["rnn/previous_moves"] = previous_moves_;
        state["rnn/previous_imbalance"] = previous_imbalance_;
        state["rnn/forecast/level"] = forecaster_.level();
        state["rnn/forecast/trend"] = forecaster_.trend();
        if (blend_) {
            state["rnn/fast/level"] = fast_forecaster_.level();
            state["rnn/fast/trend"] = fast_forecaster_.trend();
            state["rnn/forecast_error"] = forecast_error_;
            state["rnn/median/history"] = median_forecaster_.state();
            state["rnn/shift/state"] = shift_forecaster_.state();
            state["rnn/steady/level"] = steady_forecaster_.level();
            state["rnn/trend/level"] = trend_forecaster_.level();
            state["rnn/trend/trend"] = trend_forecaster_.trend();
            state["rnn/persistence/state"] = persistence_.state();
            state["rnn/jump/state"] = jump_.state();
        }
        if (hold_horizon_ > 0.0)
            state["rnn/total_volatility"] = volatility_.state();
    }
    void restore_extra(const PolicyState& state) override {
        const auto& h = state_array(state, "rnn/hidden", static_cast<std::size_t>(hidden_.size()));
        for (Eigen::Index k = 0; k < hidden_.size(); ++k)
            hidden_.data()[k] = static_cast<float>(h[static_cast<std::size_t>(k)]);
        previous_moves_ = state_array(state, "rnn/previous_moves", previous_moves_.size());
        // Empty before the first event, one value per interior boundary afterwards.
        const auto it = state.find("rnn/previous_imbalance");
        const std::size_t n = it == state.end() ? 0 : it->second.size();
        previous_imbalance_ =
            state_array(state, "rnn/previous_imbalance", n == 0 ? 0 : previous_moves_.size());
        const auto lv = state.find("rnn/forecast/level");
        const std::size_t m = lv == state.end() ? 0 : lv->second.size();
        if (m != 0 && m != static_cast<std::size_t>(layout().slices))
            throw std::invalid_argument("policy state 'rnn/forecast/level' does not hold S values");
        forecaster_.restore(state_array(state, "rnn/forecast/level", m),
                            state_array(state, "rnn/forecast/trend", m));
        if (blend_) {
            fast_forecaster_.restore(state_array(state, "rnn/fast/level", m),
                                     state_array(state, "rnn/fast/trend", m));
            // Absent from checkpoints written before the gate read it: start afresh. Two
            // values (holt's, the fast forecast's) before the median was judged too, three
            // before the shift forecast was, four before the steady one was, five before
            // the last observation was (itself the median's newest observation), six
            // before the trend forecast was; the errors and forecasts a checkpoint lacks
            // start afresh.
            reset_forecast_errors();
            const auto error = state.find("rnn/forecast_error");
            if (error != state.end()) {
                const std::size_t saved = error->second.size();
                const std::size_t kept =
                    saved >= 2 && saved < kJudgedForecasts ? saved : kJudgedForecasts;
                const std::vector<double> e = state_array(state, "rnn/forecast_error", kept);
                std::copy(e.begin(), e.end(), forecast_error_.begin());
            }
            const auto median = state.find("rnn/median/history");
            median_forecaster_.restore(median == state.end() ? std::vector<double>{}
                                                             : median->second,
                                       static_cast<std::size_t>(layout().slices));
            const auto shift = state.find("rnn/shift/state");
            shift_forecaster_.restore(shift == state.end() ? std::vector<double>{} : shift->second,
                                      static_cast<std::size_t>(layout().slices));
            // The steady forecast has no trend; absent from older checkpoints.
            if (state.count("rnn/steady/level") == 0)
                steady_forecaster_.reset();
            else
                steady_forecaster_.restore(state_array(state, "rnn/steady/level", m),
                                           std::vector<double>(m, 0.0));
            // Absent from checkpoints written before the gate judged under it.
            if (state.count("rnn/trend/level") == 0)
                trend_forecaster_.reset();
            else
                trend_forecaster_.restore(state_array(state, "rnn/trend/level", m),
                                          state_array(state, "rnn/trend/trend", m));
            // Absent from checkpoints written before the gate followed its moves.
            const auto persistence = state.find("rnn/persistence/state");
            if (persistence == state.end())
                persistence_.reset();
            else
                persistence_.restore(persistence->second, layout());
            // Absent from checkpoints written before the controller watched for jumps.
            const auto jump = state.find("rnn/jump/state");
            if (jump == state.end())
                jump_.reset();
            else
                jump_.restore(jump->second);
        }
        // Absent from checkpoints written before the gate's horizon read it: start afresh.
        if (hold_horizon_ > 0.0 && state.count("rnn/total_volatility") != 0)
            volatility_.restore(state_array(state, "rnn/total_volatility", 5));
    }

    Boundaries next(const Observation& o) override {
        const Boundaries& b = boundaries();
        const std::size_t count = b.size() - 2;
        const double ds_max = ds_max_slices(layout(), params_);
        std::vector<double> reactive = reactive_proposals(o.rank_times, b, params_, ds_max);
        std::vector<double> imbalance(count);
        for (std::size_t k = 0; k < count; ++k) {
            imbalance[k] = local_imbalance(o.rank_times[k], o.rank_times[k + 1]);
        }
        if (previous_imbalance_.empty()) {
            previous_imbalance_ = imbalance; // no change is known at the first event
        }
        // The forecast features: only a file trained with them reads per-slice workload.
        Boundaries target, fast;
        std::vector<double> loads, forecast, fast_forecast;
        if (reads_slice_workload()) {
            const std::vector<double>& slices = styles::require_slice_workload(o, "rnn");
            if (blend_ && !forecaster_.level().empty()) {
                // How far each forecast of this interval, made at the last event, was
                // off: the gate judges under the one that has been the most accurate.
                for (std::size_t i = 0; i < 2; ++i) {
                    const HoltForecaster& f = i == 0 ? forecaster_ : fast_forecaster_;
                    forecast_error_[i] =
                        kForecastErrorKeep * forecast_error_[i] +
                        (1.0 - kForecastErrorKeep) * relative_forecast_error(f.forecast(), slices);
                }
                // The median's error counts only forecasts that were medians (of three
                // or five observations; track_error).
                if (median_forecaster_.ready())
                    track_error(forecast_error_[2], median_forecaster_.forecast(), slices);
                // Likewise the shift forecast's, from the first forecast made with a
                // measured shift.
                if (shift_forecaster_.measured())
                    track_error(forecast_error_[3], shift_forecaster_.forecast(), slices);
                // And the steady forecast's, from its first forecast.
                if (!steady_forecaster_.level().empty())
                    track_error(forecast_error_[4], steady_forecaster_.forecast(), slices);
                // And the last observation's, from the first one (the median keeps it).
                if (!median_forecaster_.last().empty())
                    track_error(forecast_error_[5], median_forecaster_.last(), slices);
                // And the trend forecast's, from its first forecast.
                if (!trend_forecaster_.level().empty())
                    track_error(forecast_error_[6], trend_forecaster_.forecast(), slices);
            }
            if (hold_horizon_ > 0.0) {
                double total = 0.0;
                for (const double w : slices)
                    total += w;
                volatility_.observe(total);
                if (blend_ && gate_options_.persistence)
                    persistence_.observe(slices);
            }
            // Where the load has jumped to a new profile the smoothed forecasts restart
            // from the observation instead of taking several events to follow it
            // (load_jump.hpp).
            bool jumped = false;
            if (blend_ && !steady_forecaster_.level().empty())
                jumped = jump_.observe(rank_load_error(steady_forecaster_.forecast(), slices, b)) &&
                         gate_options_.jump_reset;
            const auto smooth = [&](HoltForecaster& f) {
                if (jumped)
                    f.restore(slices, std::vector<double>(slices.size(), 0.0));
                else
                    f.observe(slices);
            };
            smooth(forecaster_);
            forecast = forecaster_.forecast();
            target = split_equal_load(forecast, layout());
            loads = rank_sums(forecast, b);
            if (blend_) {
                smooth(fast_forecaster_);
                fast_forecast = fast_forecaster_.forecast();
                median_forecaster_.observe(slices);
                shift_forecaster_.observe(slices);
                smooth(steady_forecaster_);
                smooth(trend_forecaster_);
                fast = split_equal_load(fast_forecast, layout());
            }
        }
        FeatureInputs in;
        in.rank_times = &o.rank_times;
        in.boundaries = &b;
        in.w_min = layout().w_min;
        in.ds_max = ds_max;
        in.previous_moves = &previous_moves_;
        in.cycle_phase = o.cycle_phase;
        in.growth_events = o.growth_events.empty() ? nullptr : &o.growth_events;
        in.reactive = &reactive;
        in.previous_local_imbalance = &previous_imbalance_;
        if (reads_slice_workload()) {
            in.forecast_loads = &loads;
            in.forecast_target = &target;
        }
        in.migration_cost = o.migration_cost;
        in.rebalance_cost = o.rebalance_cost;
        Eigen::MatrixXd x = compute_features(in).topRows(static_cast<Eigen::Index>(features_));
        gru_.step(x, hidden_);
        const Eigen::MatrixXd out = gru_.heads(hidden_, x);

        Boundaries result;
        if (forecast_base_) {
            // Gain and correction on the forecast split's proposal, rounded, then the
            // monotone projection (forecast_base.hpp).
            std::vector<std::int64_t> cuts(count);
            for (std::size_t k = 0; k < count; ++k) {
                const auto col = static_cast<Eigen::Index>(k);
                double aim = static_cast<double>(target[k + 1]);
                if (blend_) {
                    const double w = forecast_blend(out(2, col));
                    aim += w * static_cast<double>(fast[k + 1] - target[k + 1]);
                }
                const double d = aim - static_cast<double>(b[k + 1]);
                const double move =
                    forecast_gain(out(0, col)) * d + forecast_correction(out(1, col));
                cuts[k] = b[k + 1] + (std::isfinite(move) ? std::llround(move) : 0);
            }
            result = project_feasible(cuts, layout(), &limited_);
            if (hold_horizon_ > 0.0) {
                // The gate weighs the head's move against the forecasts' own splits,
                // judged under the forecast that has been the most accurate, over a
                // horizon that is longer while the total workload grows steadily
                // (forecast_base.hpp, total_volatility.hpp).
                std::vector<Boundaries> aims{result, target};
                const std::vector<double>* judge = &forecast;
                double margin = 0.0; // the gain noise could fake (the blend base tracks errors)
                std::vector<double> computed; // the median, shift, steady or last if judging
                if (blend_) {
                    aims.push_back(fast);
                    const std::size_t best = judged_forecast(o.migration_cost);
                    if (best == 1)
                        judge = &fast_forecast;
                    if (best >= 2) {
                        computed = best == 2   ? median_forecaster_.forecast()
                                   : best == 3 ? shift_forecaster_.forecast()
                                   : best == 4 ? steady_forecaster_.forecast()
                                   : best == 6 ? trend_forecaster_.forecast()
                                               : median_forecaster_.last();
                        judge = &computed;
                    }
                    margin = gate_noise_margin(gate_options_.noise_margin, forecast_error_[best],
                                               *judge, layout());
                }
                const MigrationCost cost{o.migration_cost, o.rebalance_cost};
                double horizon = stretched_horizon(hold_horizon_, volatility_);
                if (gate_options_.end_aware)
                    horizon = horizon_within_run(horizon, o.intervals_left);
                result = gate_move(*judge, b, aims, layout(), horizon, cost, margin);
                if (blend_ && gate_options_.persistence) {
                    // The move made at the full horizon is followed even while the horizon
                    // is cut, so that the measure sees when such moves last again.
                    persistence_.follow(b, result,
                                        bottleneck(*judge, b) - bottleneck(*judge, result));
                    const double lasting = persistent_horizon(horizon, persistence_);
                    if (lasting < horizon)
                        result = gate_move(*judge, b, aims, layout(), lasting, cost, margin);
                }
                if (refine_)
                    result = refine_move(*judge, b, result, layout(), cost, refine_holds_, margin);
            }
        } else {
            std::vector<double> moves(count);
            for (std::size_t k = 0; k < count; ++k) {
                moves[k] = residual_move(reactive[k], out(0, static_cast<Eigen::Index>(k)), ds_max);
            }
            result = apply_moves(moves);
        }
        for (std::size_t k = 0; k < count; ++k) {
            previous_moves_[k] = static_cast<double>(result[k + 1] - b[k + 1]);
        }
        previous_imbalance_ = imbalance;
        return result;
    }

    // The blend base's gate judges under holt's forecast (0), the fast one (1) or, with
    // RnnGateOptions::median_judge, the median of the last five (at first three)
    // observations (2) or, with RnnGateOptions::shift_judge, the forecast that follows the
    // workload's motion (3) or, with RnnGateOptions::steady_judge, the steady forecast (4)
    // or, with RnnGateOptions::trend_judge, the trend forecast (6) or, where mu <=
    // RnnGateOptions::last_judge and the gate's choice is refined, the last observation (5):
    // whichever has the lowest averaged error, ties to the earlier. The errors of all but
    // the first two are kNotJudged until one of their own forecasts has been checked against what
    // came: before three observations the median forecaster returns the last one, whose
    // error at the first events (while the fast forecast's trend settles) says nothing
    // about bursts, and before two the shift is not measured.
    static constexpr std::size_t kJudgedForecasts = 7;
    static constexpr double kNotJudged = -1.0;
    static constexpr double kLastJudgeMargin = 0.9;
    std::size_t judged_forecast(double migration_cost) const {
        std::size_t best = forecast_error_[1] < forecast_error_[0] ? 1 : 0;
        const auto better = [&](std::size_t k) {
            return forecast_error_[k] != kNotJudged && forecast_error_[k] < forecast_error_[best];
        };
        if (gate_options_.median_judge && better(2))
            best = 2;
        if (gate_options_.shift_judge && better(3))
            best = 3;
        if (gate_options_.steady_judge && better(4))
            best = 4;
        if (gate_options_.trend_judge && better(6))
            best = 6;
        // The last observation must beat the best of the others by a tenth: on a load
        // that travels its error is close to the shift or fast forecast's, whose splits
        // lead the load where its own lags it (training seeds of the front and point
        // families, docs/research_log.md, issue 22 session 24).
        if (refine_ && migration_cost <= gate_options_.last_judge && better(5) &&
            forecast_error_[5] < kLastJudgeMargin * forecast_error_[best])
            best = 5;
        return best;
    }
    void reset_forecast_errors() {
        forecast_error_.assign(kJudgedForecasts, 0.0);
        forecast_error_[2] = kNotJudged;
        forecast_error_[3] = kNotJudged;
        forecast_error_[4] = kNotJudged;
        forecast_error_[5] = kNotJudged;
        forecast_error_[6] = kNotJudged;
    }
    // The averaged error of a forecast judged only once it has forecast on its own terms:
    // the first error starts level with the better Holt forecast's, so it takes over as
    // judge only once its own errors are lower.
    void track_error(double& error, const std::vector<double>& forecast,
                     const std::vector<double>& actual) const {
        if (error == kNotJudged)
            error = std::min(forecast_error_[0], forecast_error_[1]);
        error = kForecastErrorKeep * error +
                (1.0 - kForecastErrorKeep) * relative_forecast_error(forecast, actual);
    }

    GruCell gru_;
    ReactiveParams params_;
    std::size_t features_; // the first F features of the table (12, 16, 18 or 20)
    bool forecast_base_;   // the forecast split's proposal, else the reactive rule's
    bool blend_;           // aimed at a blend of two forecasters' splits
    Eigen::MatrixXf hidden_;
    std::vector<double> previous_moves_;
    std::vector<double> previous_imbalance_;
    HoltForecaster forecaster_;
    HoltForecaster fast_forecaster_;     // the blend base's second forecaster
    MedianForecaster median_forecaster_; // and the gate's third judge (its newest: the sixth)
    ShiftForecaster shift_forecaster_;   // and its fourth
    HoltForecaster steady_forecaster_{kSteadyLevel, 0.0};      // and its fifth
    HoltForecaster trend_forecaster_{kTrendLevel, kTrendBeta}; // and its seventh
    SplitPersistence persistence_;                             // whether the gate's moves last
    LoadJump jump_;                      // whether the load has jumped to a new profile
    double hold_horizon_;                // the cost gate's horizon in intervals (0: no gate)
    bool refine_;                        // the gate's moves refined to a minimax split
    bool refine_holds_;                  // and its holds
    RnnGateOptions gate_options_;        // the gate's end of run, noise margin, median judge
    std::vector<double> forecast_error_; // [7] holt's, fast, median, shift, steady, last, trend
    TotalVolatility volatility_;         // of the total workload: the gate's horizon
};

} // namespace

std::unique_ptr<Policy> make_rnn_policy(const data::Controller& c, const RnnGateOptions& gate) {
    const std::size_t f = c.feature_count();
    if ((f != kRankTimeFeatureCount && f != kForecastFeatureCount && f != kFeatureCount) ||
        c.feature_names != feature_names(f) || c.clamp_min != feature_clamp_min(f) ||
        c.clamp_max != feature_clamp_max(f)) {
        throw std::invalid_argument(
            "the controller's features (names, order or clamp ranges) are not the first 12 or 16, "
            "or all 18, of this build's features; it was trained for another version of "
            "cellshift");
    }
    if ((c.base == data::kForecastBase || c.base == data::kBlendBase) && f < kCostFeatureCount) {
        throw std::invalid_argument("a " + c.base + "-base controller reads at least " +
                                    std::to_string(kCostFeatureCount) + " features, this one " +
                                    std::to_string(f));
    }
    check_noise_margin(gate.noise_margin);
    return std::make_unique<RnnPolicy>(c, gate);
}

data::Controller untrained_controller(const ReactiveParams& params, std::size_t hidden,
                                      std::uint64_t seed, std::size_t features) {
    std::mt19937_64 rng(seed);
    double bound = 1.0 / std::sqrt(static_cast<double>(hidden));
    std::uniform_real_distribution<double> uniform(-bound, bound);
    auto fill = [&](std::size_t n) {
        std::vector<double> v(n);
        for (double& x : v) {
            x = uniform(rng);
        }
        return v;
    };
    data::Controller c;
    c.feature_names = feature_names(features);
    c.clamp_min = feature_clamp_min(features);
    c.clamp_max = feature_clamp_max(features);
    c.alpha = params.alpha;
    c.tau = params.tau;
    c.ds_max_fraction = params.ds_max_fraction;
    c.weight_ih = data::Matrix(3 * hidden, features);
    c.weight_ih.values = fill(3 * hidden * features);
    c.weight_hh = data::Matrix(3 * hidden, hidden);
    c.weight_hh.values = fill(3 * hidden * hidden);
    c.bias_ih = fill(3 * hidden);
    c.bias_hh = fill(3 * hidden);
    c.head_weight = data::Matrix(1, hidden, 0.0);
    c.head_bias = {0.0};
    c.training.seed = seed;
    c.training.commit = "untrained";
    c.training.config = "untrained: random GRU, zero head";
    return c;
}

data::Controller untrained_forecast_controller(double level_alpha, double trend_beta,
                                               std::size_t hidden, std::uint64_t seed) {
    data::Controller c = untrained_controller(ReactiveParams{}, hidden, seed, kCostFeatureCount);
    c.base = data::kForecastBase;
    c.forecast_level_alpha = level_alpha;
    c.forecast_trend_beta = trend_beta;
    c.head_weight = data::Matrix(2, hidden, 0.0);
    c.head_bias = {0.0, 0.0};
    return c;
}

data::Controller untrained_blend_controller(double level_alpha, double trend_beta,
                                            double fast_level_alpha, double fast_trend_beta,
                                            std::size_t hidden, std::uint64_t seed) {
    data::Controller c = untrained_forecast_controller(level_alpha, trend_beta, hidden, seed);
    c.base = data::kBlendBase;
    c.fast_level_alpha = fast_level_alpha;
    c.fast_trend_beta = fast_trend_beta;
    c.head_weight = data::Matrix(3, hidden, 0.0);
    c.head_bias = {0.0, 0.0, 0.0};
    // The blend weight may read the features directly (the migration cost above all):
    // a zero skip connection, for training to fill.
    c.head_input_weight = data::Matrix(3, kFeatureCount, 0.0);
    return c;
}

} // namespace cellshift::controller
