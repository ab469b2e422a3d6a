// The LibTorch surrogate against the hard loop of controller/ (its independent
// truth), finite differences, and the trainer's resume determinism.

#include "../support/temp_dir.hpp"
#include "cellshift/controller/features.hpp"
#include "cellshift/controller/gru.hpp"
#include "cellshift/controller/holt.hpp"
#include "cellshift/controller/partition.hpp"
#include "cellshift/controller/reactive.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/controller/rnn_policy.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/eval/comparison.hpp"
#include "cellshift/eval/metrics.hpp"
#include "cellshift/eval/rollout.hpp"
#include "cellshift/scenarios/scenario.hpp"
#include "cellshift/scenarios/seeds.hpp"
#include "cellshift/surrogate/export.hpp"
#include "cellshift/surrogate/soft_loop.hpp"
#include "evolution.hpp"
#include "scenario_sampler.hpp"
#include "train.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <random>

using namespace cellshift;

namespace {

const auto kDouble = torch::TensorOptions().dtype(torch::kFloat64);

scenarios::Scenario scenario(std::int64_t ranks, std::uint64_t index, std::int64_t events = 10) {
    scenarios::ScenarioConfig config;
    config.ranks = ranks;
    config.events = events;
    return scenarios::generate_scenario(config, scenarios::evaluation_seed(index));
}

torch::Tensor as_tensor(const std::vector<double>& v) {
    return torch::tensor(v, kDouble);
}

torch::Tensor as_tensor(const controller::Boundaries& b) {
    return torch::tensor(std::vector<double>(b.begin(), b.end()), kDouble);
}

std::vector<double> as_vector(const torch::Tensor& t) {
    torch::Tensor c = t.contiguous();
    return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

// A double-precision controller with a random, non-zero head (so the residual
// matters), seeded.
surrogate::ResidualGru model_with_head(std::uint64_t seed, double head_sd, double head_bias,
                                       std::int64_t features = controller::kCostFeatureCount) {
    torch::manual_seed(seed);
    surrogate::ResidualGru model(24, features);
    model->to(torch::kFloat64);
    torch::NoGradGuard no_grad;
    model->head->weight.normal_(0.0, head_sd);
    model->head->bias.fill_(head_bias);
    return model;
}

// What a hard-loop policy observes at event t: the jittered rank times of interval
// t-1 under `b`, its growth events and cycle phase (as eval/rollout.cpp builds it).
controller::Observation observe(const scenarios::Scenario& sc, std::int64_t t,
                                const controller::Boundaries& b) {
    controller::Observation o;
    o.rank_times = controller::rank_sums(sc.row(t - 1), b);
    for (std::size_t p = 0; p < o.rank_times.size(); ++p) {
        o.rank_times[p] *= scenarios::jitter_factor(sc, t - 1, static_cast<std::int64_t>(p), 0);
    }
    o.slice_workload = sc.row(t - 1);
    for (std::size_t s = 0; s < o.slice_workload.size(); ++s) {
        o.slice_workload[s] *= scenarios::jitter_factor(sc, t - 1, static_cast<std::int64_t>(s), 1);
    }
    o.growth_events = sc.growth_row(t - 1);
    o.cycle_phase = sc.cycle_phase[static_cast<std::size_t>(t - 1)];
    o.migration_cost = 0.0; // make_batch's mu
    return o;
}

// A small ES run on cheap moving fronts and point growth, where moves pay.
trainer::TrainConfig small_es_config(const std::string& parameters) {
    trainer::TrainConfig c;
    c.optimiser = "es";
    c.objective = "relative";
    c.base = "blend";
    c.es_parameters = parameters;
    c.features = 18;
    c.hidden = 8;
    c.families = {"front", "point"};
    c.min_ranks = 4;
    c.max_ranks = 16;
    c.events = 20;
    c.steps = 12;
    c.batch = 6;
    c.es_pairs = 6;
    c.es_sigma = 0.5;
    c.lr = 0.1;
    c.validate_every = 4;
    c.validation_count = 6;
    c.migration_cost_min = 1e-3;
    c.migration_cost_max = 1e-2;
    return c;
}

// The validation score recomputed independently of the trainer: the registry's holt
// at the start's constants as the denominator, the Eigen rnn policy from the kept
// controller as the numerator.
double recomputed_validation(const trainer::TrainConfig& c, const data::Controller& kept) {
    double total = 0.0;
    for (std::int64_t i = 0; i < c.validation_count; ++i) {
        auto sampled = trainer::sample_scenarios(c, {}, scenarios::kValidationSeedBase,
                                                 static_cast<std::uint64_t>(1000000 + i), 1);
        const scenarios::Scenario& sc = sampled.scenarios[0];
        const eval::MigrationCost cost{sampled.migration_cost[0], 0.0};
        const eval::WorkloadHistory h = eval::scenario_history(sc);
        controller::PolicySettings holt;
        holt.overrides = {{"level_alpha", c.base_level_alpha}, {"trend_beta", c.base_trend_beta}};
        auto base = controller::make_policy("holt", holt);
        auto learned = controller::make_rnn_policy(kept);
        const double b =
            eval::run_rollout(*base, "holt", sc.layout, h, false, cost).summary.runtime;
        const double l =
            eval::run_rollout(*learned, "rnn", sc.layout, h, false, cost).summary.runtime;
        total += l / b;
    }
    return total / static_cast<double>(c.validation_count);
}

} // namespace

TEST_CASE("soft loop: at low temperature the rank times are the hard loop's", "[surrogate]") {
    auto sc = scenario(8, 1);
    std::vector<double> w = sc.row(3);
    controller::Boundaries b = controller::split_equal_load(w, sc.layout);
    b[3] += 2; // not the equal split: any integer boundaries
    std::vector<double> hard = controller::rank_sums(w, b);
    torch::Tensor soft =
        surrogate::soft_rank_times(as_tensor(w).unsqueeze(0), as_tensor(b).unsqueeze(0), 0.01);
    std::vector<double> s = as_vector(soft);
    for (std::size_t p = 0; p < hard.size(); ++p) {
        CHECK(s[p] == Approx(hard[p]).epsilon(1e-12)); // sig(50) = 1 - 2e-22
    }
    // Warm: the times still add up to the total work (ownership is a partition of unity).
    torch::Tensor warm =
        surrogate::soft_rank_times(as_tensor(w).unsqueeze(0), as_tensor(b).unsqueeze(0), 2.0);
    double total = 0.0;
    for (double x : w) {
        total += x;
    }
    CHECK(warm.sum().item<double>() == Approx(total).epsilon(1e-12));
}

TEST_CASE("soft loop: features and reactive proposal equal the Eigen controller's", "[surrogate]") {
    auto sc = scenario(6, 2);
    std::vector<double> w = sc.row(4);
    controller::Boundaries b = controller::split_equal_load(sc.row(0), sc.layout);
    std::vector<double> times = controller::rank_sums(w, b);
    for (std::size_t p = 0; p < times.size(); ++p) {
        times[p] *= scenarios::jitter_factor(sc, 4, static_cast<std::int64_t>(p), 0);
    }
    controller::ReactiveParams params{0.6, 0.01, 0.3};
    const double ds_max = controller::ds_max_slices(sc.layout, params);
    std::vector<double> reactive = controller::reactive_proposals(times, b, params, ds_max);
    std::vector<double> previous_moves{0.5, -1.0, 0.0, 2.0, -0.25};
    std::vector<double> previous_imbalance{0.1, -0.05, 0.0, 0.2, 0.01};
    std::vector<double> growth = sc.growth_row(4);
    growth[static_cast<std::size_t>(b[2])] += 3.0; // make the growth feature non-trivial
    controller::FeatureInputs in;
    in.rank_times = &times;
    in.boundaries = &b;
    in.w_min = sc.layout.w_min;
    in.ds_max = ds_max;
    in.previous_moves = &previous_moves;
    in.cycle_phase = sc.cycle_phase[4];
    in.growth_events = &growth;
    in.reactive = &reactive;
    in.previous_local_imbalance = &previous_imbalance;
    // A forecast that differs from the observed rank times: two smoothed rows.
    controller::HoltForecaster holt(controller::kForecastLevelAlpha,
                                    controller::kForecastTrendBeta);
    holt.observe(sc.row(1));
    holt.observe(w);
    std::vector<double> forecast = holt.forecast();
    controller::Boundaries target = controller::split_equal_load(forecast, sc.layout);
    std::vector<double> loads = controller::rank_sums(forecast, b);
    in.forecast_loads = &loads;
    in.forecast_target = &target;
    in.migration_cost = 0.1;
    in.rebalance_cost = 0.05;
    Eigen::MatrixXd eigen = controller::compute_features(in);

    torch::Tensor tt = as_tensor(times).unsqueeze(0);
    torch::Tensor tb = as_tensor(b).unsqueeze(0);
    torch::Tensor soft_reactive = surrogate::soft_reactive(tt, tb, params, ds_max, 1e-9);
    std::vector<double> sr = as_vector(soft_reactive);
    for (std::size_t k = 0; k < reactive.size(); ++k) {
        CHECK(sr[k] == Approx(reactive[k]).margin(1e-12));
    }
    torch::Tensor x = surrogate::soft_features(
        tt, tb, sc.layout.w_min, ds_max, as_tensor(previous_moves).unsqueeze(0),
        torch::tensor({sc.cycle_phase[4]}, kDouble), as_tensor(growth).unsqueeze(0),
        as_tensor(reactive).unsqueeze(0), as_tensor(previous_imbalance).unsqueeze(0),
        as_tensor(loads).unsqueeze(0),
        as_tensor(std::vector<double>(target.begin() + 1, target.end() - 1)).unsqueeze(0),
        torch::tensor({0.1}, kDouble), 0.05);
    REQUIRE(x.size(1) == eigen.cols());
    REQUIRE(x.size(2) == eigen.rows());
    auto a = x.accessor<double, 3>();
    for (Eigen::Index k = 0; k < eigen.cols(); ++k) {
        for (Eigen::Index f = 0; f < eigen.rows(); ++f) {
            INFO("boundary " << k << " feature " << controller::kFeatures[f].name);
            CHECK(a[0][k][f] == Approx(eigen(f, k)).margin(1e-12));
        }
    }
}

TEST_CASE("soft loop: gradients equal finite differences", "[surrogate]") {
    torch::manual_seed(3);
    surrogate::ResidualGru model(8);
    model->to(torch::kFloat64);
    {
        torch::NoGradGuard no_grad;
        model->head->weight.normal_(0.0, 0.3); // a non-zero head: gradients through the GRU
        model->head->bias.fill_(0.1);
    }
    // A batch shares P, S and w_min: the second scenario takes the first's layout.
    scenarios::ScenarioConfig config;
    config.ranks = 4;
    config.events = 6;
    auto first = scenarios::generate_scenario(config, scenarios::evaluation_seed(5));
    config.slices = {static_cast<double>(first.layout.slices),
                     static_cast<double>(first.layout.slices)};
    config.w_min = {static_cast<double>(first.layout.w_min),
                    static_cast<double>(first.layout.w_min)};
    auto batch = surrogate::make_batch(
        {first, scenarios::generate_scenario(config, scenarios::evaluation_seed(6))});
    surrogate::SoftLoopConfig loop{0.7, 5e-3, controller::ReactiveParams{0.6, 0.05, 0.3}, true};
    loop.round_moves = false; // rounding is piecewise constant: no finite differences through it

    auto loss_of = [&] { return surrogate::run_soft_loop(model, batch, loop).loss; };
    model->zero_grad();
    loss_of().backward();
    for (auto* p : {&model->head->weight, &model->cell->weight_ih, &model->cell->bias_hh}) {
        torch::Tensor grad = p->grad().clone();
        for (std::int64_t i : {0L, 3L, 7L}) {
            if (i >= p->numel()) {
                continue;
            }
            const double eps = 1e-6;
            double up, down;
            {
                torch::NoGradGuard no_grad;
                p->view(-1)[i] += eps;
                up = loss_of().item<double>();
                p->view(-1)[i] -= 2 * eps;
                down = loss_of().item<double>();
                p->view(-1)[i] += eps;
            }
            double fd = (up - down) / (2 * eps);
            INFO("parameter element " << i);
            CHECK(grad.view(-1)[i].item<double>() == Approx(fd).margin(1e-7).epsilon(1e-4));
        }
    }

    // And with respect to the boundaries of the rank times.
    auto sc = scenario(5, 9);
    torch::Tensor w = as_tensor(sc.row(2)).unsqueeze(0);
    torch::Tensor b = as_tensor(controller::split_equal_load(sc.row(0), sc.layout)).unsqueeze(0);
    b = b + torch::tensor({0.0, 0.3, -0.2, 0.45, 0.1, 0.0}, kDouble);
    b.set_requires_grad(true);
    torch::Tensor weights = torch::tensor({1.0, -2.0, 0.5, 3.0, -1.0}, kDouble);
    auto f = [&](const torch::Tensor& bb) {
        return (surrogate::soft_rank_times(w, bb, 0.5) * weights).sum();
    };
    f(b).backward();
    for (std::int64_t k = 1; k <= 4; ++k) {
        torch::Tensor bp = b.detach().clone(), bm = b.detach().clone();
        bp[0][k] += 1e-6;
        bm[0][k] -= 1e-6;
        double fd = (f(bp).item<double>() - f(bm).item<double>()) / 2e-6;
        CHECK(b.grad()[0][k].item<double>() == Approx(fd).epsilon(1e-5));
    }
}

TEST_CASE("soft loop: at low temperature the reactive rollout is the hard loop's, event by event",
          "[surrogate]") {
    scenarios::ScenarioConfig config;
    config.ranks = 8;
    config.events = 30;
    auto sc = scenarios::generate_scenario(config, scenarios::evaluation_seed(12));
    controller::ReactiveParams params{0.6, 0.03, 0.25};
    surrogate::ResidualGru unused(4);
    unused->to(torch::kFloat64);
    surrogate::SoftLoopConfig loop{0.01, 5e-4, params, /*use_controller=*/false};
    auto soft = surrogate::run_soft_loop(unused, surrogate::make_batch({sc}), loop);

    auto policy = controller::make_policy(
        "reactive", {{{"alpha", 0.6}, {"tau", 0.03}, {"ds_max_fraction", 0.25}}, "", nullptr});
    controller::Boundaries b = controller::split_equal_load(sc.row(0), sc.layout);
    policy->reset(sc.layout, b);
    double imbalance = 0.0;
    std::int64_t migrated = 0;
    int moved_events = 0;
    for (std::int64_t t = 1; t <= 30; ++t) {
        controller::Observation o = observe(sc, t, policy->boundaries());
        controller::Boundaries before = policy->boundaries();
        const controller::Boundaries& hard = policy->decide(o);
        migrated += controller::migrated_slices(before, hard);
        moved_events += hard != before ? 1 : 0;
        std::vector<double> s = as_vector(soft.boundaries[static_cast<std::size_t>(t - 1)][0]);
        INFO("event " << t);
        for (std::size_t k = 0; k < hard.size(); ++k) {
            REQUIRE(s[k] == static_cast<double>(hard[k]));
        }
        std::vector<double> times = controller::rank_sums(sc.row(t), hard);
        double max = 0.0, sum = 0.0;
        for (double x : times) {
            max = std::max(max, x);
            sum += x;
        }
        imbalance += max / (sum / static_cast<double>(times.size())) - 1.0;
    }
    CHECK(moved_events >= 10); // the rollout exercises the rule
    CHECK(soft.imbalance[0].item<double>() == Approx(imbalance / 30.0).epsilon(1e-9));
    CHECK(soft.migrated[0].item<double>() == static_cast<double>(migrated));
}

TEST_CASE("export: the Eigen rnn policy makes the LibTorch controller's moves over a rollout",
          "[surrogate]") {
    // A controller with a non-zero head (so the residual matters), exported and run
    // by the deployed Eigen policy, against the soft loop at low temperature with
    // whole-slice moves (the deployed arithmetic). The head's scale keeps every move
    // within half the slack of the rank it enters, where the surrogate's limit and the
    // joint feasible update agree (a larger head saturates moves into narrow ranks).
    // Both feature sets: all 16, and the 12 rank-time features of older files.
    const auto features = GENERATE(static_cast<std::int64_t>(controller::kCostFeatureCount),
                                   static_cast<std::int64_t>(controller::kRankTimeFeatureCount));
    INFO(features << " features");
    surrogate::ResidualGru model = model_with_head(11, 0.3, 0.05, features);
    controller::ReactiveParams params{0.6, 0.03, 0.1};
    scenarios::ScenarioConfig config;
    config.ranks = 8;
    config.events = 30;
    auto sc = scenarios::generate_scenario(config, scenarios::evaluation_seed(21));
    surrogate::SoftLoopConfig loop{0.01, 5e-4, params, /*use_controller=*/true};
    loop.round_moves = true;
    torch::NoGradGuard no_grad;
    auto soft = surrogate::run_soft_loop(model, surrogate::make_batch({sc}), loop);

    const data::Controller exported = surrogate::to_controller(model, params, {});
    REQUIRE(exported.feature_count() == static_cast<std::size_t>(features));
    auto policy = controller::make_rnn_policy(exported);
    policy->reset(sc.layout, controller::split_equal_load(sc.row(0), sc.layout));
    int differs_from_reactive = 0;
    auto reactive = controller::make_policy(
        "reactive", {{{"alpha", 0.6}, {"tau", 0.03}, {"ds_max_fraction", 0.1}}, "", nullptr});
    reactive->reset(sc.layout, controller::split_equal_load(sc.row(0), sc.layout));
    for (std::int64_t t = 1; t <= 30; ++t) {
        controller::Observation o = observe(sc, t, policy->boundaries());
        controller::Observation r = observe(sc, t, reactive->boundaries());
        const controller::Boundaries& hard = policy->decide(o);
        differs_from_reactive += hard != reactive->decide(r) ? 1 : 0;
        std::vector<double> s = as_vector(soft.boundaries[static_cast<std::size_t>(t - 1)][0]);
        INFO("event " << t);
        for (std::size_t k = 0; k < hard.size(); ++k) {
            REQUIRE(s[k] == static_cast<double>(hard[k]));
        }
    }
    CHECK(differs_from_reactive > 0); // the residual changed decisions: the test has teeth
}

TEST_CASE("export: a forecast-base controller moves as in the surrogate; a zero head is holt",
          "[surrogate]") {
    // The Eigen policy against the soft loop at low temperature with whole-slice moves,
    // both reading the same mu. A random head changes holt's decisions (gain and
    // correction matter); a zero head reproduces holt with the base's constants exactly.
    const double head_sd = GENERATE(0.0, 0.4);
    INFO("head sd " << head_sd);
    torch::manual_seed(5);
    surrogate::ResidualGru model(24, static_cast<std::int64_t>(controller::kCostFeatureCount),
                                 surrogate::BaseSpec{true, 0.6, 0.0});
    model->to(torch::kFloat64);
    {
        torch::NoGradGuard no_grad;
        model->head->weight.normal_(0.0, head_sd);
        model->head->bias.fill_(head_sd > 0.0 ? 0.1 : 0.0);
    }
    const double mu = 0.1;
    scenarios::ScenarioConfig config;
    config.ranks = 8;
    config.events = 30;
    config.family = "front";
    auto sc = scenarios::generate_scenario(config, scenarios::evaluation_seed(7));
    surrogate::ScenarioBatch batch = surrogate::make_batch({sc});
    batch.migration_cost = torch::tensor({mu}, kDouble);
    controller::ReactiveParams params{};
    surrogate::SoftLoopConfig loop{0.01, 5e-4, params, /*use_controller=*/true};
    loop.round_moves = true;
    torch::NoGradGuard no_grad;
    auto soft = surrogate::run_soft_loop(model, batch, loop);

    const data::Controller exported = surrogate::to_controller(model, params, {});
    REQUIRE(exported.base == data::kForecastBase);
    auto policy = controller::make_rnn_policy(exported);
    auto holt =
        controller::make_policy("holt", {{{"level_alpha", 0.6}, {"trend_beta", 0.0}}, "", nullptr});
    const controller::Boundaries start = controller::split_equal_load(sc.row(0), sc.layout);
    policy->reset(sc.layout, start);
    holt->reset(sc.layout, start);
    int differs_from_holt = 0;
    std::int64_t migrated = 0;
    for (std::int64_t t = 1; t <= 30; ++t) {
        controller::Observation o = observe(sc, t, policy->boundaries());
        o.migration_cost = mu;
        const controller::Boundaries before = policy->boundaries();
        const controller::Boundaries& hard = policy->decide(o);
        migrated += controller::migrated_slices(before, hard);
        differs_from_holt += hard != holt->decide(observe(sc, t, holt->boundaries())) ? 1 : 0;
        std::vector<double> s = as_vector(soft.boundaries[static_cast<std::size_t>(t - 1)][0]);
        INFO("event " << t);
        for (std::size_t k = 0; k < hard.size(); ++k) {
            REQUIRE(s[k] == static_cast<double>(hard[k]));
        }
    }
    CHECK(migrated > 0); // the front moves the boundaries: the comparison has teeth
    if (head_sd == 0.0) {
        CHECK(differs_from_holt == 0);
    } else {
        CHECK(differs_from_holt > 0);
    }
}

TEST_CASE("trainer: a short fixed-seed run lowers the validation objective", "[trainer]") {
    // On the surrogate's own (real-valued) objective: short runs barely move the
    // whole-slice objective, which needs ~1000 steps (docs/research_log.md).
    trainer::TrainConfig c;
    c.steps = 20;
    c.validate_every = 10;
    c.validate_rounded = false;
    c.reactive = controller::kPaperReactive; // the base this figure was measured on
    auto r = trainer::train(c, "", nullptr);
    INFO("initial " << r.initial_validation << " best " << r.best_validation);
    CHECK(r.best_validation < 0.99 * r.initial_validation); // at least 1% better, seed 1
    CHECK(r.best.head_weight != data::Matrix(1, 24, 0.0));
}

TEST_CASE("export: the Eigen GRU of the exported file computes the LibTorch cell's output",
          "[surrogate]") {
    surrogate::ResidualGru model = model_with_head(4, 0.2, 0.0);
    data::Controller c = surrogate::to_controller(model, controller::ReactiveParams{}, {});
    data::validate(c, "exported");
    constexpr int kF = static_cast<int>(controller::kCostFeatureCount);
    CHECK(c.parameter_count() == 3 * 24 * (kF + 24 + 2) + 25);
    controller::GruCell cell(c);
    torch::Tensor x = torch::randn({5, kF}, kDouble);
    torch::Tensor h = torch::randn({5, 24}, kDouble).tanh();
    auto [r, h2] = model->forward(x, h);
    Eigen::MatrixXd ex(kF, 5);
    Eigen::MatrixXf eh(24, 5);
    for (int n = 0; n < 5; ++n) {
        for (int f = 0; f < kF; ++f) {
            ex(f, n) = x[n][f].item<double>();
        }
        for (int i = 0; i < 24; ++i) {
            eh(i, n) = static_cast<float>(h[n][i].item<double>());
        }
    }
    cell.step(ex, eh);
    Eigen::VectorXd er = cell.head(eh);
    for (int n = 0; n < 5; ++n) {
        CHECK(er(n) == Approx(r[n].item<double>()).margin(2e-5)); // Eigen computes in float
        for (int i = 0; i < 24; ++i) {
            CHECK(eh(i, n) == Approx(h2[n][i].item<double>()).margin(2e-6));
        }
    }
    // load_weights is the inverse of to_controller.
    surrogate::ResidualGru other(24, kF);
    other->to(torch::kFloat64);
    surrogate::load_weights(other, c);
    CHECK(torch::equal(other->cell->weight_hh, model->cell->weight_hh));
    CHECK(torch::equal(other->head->weight, model->head->weight));
}

TEST_CASE("trainer: a resumed run reaches the same weights as an uninterrupted one", "[trainer]") {
    test::TempDir dir;
    trainer::TrainConfig c;
    c.steps = 8;
    c.batch = 2;
    c.events = 10;
    c.max_ranks = 4;
    c.hidden = 6;
    c.validate_every = 2;
    c.validation_count = 4;
    c.validate_rounded = false; // whole-slice validation would keep the zero-head start
    c.reactive = controller::kPaperReactive; // a base the residual improves on quickly
    c.checkpoint_every = 1;
    auto straight = trainer::train(c, "", nullptr);

    c.checkpoint = dir.file("ckpt.pt");
    c.stop_after = 4;
    auto half = trainer::train(c, "", nullptr);
    CHECK(half.steps_done == 4);
    c.stop_after = -1;
    c.resume = true;
    auto resumed = trainer::train(c, "", nullptr);
    CHECK(resumed.steps_done == 8);
    CHECK(resumed.best.weight_ih == straight.best.weight_ih);
    CHECK(resumed.best.head_weight == straight.best.head_weight);
    CHECK(resumed.best.training.loss_history == straight.best.training.loss_history);
    CHECK(resumed.best_validation == straight.best_validation);
    // The kept controller is a trained one, its head moved away from the zero start:
    // otherwise both runs would return the start and agree trivially.
    CHECK(straight.best_validation < straight.initial_validation);
    CHECK(straight.best.head_weight != data::Matrix(1, c.hidden, 0.0));
    CHECK(dir.entries() == std::vector<std::string>{"ckpt.pt"}); // no temporary left behind
}

TEST_CASE("soft loop: the loss is imbalance + spread_weight * spread + lambda * migration / E",
          "[surrogate]") {
    // The loss is assembled per event; its parts are reported per scenario as
    // time averages (imbalance, spread) and a total (migration). Rebuilding it from
    // them checks the weighting, for the design's weight 1 and for 0 and 2.5.
    torch::manual_seed(4);
    surrogate::ResidualGru model(24);
    model->to(torch::kFloat64);
    {
        torch::NoGradGuard no_grad;
        model->head->weight.normal_(0.0, 0.3); // the controller moves boundaries
    }
    scenarios::ScenarioConfig config;
    config.ranks = 6;
    config.events = 12;
    auto batch = surrogate::make_batch(
        {scenarios::generate_scenario(config, scenarios::evaluation_seed(21))});
    const double lambda = 3e-3;
    for (double weight : {1.0, 0.0, 2.5}) {
        INFO("spread weight " << weight);
        surrogate::SoftLoopConfig loop{0.3, lambda, controller::ReactiveParams{}, true};
        loop.spread_weight = weight;
        torch::NoGradGuard no_grad;
        auto r = surrogate::run_soft_loop(model, batch, loop);
        CHECK(r.migrated.sum().item<double>() > 0.0);
        CHECK(r.spread.sum().item<double>() > 0.0);
        const double rebuilt =
            (r.imbalance + weight * r.spread + lambda * r.migrated / 12.0).mean().item<double>();
        CHECK(r.loss.item<double>() == Approx(rebuilt).epsilon(1e-12));
    }
}

TEST_CASE("soft loop: at low temperature the soft interval runtime is the evaluator's hard one",
          "[surrogate][runtime]") {
    // Random workloads and feasible integer moves that never cross a neighbour's
    // old boundary (what the loop's half-slack limit guarantees).
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> cost(0.1, 3.0);
    for (int trial = 0; trial < 20; ++trial) {
        const std::int64_t slices = 40, ranks = 5;
        std::vector<double> w(slices);
        for (double& v : w)
            v = cost(rng);
        const controller::Boundaries before{0, 8, 16, 24, 32, 40};
        controller::Boundaries after = before;
        for (std::size_t k = 1; k < static_cast<std::size_t>(ranks); ++k)
            after[k] += static_cast<std::int64_t>(rng() % 7) - 3; // within +-3 of 8-wide ranks
        const double mu = std::vector<double>{0.0, 0.01, 0.3, 2.0}[trial % 4];
        const double kappa = trial % 3 == 0 ? 0.1 : 0.0;
        const double hard = eval::interval_runtime(w, before, after, {mu, kappa});
        torch::Tensor soft = surrogate::soft_interval_runtime(
            as_tensor(w).unsqueeze(0), as_tensor(before).unsqueeze(0),
            as_tensor(after).unsqueeze(0), torch::full({1}, mu, kDouble), kappa, 1e-3);
        INFO("trial " << trial << " mu " << mu << " kappa " << kappa);
        CHECK(soft.item<double>() == Approx(hard).epsilon(1e-9));
    }
}

TEST_CASE("soft loop: the runtime objective is the excess runtime, the imbalance when mu = 0",
          "[surrogate][runtime]") {
    // It moves boundaries; 16 features: the cost features would change its moves with mu.
    surrogate::ResidualGru model =
        model_with_head(4, 0.3, 0.0, static_cast<std::int64_t>(controller::kForecastFeatureCount));
    scenarios::ScenarioConfig config;
    config.ranks = 6;
    config.events = 12;
    config.slices = {480, 480};
    config.w_min = {2, 2};
    auto batch =
        surrogate::make_batch({scenarios::generate_scenario(config, scenarios::training_seed(21)),
                               scenarios::generate_scenario(config, scenarios::training_seed(22))});
    surrogate::SoftLoopConfig loop{0.3, 0.0, controller::ReactiveParams{}, true};
    loop.objective = surrogate::Objective::Runtime;
    loop.spread_weight = 0.5;
    torch::NoGradGuard no_grad;
    auto free = surrogate::run_soft_loop(model, batch, loop);
    CHECK(free.migrated.sum().item<double>() > 0.0);
    CHECK(torch::allclose(free.excess_runtime, free.imbalance, 1e-12, 1e-14));
    CHECK(free.loss.item<double>() ==
          Approx((free.excess_runtime + 0.5 * free.spread).mean().item<double>()).epsilon(1e-12));
    // Charging migration makes the same moves cost more.
    batch.migration_cost = torch::full({2}, 0.5, kDouble);
    loop.rebalance_cost = 0.05;
    auto paid = surrogate::run_soft_loop(model, batch, loop);
    CHECK((paid.excess_runtime > free.excess_runtime).all().item<bool>());
}

TEST_CASE("trainer: runtime objective over families and trace windows, deterministic per seed",
          "[trainer][runtime]") {
    test::TempDir dir;
    scenarios::ScenarioConfig config;
    config.family = "front";
    config.ranks = 4;
    config.events = 30;
    const std::string trace = dir.file("train/front.h5");
    std::filesystem::create_directories(dir.file("train"));
    data::write_trace(
        trace, scenarios::to_trace(
                   scenarios::generate_scenario(config, scenarios::training_seed(3)), "front"));
    // A recorded simulation can hold all its load in a few slices with the rest
    // empty: then ranks have no work at all, which must not turn the soft loop's
    // divisions into NaN (it did: the trainer stopped on an index of NaN).
    data::Trace point;
    point.workload = data::Matrix(40, 64, 0.0);
    for (std::size_t r = 0; r < 40; ++r) {
        point.workload(r, 30) = 1.0 + 0.05 * static_cast<double>(r);
        point.workload(r, 31 + r % 3) = 0.5;
    }
    const std::string sparse = dir.file("train/point.h5");
    data::write_trace(sparse, point);
    trainer::TrainConfig c;
    c.steps = 6;
    c.batch = 3;
    c.events = 12;
    c.max_ranks = 8;
    c.validate_every = 3;
    c.validate_rounded = false;
    c.objective = "runtime";
    c.families = {"paper", "point", "shift"};
    c.traces = {trace, sparse};
    c.trace_fraction = 0.8;
    auto a = trainer::train(c, "", nullptr);
    auto b = trainer::train(c, "", nullptr);
    CHECK(a.best.head_weight == b.best.head_weight);
    CHECK(a.initial_validation == b.initial_validation);
    CHECK(std::isfinite(a.best_validation));
    CHECK(a.best_validation <= a.initial_validation);
    c.seed = 2;
    auto other = trainer::train(c, "", nullptr);
    CHECK(other.initial_validation != a.initial_validation); // other seed, other batches
    // A held-out trace is refused before anything runs.
    c.traces = {dir.file("evaluation/front.h5")};
    CHECK_THROWS_WITH(trainer::train(c, "", nullptr), Catch::Contains("held-out evaluation"));
}

TEST_CASE("trainer es: the validation it reports is the hard loop's runtime over holt's",
          "[trainer][es]") {
    const trainer::TrainConfig c = small_es_config("cost");
    auto r = trainer::train_evolution(c, "", nullptr);
    // The zero-head start is the base itself: exactly 1.
    CHECK(r.initial_validation == 1.0);
    CHECK(r.best.training.loss_history.size() == 12);
    CHECK(recomputed_validation(c, r.best) == Approx(r.best_validation).epsilon(1e-12));
    // Cheap moving fronts at low mu: aiming at the fast forecaster's split pays, and
    // ES finds the blend within a dozen steps.
    CHECK(r.best_validation < 0.99);
    // Deterministic per seed.
    auto again = trainer::train_evolution(c, "", nullptr);
    CHECK(again.best.head_weight == r.best.head_weight);
}

TEST_CASE("trainer es: cost-forecast fits the Holt constants and keeps them valid",
          "[trainer][es]") {
    const trainer::TrainConfig c = small_es_config("cost-forecast");
    auto r = trainer::train_evolution(c, "", nullptr);
    CHECK(r.initial_validation == 1.0);
    REQUIRE(r.best_validation < 1.0); // a step was kept, so its constants are ES's
    const data::Controller& kept = r.best;
    const std::vector<double> start{c.base_level_alpha, c.base_trend_beta, c.fast_level_alpha,
                                    c.fast_trend_beta};
    const std::vector<double> fitted{kept.forecast_level_alpha, kept.forecast_trend_beta,
                                     kept.fast_level_alpha, kept.fast_trend_beta};
    CHECK(fitted != start);
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        CHECK(fitted[i] >= (i % 2 == 0 ? 0.05 : 0.0)); // levels stay above 0
        CHECK(fitted[i] <= 1.0);
    }
    // The file carries what was scored: a rollout of the written and re-read file
    // reproduces the reported validation.
    test::TempDir dir;
    data::write_controller(dir.file("cf.h5"), kept);
    CHECK(recomputed_validation(c, data::read_controller(dir.file("cf.h5"))) ==
          Approx(r.best_validation).epsilon(1e-12));
}
