#include "samples.hpp"

#include <random>

namespace cellshift::test {
namespace {

data::Matrix random_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t cols) {
    std::normal_distribution<double> normal(0.0, 0.3);
    data::Matrix m(rows, cols);
    for (double& v : m.values) {
        v = normal(rng);
    }
    return m;
}

std::vector<double> random_vector(std::mt19937_64& rng, std::size_t n) {
    return random_matrix(rng, 1, n).values;
}

} // namespace

data::Controller sample_controller(std::size_t hidden, std::size_t features, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    data::Controller c;
    for (std::size_t i = 0; i < features; ++i) {
        c.feature_names.push_back("feature_" + std::to_string(i));
        c.clamp_min.push_back(-1.0 - static_cast<double>(i));
        c.clamp_max.push_back(1.0 + 0.5 * static_cast<double>(i));
    }
    c.ds_max_fraction = 0.125;
    c.alpha = 0.5;
    c.tau = 0.03;
    c.weight_ih = random_matrix(rng, 3 * hidden, features);
    c.weight_hh = random_matrix(rng, 3 * hidden, hidden);
    c.bias_ih = random_vector(rng, 3 * hidden);
    c.bias_hh = random_vector(rng, 3 * hidden);
    c.head_weight = random_matrix(rng, 1, hidden);
    c.head_bias = random_vector(rng, 1);
    c.training.seed = 18446744073709551557ULL; // needs all 64 bits
    c.training.steps = 1234;
    c.training.lambda = 5e-4;
    c.training.commit = "abc123def456";
    c.training.config = "steps = 1234\nlambda = 5e-4\n";
    c.training.loss_history = {0.5, 0.25, 0.125 + 1e-17, 0.1};
    return c;
}

data::Trace sample_trace(std::size_t events, std::size_t slices, bool optional) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uniform(0.0, 3.0);
    data::Trace t;
    t.workload = data::Matrix(events, slices);
    for (double& v : t.workload.values) {
        v = uniform(rng);
    }
    t.source = "unit test sample";
    if (optional) {
        t.growth_events = data::Matrix(events, slices);
        for (std::size_t e = 0; e < events; ++e) {
            (*t.growth_events)(e, e % slices) = static_cast<double>(e);
        }
        t.cycle_phase = std::vector<double>(events);
        for (std::size_t e = 0; e < events; ++e) {
            (*t.cycle_phase)[e] = 0.1 * static_cast<double>(e);
        }
        t.slice_width = 2.5;
    }
    return t;
}

data::RunRecord sample_run_record(std::size_t events, std::size_t ranks, bool with_elements) {
    data::RunRecord r;
    r.slices = static_cast<std::int64_t>(4 * ranks);
    r.w_min = 2;
    r.rank_time = data::Matrix(events, ranks);
    r.boundaries = data::IntMatrix(events, ranks + 1);
    for (std::size_t e = 0; e < events; ++e) {
        for (std::size_t p = 0; p <= ranks; ++p) {
            std::int64_t b = static_cast<std::int64_t>(4 * p);
            if (p > 0 && p < ranks) {
                b += static_cast<std::int64_t>(e % 2); // boundaries wiggle by one slice
            }
            r.boundaries(e, p) = b;
        }
        double max = 0.0;
        double sum = 0.0;
        for (std::size_t p = 0; p < ranks; ++p) {
            double t = 1.0 + 0.1 * static_cast<double>(p) + 0.01 * static_cast<double>(e);
            r.rank_time(e, p) = t;
            max = std::max(max, t);
            sum += t;
        }
        r.imbalance.push_back(max / (sum / static_cast<double>(ranks)) - 1.0);
        r.migrated_slices.push_back(e == 0 ? 0 : static_cast<std::int64_t>(ranks - 1));
    }
    if (with_elements) {
        r.elements = data::IntMatrix(events, ranks, 1000);
    }
    r.clock = "model";
    r.policy = "reactive";
    r.configuration = "ranks = 3\npolicy = reactive\n";
    r.source = "unit test sample";
    return r;
}

bool same(const data::Controller& a, const data::Controller& b) {
    return a.feature_names == b.feature_names && a.clamp_min == b.clamp_min &&
           a.clamp_max == b.clamp_max && a.ds_max_fraction == b.ds_max_fraction &&
           a.alpha == b.alpha && a.tau == b.tau && a.weight_ih == b.weight_ih &&
           a.weight_hh == b.weight_hh && a.bias_ih == b.bias_ih && a.bias_hh == b.bias_hh &&
           a.head_weight == b.head_weight && a.head_bias == b.head_bias &&
           a.training.seed == b.training.seed && a.training.steps == b.training.steps &&
           a.training.lambda == b.training.lambda && a.training.commit == b.training.commit &&
           a.training.config == b.training.config &&
           a.training.loss_history == b.training.loss_history;
}

bool same(const data::Trace& a, const data::Trace& b) {
    return a.workload == b.workload && a.growth_events == b.growth_events &&
           a.cycle_phase == b.cycle_phase && a.source == b.source && a.slice_width == b.slice_width;
}

bool same(const data::RunRecord& a, const data::RunRecord& b) {
    return a.rank_time == b.rank_time && a.boundaries == b.boundaries &&
           a.migrated_slices == b.migrated_slices && a.imbalance == b.imbalance &&
           a.elements == b.elements && a.clock == b.clock && a.policy == b.policy &&
           a.slices == b.slices && a.w_min == b.w_min && a.configuration == b.configuration &&
           a.source == b.source;
}

} // namespace cellshift::test
