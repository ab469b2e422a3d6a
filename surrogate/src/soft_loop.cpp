#include "cellshift/surrogate/soft_loop.hpp"

#include "cellshift/controller/features.hpp"
#include "cellshift/controller/forecast_base.hpp"
#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/residual.hpp"

#include <cmath>
#include <stdexcept>

namespace cellshift::surrogate {
namespace {

using torch::indexing::Slice;
const auto kDouble = torch::TensorOptions().dtype(torch::kFloat64);

torch::Tensor from_rows(const data::Matrix& m) {
    return torch::from_blob(const_cast<double*>(m.values.data()),
                            {static_cast<std::int64_t>(m.rows), static_cast<std::int64_t>(m.cols)},
                            kDouble)
        .clone();
}

// Exclusive prefix sums [B, S+1] of w [B, S].
torch::Tensor prefix(const torch::Tensor& w) {
    return torch::cat({torch::zeros({w.size(0), 1}, w.options()), w.cumsum(1)}, 1);
}

// F(x) = sum_s w_s sig((x - c_s) / T) for x [B, K]: exact prefix below the window,
// soft terms inside it, nothing above it.
torch::Tensor soft_prefix(const torch::Tensor& w, const torch::Tensor& cum, const torch::Tensor& x,
                          double temperature) {
    const std::int64_t batch = w.size(0), slices = w.size(1), k = x.size(1);
    const std::int64_t m = static_cast<std::int64_t>(std::ceil(20.0 * temperature)) + 2;
    torch::Tensor lo = x.detach().floor().to(torch::kLong) - m;                    // [B, K]
    torch::Tensor idx = lo.unsqueeze(-1) + torch::arange(2 * m + 1, torch::kLong); // [B, K, W]
    torch::Tensor valid = ((idx >= 0) & (idx < slices)).to(torch::kFloat64);
    torch::Tensor idx_c = idx.clamp(0, slices - 1);
    torch::Tensor wg = w.gather(1, idx_c.view({batch, -1})).view({batch, k, 2 * m + 1});
    torch::Tensor centres = idx.to(torch::kFloat64) + 0.5;
    torch::Tensor sig = torch::sigmoid((x.unsqueeze(-1) - centres) / temperature);
    torch::Tensor base = cum.gather(1, lo.clamp(0, slices));
    return base + (wg * sig * valid).sum(-1);
}

// The scenario's observation jitter [E+1, n] of stream 0 (rank times) or 1 (slices).
torch::Tensor jitter_table(const scenarios::Scenario& sc, std::int64_t n, std::uint64_t stream) {
    const auto rows = static_cast<std::int64_t>(sc.workload.rows);
    torch::Tensor table = torch::empty({rows, n}, kDouble);
    auto a = table.accessor<double, 2>();
    for (std::int64_t t = 0; t < rows; ++t) {
        for (std::int64_t i = 0; i < n; ++i) {
            a[t][i] = scenarios::jitter_factor(sc, t, i, stream);
        }
    }
    return table;
}

torch::Tensor clamp_features(const torch::Tensor& x) {
    std::vector<double> lo = controller::feature_clamp_min(controller::kCostFeatureCount);
    std::vector<double> hi = controller::feature_clamp_max(controller::kCostFeatureCount);
    torch::Tensor tlo = torch::tensor(lo, kDouble);
    torch::Tensor thi = torch::tensor(hi, kDouble);
    return torch::max(torch::min(x, thi), tlo);
}

torch::Tensor local_imbalance(const torch::Tensor& t) {
    torch::Tensor tl = t.index({Slice(), Slice(0, -1)});
    torch::Tensor tr = t.index({Slice(), Slice(1, torch::indexing::None)});
    torch::Tensor mean = 0.5 * (tl + tr);
    return torch::where(mean > 0, (tr - tl) / mean.clamp_min(1e-300), torch::zeros_like(mean));
}

torch::Tensor global_imbalance(const torch::Tensor& t) {
    torch::Tensor mean = t.mean(1);
    return torch::where(mean > 0, std::get<0>(t.max(1)) / mean.clamp_min(1e-300) - 1.0,
                        torch::zeros_like(mean));
}

} // namespace

ScenarioBatch make_batch(const std::vector<scenarios::Scenario>& list) {
    if (list.empty()) {
        throw std::invalid_argument("make_batch: no scenarios");
    }
    ScenarioBatch b;
    b.ranks = list.front().layout.ranks;
    b.slices = list.front().layout.slices;
    b.w_min = list.front().layout.w_min;
    std::vector<torch::Tensor> w, seen, g, ph, j, sj;
    for (const auto& sc : list) {
        if (sc.layout.ranks != b.ranks || sc.layout.slices != b.slices ||
            sc.layout.w_min != b.w_min) {
            throw std::invalid_argument("make_batch: scenarios must share P, S and w_min");
        }
        w.push_back(from_rows(sc.workload));
        seen.push_back(sc.estimate.rows > 0 ? from_rows(sc.estimate) : w.back());
        g.push_back(from_rows(sc.growth_events));
        ph.push_back(torch::tensor(sc.cycle_phase, kDouble));
        j.push_back(jitter_table(sc, b.ranks, 0));   // rank times
        sj.push_back(jitter_table(sc, b.slices, 1)); // per-slice workload
    }
    b.workload = torch::stack(w);
    b.seen = torch::stack(seen);
    b.growth_events = torch::stack(g);
    b.cycle_phase = torch::stack(ph);
    b.jitter = torch::stack(j);
    b.slice_jitter = torch::stack(sj);
    b.migration_cost = torch::zeros({b.batch()}, kDouble);
    return b;
}

ResidualGruImpl::ResidualGruImpl(std::int64_t hidden, std::int64_t features, BaseSpec spec)
    : hidden_size(hidden), feature_count(features), base(spec) {
    if (features != static_cast<std::int64_t>(controller::kRankTimeFeatureCount) &&
        features != static_cast<std::int64_t>(controller::kForecastFeatureCount) &&
        features != static_cast<std::int64_t>(controller::kCostFeatureCount)) {
        throw std::invalid_argument("the surrogate's controller reads 12, 16 or 18 features");
    }
    if (spec.forecast && features != static_cast<std::int64_t>(controller::kCostFeatureCount)) {
        throw std::invalid_argument("a forecast-base controller reads all 18 features");
    }
    cell = register_module("cell", torch::nn::GRUCell(torch::nn::GRUCellOptions(features, hidden)));
    head = register_module("head", torch::nn::Linear(hidden, spec.forecast ? 2 : 1));
    // Zero head: the untrained controller is exactly its base (reactive or holt).
    torch::NoGradGuard no_grad;
    head->weight.zero_();
    head->bias.zero_();
}

std::pair<torch::Tensor, torch::Tensor> ResidualGruImpl::forward(const torch::Tensor& features,
                                                                 const torch::Tensor& hidden) {
    torch::Tensor h = cell->forward(features, hidden);
    torch::Tensor y = head->forward(h);
    return {base.forecast ? y : y.squeeze(-1), h};
}

torch::Tensor soft_rank_times(const torch::Tensor& w, const torch::Tensor& b, double temperature) {
    const std::int64_t ranks = b.size(1) - 1;
    torch::Tensor cum = prefix(w);
    torch::Tensor total = cum.index({Slice(), Slice(-1, torch::indexing::None)});
    torch::Tensor f = torch::zeros({w.size(0), 1}, w.options());
    std::vector<torch::Tensor> parts{f};
    if (ranks > 1) {
        parts.push_back(soft_prefix(w, cum, b.index({Slice(), Slice(1, ranks)}), temperature));
    }
    parts.push_back(total);
    torch::Tensor all = torch::cat(parts, 1);
    return all.index({Slice(), Slice(1, torch::indexing::None)}) -
           all.index({Slice(), Slice(0, -1)});
}

torch::Tensor soft_reactive(const torch::Tensor& t, const torch::Tensor& b,
                            const controller::ReactiveParams& params, double ds_max,
                            double sharpness) {
    torch::Tensor n =
        b.index({Slice(), Slice(1, torch::indexing::None)}) - b.index({Slice(), Slice(0, -1)});
    torch::Tensor tl = t.index({Slice(), Slice(0, -1)});
    torch::Tensor tr = t.index({Slice(), Slice(1, torch::indexing::None)});
    torch::Tensor nl = n.index({Slice(), Slice(0, -1)});
    torch::Tensor nr = n.index({Slice(), Slice(1, torch::indexing::None)});
    // Idle ranks (empty slices of a recorded trace) give no information and no move,
    // as in the hard rule: every division is guarded so that no NaN reaches the
    // boundaries or the gradient.
    torch::Tensor mean = 0.5 * (tl + tr);
    torch::Tensor safe_mean = mean.clamp_min(1e-300);
    torch::Tensor zero = torch::zeros_like(mean);
    torch::Tensor imbalance = torch::where(mean > 0, (tr - tl) / safe_mean, zero);
    torch::Tensor gate = torch::sigmoid((imbalance.abs() - params.tau) / sharpness);
    torch::Tensor right_slower = torch::sigmoid((tr - tl) / (sharpness * safe_mean));
    // alpha N_slow |dT| / (2 T_slow), signed toward the slower rank.
    torch::Tensor ratio =
        torch::where(tr > 0, right_slower * nr / tr.clamp_min(1e-300), zero) +
        torch::where(tl > 0, (1.0 - right_slower) * nl / tl.clamp_min(1e-300), zero);
    torch::Tensor ds = gate * params.alpha * 0.5 * (tr - tl) * ratio;
    return ds.clamp(-ds_max, ds_max);
}

torch::Tensor soft_features(const torch::Tensor& t, const torch::Tensor& b, std::int64_t w_min,
                            double ds_max, const torch::Tensor& previous_moves,
                            const torch::Tensor& phase, const torch::Tensor& growth,
                            const torch::Tensor& reactive, const torch::Tensor& previous_imbalance,
                            const torch::Tensor& forecast_loads, const torch::Tensor& target,
                            const torch::Tensor& mu, double kappa) {
    const std::int64_t batch = t.size(0), ranks = t.size(1), k = ranks - 1;
    const std::int64_t slices = growth.size(1);
    const double mean_width = static_cast<double>(slices) / static_cast<double>(ranks);
    torch::Tensor n =
        b.index({Slice(), Slice(1, torch::indexing::None)}) - b.index({Slice(), Slice(0, -1)});
    torch::Tensor nl = n.index({Slice(), Slice(0, -1)});
    torch::Tensor nr = n.index({Slice(), Slice(1, torch::indexing::None)});
    torch::Tensor imbalance = local_imbalance(t);
    torch::Tensor global = global_imbalance(t).unsqueeze(1).expand({batch, k});
    torch::Tensor s = torch::sin(phase).unsqueeze(1).expand({batch, k});
    torch::Tensor c = torch::cos(phase).unsqueeze(1).expand({batch, k});

    // Growth events within the window around the (rounded) boundary.
    const std::int64_t h = controller::growth_window(slices, ranks);
    torch::Tensor cum = prefix(growth);
    torch::Tensor br = b.index({Slice(), Slice(1, ranks)}).detach().round().to(torch::kLong);
    torch::Tensor left = cum.gather(1, br) - cum.gather(1, (br - h).clamp(0, slices));
    torch::Tensor right = cum.gather(1, (br + h).clamp(0, slices)) - cum.gather(1, br);
    torch::Tensor g = (right - left) / (right + left).clamp_min(1.0);

    const double wm = static_cast<double>(w_min);
    // The forecast features: zero for the rank-time set (no forecast given).
    torch::Tensor zero = torch::zeros({batch, k}, kDouble);
    torch::Tensor offset = zero, heavy = zero, forecast_imbalance = zero, coarse = zero;
    if (forecast_loads.defined()) {
        torch::Tensor fl = forecast_loads.index({Slice(), Slice(0, -1)});
        torch::Tensor fr = forecast_loads.index({Slice(), Slice(1, torch::indexing::None)});
        torch::Tensor f_mean = forecast_loads.mean(1, /*keepdim=*/true);
        heavy = torch::where(
            f_mean > 0, (torch::max(fl, fr) / f_mean.clamp_min(1e-300) - 1.0) * mean_width, zero);
        offset = (target - b.index({Slice(), Slice(1, ranks)})) / ds_max;
        forecast_imbalance = local_imbalance(forecast_loads);
        coarse = torch::full({batch, k}, 1.0 / ds_max, kDouble);
    }
    // log10(max(mu, 1e-6) / reference) / 2, as controller::migration_cost_feature.
    torch::Tensor cost =
        (0.5 * torch::log10(mu.clamp_min(1e-6) / controller::kReferenceMigrationCost))
            .unsqueeze(1)
            .expand({batch, k});
    torch::Tensor rebalance = torch::full({batch, k}, kappa, kDouble);
    torch::Tensor x =
        torch::stack({imbalance, global, nl / mean_width, nr / mean_width, (nl - wm) / mean_width,
                      (nr - wm) / mean_width, previous_moves / ds_max, s, c, g, reactive / ds_max,
                      imbalance - previous_imbalance, offset, heavy, forecast_imbalance, coarse,
                      cost, rebalance},
                     -1);
    return clamp_features(x);
}

torch::Tensor forecast_base_moves(const torch::Tensor& outputs, const torch::Tensor& b,
                                  const torch::Tensor& target, std::int64_t w_min, bool round) {
    const std::int64_t ranks = b.size(1) - 1;
    const double slices = b.index({0, ranks}).item<double>();
    torch::Tensor cuts = b.index({Slice(), Slice(1, ranks)});
    torch::Tensor gain = 0.5 * controller::kGainMax *
                         (1.0 + torch::tanh(outputs.select(-1, 0) + controller::gain_offset()));
    torch::Tensor correction = controller::kCorrectionSlices * torch::tanh(outputs.select(-1, 1));
    torch::Tensor moves = gain * (target - cuts) + correction;
    if (round) {
        torch::Tensor rounded = torch::sign(moves) * torch::floor(moves.abs() + 0.5);
        moves = moves + (rounded - moves).detach();
    }
    // The monotone projection of controller::project_feasible.
    const double wm = static_cast<double>(w_min);
    torch::Tensor offset = torch::arange(1, ranks, kDouble) * wm;
    torch::Tensor u = (cuts + moves - offset).clamp(0.0, slices - static_cast<double>(ranks) * wm);
    u = std::get<0>(u.cummax(1));
    return u + offset - cuts;
}

torch::Tensor soft_interval_runtime(const torch::Tensor& w, const torch::Tensor& before,
                                    const torch::Tensor& after, const torch::Tensor& mu,
                                    double kappa, double temperature) {
    const std::int64_t ranks = after.size(1) - 1;
    torch::Tensor times = soft_rank_times(w, after, temperature);
    if (ranks < 2) {
        return std::get<0>(times.max(1));
    }
    torch::Tensor cum = prefix(w);
    torch::Tensor moved_load =
        (soft_prefix(w, cum, after.index({Slice(), Slice(1, ranks)}), temperature) -
         soft_prefix(w, cum, before.index({Slice(), Slice(1, ranks)}), temperature))
            .abs(); // [B, K]
    torch::Tensor zero = torch::zeros({w.size(0), 1}, w.options());
    torch::Tensor traffic = torch::cat({zero, moved_load}, 1) + torch::cat({moved_load, zero}, 1);
    torch::Tensor busy = times + mu.unsqueeze(1) * traffic;
    torch::Tensor moved = (after - before).abs().sum(1).clamp_max(1.0);
    return std::get<0>(busy.max(1)) + kappa * times.mean(1) * moved;
}

SoftLoopResult run_soft_loop(ResidualGru& model, const ScenarioBatch& batch,
                             const SoftLoopConfig& config) {
    const std::int64_t nb = batch.batch(), ranks = batch.ranks, k = ranks - 1;
    const std::int64_t slices = batch.slices, events = batch.events();
    const controller::Layout layout{slices, ranks, batch.w_min};
    const double ds_max = controller::ds_max_slices(layout, config.reactive);
    const double sharpness = 0.02 * config.temperature;

    // The hard loop's workload-aware initial partition of row 0.
    std::vector<torch::Tensor> initial;
    for (std::int64_t i = 0; i < nb; ++i) {
        torch::Tensor row = batch.workload.index({i, 0}).contiguous();
        std::vector<double> w(row.data_ptr<double>(), row.data_ptr<double>() + slices);
        controller::Boundaries b0 = controller::split_equal_load(w, layout);
        initial.push_back(torch::tensor(std::vector<double>(b0.begin(), b0.end()), kDouble));
    }
    torch::Tensor b = torch::stack(initial);
    torch::Tensor hidden =
        torch::zeros({nb * std::max<std::int64_t>(k, 1), model->hidden_size}, kDouble);
    torch::Tensor previous_moves = torch::zeros({nb, k}, kDouble);
    torch::Tensor previous_imbalance;
    // The smoothed per-slice forecast of the observed workload (no gradient: it does
    // not depend on the boundaries), one forecaster per scenario as in the rnn policy.
    std::vector<controller::HoltForecaster> forecasters(
        static_cast<std::size_t>(nb),
        controller::HoltForecaster(model->base.level_alpha, model->base.trend_beta));
    torch::Tensor seen_slices = batch.seen * batch.slice_jitter;

    SoftLoopResult out;
    torch::Tensor loss = torch::zeros({}, kDouble);
    out.imbalance = torch::zeros({nb}, kDouble);
    out.spread = torch::zeros({nb}, kDouble);
    out.migrated = torch::zeros({nb}, kDouble);
    out.excess_runtime = torch::zeros({nb}, kDouble);
    out.runtime = torch::zeros({nb}, kDouble);
    const torch::Tensor mu =
        batch.migration_cost.defined() ? batch.migration_cost : torch::zeros({nb}, kDouble);
    for (std::int64_t t = 1; t <= events; ++t) {
        const torch::Tensor before = b;
        torch::Tensor observed =
            soft_rank_times(batch.workload.index({Slice(), t - 1}), b, config.temperature) *
            batch.jitter.index({Slice(), t - 1});
        torch::Tensor moves = torch::zeros({nb, k}, kDouble);
        if (k > 0) {
            torch::Tensor reactive = soft_reactive(observed, b, config.reactive, ds_max, sharpness);
            torch::Tensor imbalance = local_imbalance(observed);
            if (!previous_imbalance.defined()) {
                previous_imbalance = imbalance; // no change is known at the first event
            }
            moves = reactive;
            if (config.use_controller) {
                const bool uses_forecast =
                    model->base.forecast ||
                    model->feature_count >
                        static_cast<std::int64_t>(controller::kRankTimeFeatureCount);
                std::vector<torch::Tensor> forecast, target;
                for (std::int64_t i = 0; uses_forecast && i < nb; ++i) {
                    torch::Tensor row = seen_slices.index({i, t - 1}).contiguous();
                    auto& fc = forecasters[static_cast<std::size_t>(i)];
                    fc.observe(std::vector<double>(row.data_ptr<double>(),
                                                   row.data_ptr<double>() + slices));
                    std::vector<double> f = fc.forecast();
                    controller::Boundaries split = controller::split_equal_load(f, layout);
                    forecast.push_back(torch::tensor(f, kDouble));
                    target.push_back(torch::tensor(
                        std::vector<double>(split.begin() + 1, split.end() - 1), kDouble));
                }
                torch::Tensor forecast_loads, target_split;
                if (uses_forecast) {
                    forecast_loads = soft_rank_times(torch::stack(forecast), b, config.temperature);
                    target_split = torch::stack(target);
                }
                torch::Tensor x = soft_features(observed, b, batch.w_min, ds_max, previous_moves,
                                                batch.cycle_phase.index({Slice(), t - 1}),
                                                batch.growth_events.index({Slice(), t - 1}),
                                                reactive, previous_imbalance, forecast_loads,
                                                target_split, mu, config.rebalance_cost)
                                      .index({"...", Slice(0, model->feature_count)});
                auto [output, h] =
                    model->forward(x.reshape({nb * k, model->feature_count}), hidden);
                hidden = h;
                if (model->base.forecast) {
                    moves = forecast_base_moves(output.view({nb, k, 2}), b, target_split,
                                                batch.w_min, config.round_moves);
                } else {
                    torch::Tensor ratio =
                        (reactive / ds_max).clamp(-controller::kAtanhClip, controller::kAtanhClip);
                    moves = ds_max * torch::tanh(torch::atanh(ratio) + output.view({nb, k}));
                }
            }
            const bool projected = config.use_controller && model->base.forecast;
            if (!projected) {
                // Each move takes at most half the slack of the rank it moves into: two
                // boundaries squeezing one rank can then never push it below w_min.
                torch::Tensor n = b.index({Slice(), Slice(1, torch::indexing::None)}) -
                                  b.index({Slice(), Slice(0, -1)});
                torch::Tensor slack = (n - static_cast<double>(batch.w_min)).clamp_min(0.0);
                torch::Tensor lo = -0.5 * slack.index({Slice(), Slice(0, -1)});
                torch::Tensor hi = 0.5 * slack.index({Slice(), Slice(1, torch::indexing::None)});
                if (config.round_moves) {
                    // Whole slices: boundaries stay integers, so the half-slack limits
                    // are floored to whole slices and the rounded moves stay feasible.
                    lo = -torch::floor(-lo);
                    hi = torch::floor(hi);
                }
                moves = torch::max(torch::min(moves, hi), lo);
                if (config.round_moves) {
                    // Halves away from zero, like the hard loop's llround.
                    torch::Tensor rounded = torch::sign(moves) * torch::floor(moves.abs() + 0.5);
                    moves = moves + (rounded - moves).detach();
                }
            }
            b = torch::cat({b.index({Slice(), Slice(0, 1)}),
                            b.index({Slice(), Slice(1, ranks)}) + moves,
                            b.index({Slice(), Slice(ranks, torch::indexing::None)})},
                           1);
            previous_moves = moves;
            previous_imbalance = imbalance;
        }
        out.boundaries.push_back(b);
        torch::Tensor truth =
            soft_rank_times(batch.workload.index({Slice(), t}), b, config.temperature);
        torch::Tensor g = global_imbalance(truth);
        torch::Tensor truth_mean = truth.mean(1).clamp_min(1e-300); // an idle row: 0, not NaN
        torch::Tensor spread = truth.std(1, /*unbiased=*/false) / truth_mean;
        torch::Tensor migrated = moves.abs().sum(1);
        torch::Tensor interval =
            soft_interval_runtime(batch.workload.index({Slice(), t}), before, b, mu,
                                  config.rebalance_cost, config.temperature);
        torch::Tensor excess = interval / truth_mean - 1.0;
        out.runtime = out.runtime + interval;
        if (config.objective == Objective::Runtime) {
            loss = loss + (excess + config.spread_weight * spread).mean();
        } else {
            loss = loss + (g + config.spread_weight * spread + config.lambda * migrated).mean();
        }
        out.excess_runtime = out.excess_runtime + excess;
        out.imbalance = out.imbalance + g;
        out.spread = out.spread + spread;
        out.migrated = out.migrated + migrated;
    }
    out.loss = loss / static_cast<double>(events);
    out.imbalance = out.imbalance / static_cast<double>(events);
    out.spread = out.spread / static_cast<double>(events);
    out.excess_runtime = out.excess_runtime / static_cast<double>(events);
    return out;
}

} // namespace cellshift::surrogate
