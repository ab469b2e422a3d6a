#pragma once
// The differentiable surrogate of the load-balancing loop (docs/design.md section 4), in
// LibTorch, batched over scenarios that share P, S and w_min.
//
// Boundaries are real. Rank p's time is sum_s W_s [sig((c_s - b_p)/T) - sig((c_s - b_{p+1})/T)]
// with slice centres c_s = s + 1/2 and temperature T (in slices), so every
// quantity below is differentiable in the boundaries and in the controller's
// weights. It is computed through a soft prefix sum F(x) = sum_s W_s sig((x - c_s)/T),
// exact prefix sums outside a window of +-(20 T + 2) slices around x (sig(-20) = 2e-9),
// so a step costs O(P T) instead of O(P S). As T -> 0 it is the hard loop.
//
// Per event t = 1..E (the same timing as the hard loop, eval/rollout.hpp): the
// controller observes interval t-1 (soft rank times under the current
// boundaries, times the scenario's jitter) and the per-slice workload (times its
// own jitter, smoothed by the Holt forecaster of the forecast features), computes
// the first F features of controller/features.hpp, runs the GRU, corrects the (smoothed) reactive
// proposal by its residual, moves the boundaries (each move limited to half the
// slack of the rank it moves into, which keeps every rank >= w_min, then rounded
// to whole slices with a straight-through gradient), and the loss
// takes the noise-free imbalance and spread of interval t plus lambda per moved slice
// (Objective::Loss, docs/design.md section 4), or the interval's modelled runtime over its
// perfectly balanced time, migration included (Objective::Runtime, docs/design.md 8.1).

#include "cellshift/controller/features.hpp"
#include "cellshift/controller/reactive.hpp"
#include "cellshift/scenarios/scenario.hpp"

#include <torch/torch.h>

#include <vector>

namespace cellshift::surrogate {

// Scenarios as tensors (double): workload and growth events [B, E+1, S], cycle
// phase [B, E+1], the observation jitter of every rank [B, E+1, P].
// slice_jitter [B, E+1, S] is the jitter of the observed per-slice workload, and
// seen [B, E+1, S] what is observed per slice before it: the scenario's estimate
// where it has one (Scenario::estimate), else its workload.
// migration_cost [B] is each scenario's mu (zeros from make_batch).
struct ScenarioBatch {
    torch::Tensor workload, seen, growth_events, cycle_phase, jitter, slice_jitter, migration_cost;
    std::int64_t ranks = 0, slices = 0, w_min = 1;
    std::int64_t events() const { return workload.size(1) - 1; }
    std::int64_t batch() const { return workload.size(0); }
};

// All scenarios must share P, S and w_min.
ScenarioBatch make_batch(const std::vector<scenarios::Scenario>& scenarios);

// What the controller's head corrects (controller/rnn_policy.hpp).
struct BaseSpec {
    bool forecast = false; // the forecast split's proposal (2 outputs), else reactive (1)
    // Holt's constants of the per-slice forecast (forecast features and base target).
    double level_alpha = controller::kForecastLevelAlpha;
    double trend_beta = controller::kForecastTrendBeta;
};

// The residual controller: one shared GRU cell, zero-initialised linear head.
// It reads the first `features` features: 12 (rank times only), 16 (with the
// per-slice forecast) or 18 (with the host's costs; the forecast base needs them).
struct ResidualGruImpl : torch::nn::Module {
    explicit ResidualGruImpl(std::int64_t hidden = 24,
                             std::int64_t features = controller::kForecastFeatureCount,
                             BaseSpec base = {});
    // features [N, F], hidden [N, H] -> (outputs, new hidden [N, H]); outputs are
    // [N] (the reactive base's residual) or [N, 2] (the forecast base's gain and
    // correction, before their bounds).
    std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& features,
                                                    const torch::Tensor& hidden);
    torch::nn::GRUCell cell{nullptr};
    torch::nn::Linear head{nullptr};
    std::int64_t hidden_size;
    std::int64_t feature_count;
    BaseSpec base;
};
TORCH_MODULE(ResidualGru);

enum class Objective {
    Loss,    // mean_t (G_t + w spread_t + lambda M_t): docs/design.md section 4
    Runtime, // mean_t (interval_t / mean_p T_p(t) - 1 + w spread_t): docs/design.md 8.1
};

