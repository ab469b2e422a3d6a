#include "train.hpp"

#include "scenario_sampler.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/error.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/scenarios/counter_rng.hpp"
#include "cellshift/scenarios/seeds.hpp"
#include "cellshift/surrogate/export.hpp"
#include "cellshift/surrogate/soft_loop.hpp"
#include "cellshift/version.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace cellshift::trainer {
namespace {

// One tensor batch (P, S and w_min shared) of the step's scenarios.
surrogate::ScenarioBatch sample_batch(const TrainConfig& c, const std::vector<data::Trace>& traces,
                                      std::uint64_t base, std::uint64_t index, std::int64_t count) {
    SampledScenarios sampled = sample_scenarios(c, traces, base, index, count);
    surrogate::ScenarioBatch batch = surrogate::make_batch(sampled.scenarios);
    batch.migration_cost = torch::tensor(sampled.migration_cost, torch::kFloat64);
    return batch;
}

// The rollout settings of a step (training) or of validation.
surrogate::SoftLoopConfig loop_config(const TrainConfig& c, double temperature, bool rounded) {
    surrogate::SoftLoopConfig loop{temperature, c.lambda, c.reactive, true};
    loop.spread_weight = c.spread_weight;
    loop.round_moves = rounded;
    loop.objective =
        c.objective == "loss" ? surrogate::Objective::Loss : surrogate::Objective::Runtime;
    loop.rebalance_cost = c.rebalance_cost;
    return loop;
}

double cosine_lr(const TrainConfig& c, std::int64_t step) {
    const double progress = static_cast<double>(step) / static_cast<double>(c.steps);
    return c.lr_min + 0.5 * (c.lr - c.lr_min) * (1.0 + std::cos(M_PI * progress));
}

double temperature(const TrainConfig& c, std::int64_t step) {
    const double progress =
        c.steps > 1 ? static_cast<double>(step) / static_cast<double>(c.steps - 1) : 1.0;
    return c.temperature_start *
           std::pow(c.temperature_end / c.temperature_start, std::min(1.0, progress));
}

constexpr double kValidationTemperature = 0.05;

// The validation objective: the loss of the soft loop at the final temperature
// on fixed validation scenarios (one batch per P drawn for them).
// The rollout's loss; for the relative objective, each scenario's runtime over the
// base's (`base` has a zero head: it is the base proposal exactly), averaged.
torch::Tensor objective(surrogate::ResidualGru& model, surrogate::ResidualGru& base,
                        const TrainConfig& c, const surrogate::ScenarioBatch& batch,
                        const surrogate::SoftLoopConfig& loop, surrogate::SoftLoopResult* out) {
    surrogate::SoftLoopResult r = surrogate::run_soft_loop(model, batch, loop);
    torch::Tensor loss = r.loss;
    if (c.objective == "relative") {
        torch::Tensor reference;
        {
            torch::NoGradGuard no_grad;
            reference = surrogate::run_soft_loop(base, batch, loop).runtime;
        }
        loss = (r.runtime / reference.clamp_min(1e-300)).mean();
    }
    if (out != nullptr) {
        *out = std::move(r);
    }
    return loss;
}

double validate_model(surrogate::ResidualGru& model, surrogate::ResidualGru& base,
                      const TrainConfig& c, const std::vector<surrogate::ScenarioBatch>& batches) {
    torch::NoGradGuard no_grad;
    // Validation uses the deployed arithmetic by default: whole-slice moves, and a
    // temperature at which the soft loop is the hard one (at most 0.05 slices, even
    // when training stops annealing at a warmer one).
    const surrogate::SoftLoopConfig loop =
        loop_config(c, std::min(c.temperature_end, kValidationTemperature), c.validate_rounded);
    double total = 0.0;
    for (const auto& b : batches) {
        total += objective(model, base, c, b, loop, nullptr).item<double>();
    }
    return total / static_cast<double>(batches.size());
}

struct Checkpoint {
    std::int64_t step = 0;
    double best_validation = 0.0;
    double initial_validation = 0.0;
    std::vector<double> history;
};

void save_checkpoint(const std::string& path, surrogate::ResidualGru& model,
                     surrogate::ResidualGru& best, torch::optim::Adam& optimizer,
                     const Checkpoint& state) {
    torch::serialize::OutputArchive archive, m, b, o;
    model->save(m);
    best->save(b);
    optimizer.save(o);
    archive.write("model", m);
    archive.write("best", b);
    archive.write("optimizer", o);
    archive.write("step", torch::tensor(state.step));
    archive.write("best_validation", torch::tensor(state.best_validation, torch::kFloat64));
    archive.write("initial_validation", torch::tensor(state.initial_validation, torch::kFloat64));
    archive.write("history", torch::tensor(state.history, torch::kFloat64));
    data::AtomicFile out(path);
    archive.save_to(out.temp_path());
    out.commit();
}

Checkpoint load_checkpoint(const std::string& path, surrogate::ResidualGru& model,
                           surrogate::ResidualGru& best, torch::optim::Adam& optimizer) {
    if (!std::filesystem::exists(path)) {
        data::fail(path, "no such checkpoint (--resume needs an existing --checkpoint)");
    }
    torch::serialize::InputArchive archive, m, b, o;
    try {
        archive.load_from(path);
        archive.read("model", m);
        archive.read("best", b);
        archive.read("optimizer", o);
        model->load(m);
        best->load(b);
        optimizer.load(o);
        Checkpoint state;
        auto read = [&](const char* key) {
            torch::Tensor t; // a fresh tensor per key: read() keeps an existing dtype
            archive.read(key, t);
            return t.contiguous();
        };
        state.step = read("step").item<std::int64_t>();
        state.best_validation = read("best_validation").item<double>();
        state.initial_validation = read("initial_validation").item<double>();
        torch::Tensor history = read("history");
        state.history.assign(history.data_ptr<double>(),
                             history.data_ptr<double>() + history.numel());
        return state;
    } catch (const c10::Error& e) {
        std::string what = e.what_without_backtrace();
        data::fail(path, "not a cellshift-train checkpoint, or truncated (" +
                             what.substr(0, what.find('\n')) + ")");
    }
}

void copy_parameters(surrogate::ResidualGru& from, surrogate::ResidualGru& to) {
    torch::NoGradGuard no_grad;
    auto src = from->parameters();
    auto dst = to->parameters();
    for (std::size_t i = 0; i < src.size(); ++i) {
        dst[i].copy_(src[i]);
    }
}

} // namespace

