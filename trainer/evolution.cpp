#include "evolution.hpp"

#include "scenario_sampler.hpp"

#include "cellshift/controller/features.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/controller/rnn_policy.hpp"
#include "cellshift/eval/comparison.hpp"
#include "cellshift/eval/parallel_for.hpp"
#include "cellshift/eval/rollout.hpp"
#include "cellshift/scenarios/counter_rng.hpp"
#include "cellshift/scenarios/seeds.hpp"
#include "cellshift/version.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cellshift::trainer {
namespace {

// One number ES perturbs: theta = value / scale, and value = clamp(theta x scale) on use.
// A scale below 1 gives a constant with a narrow range (a Holt smoothing constant in
// [0, 1]) a step the shared --es-sigma suits; the clamp keeps every member valid.
struct TrainedValue {
    double* value;
    double scale = 1.0;
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
};

// The Holt constants' step relative to the head's numbers: sigma 0.5 perturbs them by
// 0.05, about the distance at which the selection figures start to move.
constexpr double kForecastConstantScale = 0.1;

// The numbers ES perturbs: "all" (GRU and head), "head" (the seeded GRU's state
// as fixed features), "blend" (the blend base's third head row alone, skip
// connection included: which forecast to aim at, the lever with the largest effect;
// gain and correction stay at holt's full move), "cost" (that row's bias and its
// skip weights on the two cost features: three numbers), "cost-all" (the same
// for each of the gain, correction and blend rows: nine) or "cost-forecast" ("cost"
// and the Holt constants of both forecasters, which the gate judges every move by:
// seven). Fewer dimensions: a gradient estimate that a few pairs resolve.
std::vector<TrainedValue> trained_values(data::Controller& c, const std::string& which) {
    std::vector<std::vector<double>*> blocks{&c.weight_ih.values,
                                             &c.weight_hh.values,
                                             &c.bias_ih,
                                             &c.bias_hh,
                                             &c.head_weight.values,
                                             &c.head_bias,
                                             &c.head_input_weight.values};
    std::vector<TrainedValue> values;
    if (which == "cost" || which == "cost-all" || which == "cost-forecast") {
        // The blend weight ("cost", "cost-forecast"), or gain, correction and blend
        // ("cost-all"), as functions of the host's costs alone.
        const std::size_t first_row = which == "cost-all" ? 0 : 2;
        for (std::size_t row = first_row; row < 3; ++row) {
            values.push_back({&c.head_bias[row]});
            for (std::size_t f = controller::kForecastFeatureCount; f < c.head_input_weight.cols;
                 ++f) {
                values.push_back({&c.head_input_weight(row, f)});
            }
        }
        if (which == "cost-forecast") {
            // Level smoothing must stay above 0 (data::validate); trend smoothing may be 0.
            values.push_back({&c.forecast_level_alpha, kForecastConstantScale, 0.05, 1.0});
            values.push_back({&c.forecast_trend_beta, kForecastConstantScale, 0.0, 1.0});
            values.push_back({&c.fast_level_alpha, kForecastConstantScale, 0.05, 1.0});
            values.push_back({&c.fast_trend_beta, kForecastConstantScale, 0.0, 1.0});
        }
        return values;
    }
    if (which == "blend") {
        double* row = c.head_weight.row(2);
        for (std::size_t h = 0; h < c.head_weight.cols; ++h) {
            values.push_back({row + h});
        }
        values.push_back({&c.head_bias[2]});
        if (!c.head_input_weight.values.empty()) {
            double* skip = c.head_input_weight.row(2);
            for (std::size_t f = 0; f < c.head_input_weight.cols; ++f) {
                values.push_back({skip + f});
            }
        }
        return values;
    }
    if (which == "head") {
        blocks.erase(blocks.begin(), blocks.end() - 3);
    }
    for (auto* block : blocks) {
        for (double& v : *block) {
            values.push_back({&v});
        }
    }
    return values;
}

std::vector<double> flatten(data::Controller c, const std::string& which) {
    std::vector<double> theta;
    for (const TrainedValue& v : trained_values(c, which)) {
        theta.push_back(*v.value / v.scale);
    }
    return theta;
}

data::Controller with_parameters(data::Controller c, const std::string& which,
                                 const std::vector<double>& theta) {
    std::size_t at = 0;
    for (const TrainedValue& v : trained_values(c, which)) {
        *v.value = std::clamp(theta[at++] * v.scale, v.low, v.high);
    }
    return c;
}

// A workload with its own migration cost: what one rollout needs.
struct Workload {
    scenarios::Scenario scenario;
    eval::MigrationCost cost;
};

std::vector<Workload> workloads_of(SampledScenarios sampled, double kappa) {
    std::vector<Workload> list;
    for (std::size_t i = 0; i < sampled.scenarios.size(); ++i) {
        list.push_back({std::move(sampled.scenarios[i]), {sampled.migration_cost[i], kappa}});
    }
    return list;
}

struct Outcome {
    double runtime = 0.0, imbalance = 0.0, migrated = 0.0;
};

Outcome roll(const data::Controller& controller, const Workload& w) {
    auto policy = controller::make_rnn_policy(controller);
    const eval::WorkloadHistory h = eval::scenario_history(w.scenario);
    const eval::RolloutSummary s =
        eval::run_rollout(*policy, "rnn", w.scenario.layout, h, false, w.cost).summary;
    return {s.runtime, s.mean_imbalance, static_cast<double>(s.migrated)};
}

// Runtimes of the zero-head base on each workload: the denominators of f.
std::vector<double> base_runtimes(const data::Controller& base, const std::vector<Workload>& list,
                                  int threads) {
    std::vector<double> runtime(list.size());
    eval::parallel_for(list.size(), threads,
                       [&](std::size_t i) { runtime[i] = roll(base, list[i]).runtime; });
    return runtime;
}

// f for every controller on every workload: mean over workloads of runtime / base.
struct Scores {
    std::vector<double> relative; // per controller
    double imbalance = 0.0;       // mean over every rollout
    double migrated = 0.0;
};

Scores score(const std::vector<data::Controller>& controllers, const std::vector<Workload>& list,
             const std::vector<double>& base, int threads) {
    const std::size_t n = list.size();
    std::vector<Outcome> out(controllers.size() * n);
    eval::parallel_for(out.size(), threads,
                       [&](std::size_t k) { out[k] = roll(controllers[k / n], list[k % n]); });
    Scores s;
    s.relative.assign(controllers.size(), 0.0);
    for (std::size_t k = 0; k < out.size(); ++k) {
        const double b = base[k % n];
        s.relative[k / n] += b > 0.0 ? out[k].runtime / b : 1.0;
        s.imbalance += out[k].imbalance / static_cast<double>(out.size());
        s.migrated += out[k].migrated / static_cast<double>(out.size());
    }
    for (double& f : s.relative) {
        f /= static_cast<double>(n); // after the sum: the base scores exactly 1
    }
    return s;
}

double cosine(const TrainConfig& c, std::int64_t step) {
    const double progress = static_cast<double>(step) / static_cast<double>(c.steps);
    return c.lr_min + 0.5 * (c.lr - c.lr_min) * (1.0 + std::cos(M_PI * progress));
}

// The zero-head start: the base exactly (rnn_policy.hpp's untrained controllers).
data::Controller start_controller(const TrainConfig& c) {
    if (c.base == "blend" || c.base == "forecast") {
        data::Controller start =
            c.base == "blend"
                ? controller::untrained_blend_controller(c.base_level_alpha, c.base_trend_beta,
                                                         c.fast_level_alpha, c.fast_trend_beta,
                                                         static_cast<std::size_t>(c.hidden), c.seed)
                : controller::untrained_forecast_controller(c.base_level_alpha, c.base_trend_beta,
                                                            static_cast<std::size_t>(c.hidden),
                                                            c.seed);
        start.hold_horizon = c.hold_horizon;
        start.calibration_keep = c.calibration_keep;
        start.refine_split = c.refine_split;
        return start;
    }
    return controller::untrained_controller(c.reactive, static_cast<std::size_t>(c.hidden), c.seed,
                                            static_cast<std::size_t>(c.features));
}

} // namespace