struct SoftLoopConfig {
    double temperature = 0.05; // T, in slices
    double lambda = 5e-4;      // loss per moved slice (and event)
    controller::ReactiveParams reactive;
    bool use_controller = true; // false: the pure (smoothed) reactive rule
    // Round every move to whole slices in the forward pass, as the deployed loop
    // does, with the identity as its gradient (straight-through estimator). Without
    // it the surrogate rewards sub-slice moves that the hard loop rounds away.
    bool round_moves = true;
    // Weight of the normalised spread in the loss. the design's objective uses 1; 0
    // trains on the global imbalance alone, which is what the quality bar measures:
    // evening out ranks that are not the slowest costs migration and no imbalance.
    double spread_weight = 1.0;
    Objective objective = Objective::Loss;
    // kappa of the runtime objective: a fraction of the mean rank time paid by
    // every rank in an interval whose event moved anything.
    double rebalance_cost = 0.0;
};

struct SoftLoopResult {
    torch::Tensor loss;      // scalar: mean over batch and events of G + w spread + lambda M
    torch::Tensor imbalance; // [B] time-averaged global imbalance
    torch::Tensor spread;    // [B]
    torch::Tensor migrated;  // [B] total moved slices
    // [B] time-averaged excess runtime, interval / mean_p T_p - 1 (migration
    // included, at each scenario's mu and the config's kappa)
    torch::Tensor excess_runtime;
    torch::Tensor runtime;                 // [B] summed modelled runtime of the E intervals
    std::vector<torch::Tensor> boundaries; // E entries of [B, P+1], the boundaries of interval t
};

// Soft rank times [B, P] of per-slice workload w [B, S] under boundaries b [B, P+1].
torch::Tensor soft_rank_times(const torch::Tensor& w, const torch::Tensor& b, double temperature);

// All 18 clamped features [B, K, 18] (K = P-1) from tensors, the same definitions
// and clamp ranges as controller::compute_features. `growth` is [B, S] (zeros when
// unknown); the growth window uses the rounded boundaries. `forecast_loads` [B, P]
// are the forecast's rank loads under b, `target` [B, K] its split's interior
// boundaries; both undefined for the rank-time set (the forecast features are 0).
// `mu` [B] is each scenario's migration cost, `kappa` the rebalancing cost.
torch::Tensor soft_features(const torch::Tensor& observed_times, const torch::Tensor& b,
                            std::int64_t w_min, double ds_max, const torch::Tensor& previous_moves,
                            const torch::Tensor& phase, const torch::Tensor& growth,
                            const torch::Tensor& reactive, const torch::Tensor& previous_imbalance,
                            const torch::Tensor& forecast_loads, const torch::Tensor& target,
                            const torch::Tensor& mu, double kappa);

// The forecast base's moves [B, K] (controller/forecast_base.hpp) from the head's
// outputs [B, K, 2], the current boundaries b [B, P+1] and the forecast split's
// interior cuts [B, K]: gain x (target - b) + correction, rounded half away from
// zero with a straight-through gradient when `round`, then projected to feasible
// boundaries by the running maximum of b_k - k w_min.
torch::Tensor forecast_base_moves(const torch::Tensor& outputs, const torch::Tensor& b,
                                  const torch::Tensor& target, std::int64_t w_min, bool round);

// The reactive proposal [B, K], made smooth: the threshold |I| > tau becomes
// sig((|I| - tau) / k) and the choice of the slower rank sig((T+ - T-) / (k mean)),
// with k = sharpness; as k -> 0 it is the hard rule. Clipped to +-ds_max.
torch::Tensor soft_reactive(const torch::Tensor& observed_times, const torch::Tensor& b,
                            const controller::ReactiveParams& params, double ds_max,
                            double sharpness);

// The soft modelled runtime of one interval [B] (docs/design.md 8.1): noise-free soft
// rank times under `after` of the workload w [B, S], plus mu [B] times each
// rank's migration traffic (the soft load between a boundary's old and new
// position, charged to both neighbours of that boundary), plus kappa x the mean
// rank time x min(1, slices moved). As T -> 0 it is eval::interval_runtime for
// moves that do not cross a neighbour's old boundary.
torch::Tensor soft_interval_runtime(const torch::Tensor& w, const torch::Tensor& before,
                                    const torch::Tensor& after, const torch::Tensor& mu,
                                    double kappa, double temperature);

SoftLoopResult run_soft_loop(ResidualGru& model, const ScenarioBatch& batch,
                             const SoftLoopConfig& config);

} // namespace cellshift::surrogate