TrainResult train(const TrainConfig& c, const std::string& config_text,
                  const std::function<void(const StepReport&)>& progress) {
    validate(c);
    torch::set_num_threads(c.threads);
    torch::manual_seed(c.seed);
    surrogate::BaseSpec base;
    if (c.base == "forecast") {
        base = {true, c.base_level_alpha, c.base_trend_beta};
    }
    surrogate::ResidualGru model(c.hidden, c.features, base);
    model->to(torch::kFloat64);
    surrogate::ResidualGru best(c.hidden, c.features, base);
    best->to(torch::kFloat64);
    // The base itself, for the relative objective: a fresh model's head is zero.
    surrogate::ResidualGru reference(c.hidden, c.features, base);
    reference->to(torch::kFloat64);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(c.lr));

    const std::vector<data::Trace> traces = read_traces(c.traces);
    const std::vector<data::Trace> validation_traces = read_traces(c.validation_traces);
    // Fixed validation batches on the validation seed range (and validation traces).
    std::vector<surrogate::ScenarioBatch> validation;
    for (std::int64_t i = 0; i < std::max<std::int64_t>(1, c.validation_count / 4); ++i) {
        validation.push_back(sample_batch(c, validation_traces, scenarios::kValidationSeedBase,
                                          static_cast<std::uint64_t>(1000000 + i),
                                          std::min<std::int64_t>(4, c.validation_count)));
    }

    Checkpoint state;
    if (c.resume) {
        state = load_checkpoint(c.checkpoint, model, best, optimizer);
    } else {
        state.initial_validation = validate_model(model, reference, c, validation);
        state.best_validation = state.initial_validation;
        copy_parameters(model, best);
    }
    const auto start = std::chrono::steady_clock::now();
    std::int64_t last = c.stop_after >= 0 ? std::min(c.steps, c.stop_after) : c.steps;
    for (std::int64_t step = state.step; step < last; ++step) {
        const double lr = cosine_lr(c, step);
        for (auto& group : optimizer.param_groups()) {
            static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
        }
        const double temp = temperature(c, step);
        surrogate::ScenarioBatch batch = sample_batch(c, traces, scenarios::kTrainingSeedBase,
                                                      static_cast<std::uint64_t>(step), c.batch);
        const surrogate::SoftLoopConfig loop = loop_config(c, temp, c.round_moves);
        optimizer.zero_grad();
        surrogate::SoftLoopResult r;
        torch::Tensor loss = objective(model, reference, c, batch, loop, &r);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(model->parameters(), c.grad_clip);
        optimizer.step();

        StepReport report;
        report.step = step + 1;
        report.loss = loss.item<double>();
        report.imbalance = r.imbalance.mean().item<double>();
        report.migrated = r.migrated.mean().item<double>();
        report.temperature = temp;
        report.lr = lr;
        state.history.push_back(report.loss);
        if ((step + 1) % c.validate_every == 0 || step + 1 == c.steps) {
            report.validation = validate_model(model, reference, c, validation);
            if (report.validation < state.best_validation) {
                state.best_validation = report.validation;
                copy_parameters(model, best);
            }
        }
        state.step = step + 1;
        report.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (progress) {
            progress(report);
        }
        if (!c.checkpoint.empty() && ((step + 1) % c.checkpoint_every == 0 || step + 1 == last)) {
            save_checkpoint(c.checkpoint, model, best, optimizer, state);
        }
    }

    data::TrainingProvenance provenance;
    provenance.seed = c.seed;
    provenance.steps = state.step;
    provenance.lambda = c.lambda;
    provenance.commit = CELLSHIFT_GIT_COMMIT;
    provenance.config = config_text;
    provenance.loss_history = state.history;
    TrainResult result;
    result.best = surrogate::to_controller(best, c.reactive, provenance);
    result.best_validation = state.best_validation;
    result.initial_validation = state.initial_validation;
    result.steps_done = state.step;
    return result;
}

} // namespace cellshift::trainer