TrainResult train_evolution(const TrainConfig& c, const std::string& config_text,
                            const std::function<void(const StepReport&)>& progress) {
    validate(c);
    const data::Controller base = start_controller(c);
    std::vector<double> theta = flatten(base, c.es_parameters);
    const std::size_t dims = theta.size();

    const std::vector<data::Trace> traces = read_traces(c.traces);
    const std::vector<data::Trace> validation_traces = read_traces(c.validation_traces);
    // Fixed validation workloads, one per draw, so that they span P, families and traces.
    std::vector<Workload> validation;
    for (std::int64_t i = 0; i < c.validation_count; ++i) {
        for (auto& w :
             workloads_of(sample_scenarios(c, validation_traces, scenarios::kValidationSeedBase,
                                           static_cast<std::uint64_t>(1000000 + i), 1),
                          c.rebalance_cost)) {
            validation.push_back(std::move(w));
        }
    }
    const std::vector<double> validation_base = base_runtimes(base, validation, c.threads);
    auto validate_theta = [&](const std::vector<double>& t) {
        return score({with_parameters(base, c.es_parameters, t)}, validation, validation_base,
                     c.threads)
            .relative[0];
    };

    TrainResult result;
    result.best = base;
    result.initial_validation = validate_theta(theta);
    result.best_validation = result.initial_validation;
    std::vector<double> m(dims, 0.0), v(dims, 0.0), history;
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    const auto pairs = static_cast<std::size_t>(c.es_pairs);
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t step = 0; step < c.steps; ++step) {
        // The step's workloads: `batch` independent draws (each its own P and source).
        std::vector<Workload> batch;
        for (std::int64_t i = 0; i < c.batch; ++i) {
            for (auto& w :
                 workloads_of(sample_scenarios(c, traces, scenarios::kTrainingSeedBase,
                                               static_cast<std::uint64_t>(step * c.batch + i), 1),
                              c.rebalance_cost)) {
                batch.push_back(std::move(w));
            }
        }
        const std::vector<double> batch_base = base_runtimes(base, batch, c.threads);
        // Antithetic perturbations, counter-based (reproducible for any thread count).
        std::vector<std::vector<double>> noise(pairs, std::vector<double>(dims));
        std::vector<data::Controller> members;
        for (std::size_t j = 0; j < pairs; ++j) {
            const std::uint64_t key =
                scenarios::mix64(c.seed * 0x2545F4914F6CDD1DULL + static_cast<std::uint64_t>(step));
            std::vector<double> plus = theta, minus = theta;
            for (std::size_t d = 0; d < dims; ++d) {
                noise[j][d] = scenarios::counter_normal(key, 11, j, d);
                plus[d] += c.es_sigma * noise[j][d];
                minus[d] -= c.es_sigma * noise[j][d];
            }
            members.push_back(with_parameters(base, c.es_parameters, plus));
            members.push_back(with_parameters(base, c.es_parameters, minus));
        }
        const Scores s = score(members, batch, batch_base, c.threads);
        std::vector<double> gradient(dims, 0.0);
        double mean = 0.0;
        for (std::size_t j = 0; j < pairs; ++j) {
            const double difference = s.relative[2 * j] - s.relative[2 * j + 1];
            mean += (s.relative[2 * j] + s.relative[2 * j + 1]) / static_cast<double>(2 * pairs);
            for (std::size_t d = 0; d < dims; ++d) {
                gradient[d] +=
                    difference * noise[j][d] / (2.0 * c.es_sigma * static_cast<double>(pairs));
            }
        }
        const double lr = cosine(c, step);
        const double t = static_cast<double>(step + 1);
        for (std::size_t d = 0; d < dims; ++d) {
            m[d] = beta1 * m[d] + (1 - beta1) * gradient[d];
            v[d] = beta2 * v[d] + (1 - beta2) * gradient[d] * gradient[d];
            const double mh = m[d] / (1 - std::pow(beta1, t));
            const double vh = v[d] / (1 - std::pow(beta2, t));
            theta[d] -= lr * mh / (std::sqrt(vh) + eps);
        }
        history.push_back(mean);

        StepReport report;
        report.step = step + 1;
        report.loss = mean;
        report.imbalance = s.imbalance;
        report.migrated = s.migrated;
        report.lr = lr;
        if ((step + 1) % c.validate_every == 0 || step + 1 == c.steps) {
            report.validation = validate_theta(theta);
            if (report.validation < result.best_validation) {
                result.best_validation = report.validation;
                result.best = with_parameters(base, c.es_parameters, theta);
            }
        }
        report.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (progress) {
            progress(report);
        }
    }
    result.steps_done = c.steps;
    result.best.training.seed = c.seed;
    result.best.training.steps = c.steps;
    result.best.training.lambda = c.lambda;
    result.best.training.commit = CELLSHIFT_GIT_COMMIT;
    result.best.training.config = config_text;
    result.best.training.loss_history = history;
    return result;
}

} // namespace cellshift::trainer
