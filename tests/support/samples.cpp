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
        t.initial_load = std::vector<double>(slices);
        for (std::size_t s = 0; s < slices; ++s) {
            (*t.initial_load)[s] = 1.0 + 0.5 * static_cast<double>(s % 3);
        }
        t.estimate = data::Matrix(events, slices);
        for (double& v : t.estimate->values) {
            v = 40.0 * uniform(rng);
        }
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
           a.alpha == b.alpha && a.tau == b.tau && a.base == b.base &&
           a.forecast_level_alpha == b.forecast_level_alpha &&
           a.forecast_trend_beta == b.forecast_trend_beta &&
           a.fast_level_alpha == b.fast_level_alpha && a.fast_trend_beta == b.fast_trend_beta &&
           a.hold_horizon == b.hold_horizon && a.calibration_keep == b.calibration_keep &&
           a.refine_split == b.refine_split && a.weight_ih == b.weight_ih &&
           a.weight_hh == b.weight_hh && a.bias_ih == b.bias_ih && a.bias_hh == b.bias_hh &&
           a.head_weight == b.head_weight && a.head_bias == b.head_bias &&
           a.head_input_weight == b.head_input_weight && a.training.seed == b.training.seed &&
           a.training.steps == b.training.steps && a.training.lambda == b.training.lambda &&
           a.training.commit == b.training.commit && a.training.config == b.training.config &&
           a.training.loss_history == b.training.loss_history;
}

bool same(const data::Trace& a, const data::Trace& b) {
    return a.workload == b.workload && a.growth_events == b.growth_events &&
           a.cycle_phase == b.cycle_phase && a.source == b.source &&
           a.slice_width == b.slice_width && a.initial_load == b.initial_load &&
           a.estimate == b.estimate;
}

bool same(const data::RunRecord& a, const data::RunRecord& b) {
    return a.rank_time == b.rank_time && a.boundaries == b.boundaries &&
           a.migrated_slices == b.migrated_slices && a.imbalance == b.imbalance &&
           a.elements == b.elements && a.clock == b.clock && a.policy == b.policy &&
           a.slices == b.slices && a.w_min == b.w_min && a.configuration == b.configuration &&
           a.source == b.source && a.totals.has_value() == b.totals.has_value() &&
           (!a.totals || (a.totals->steps == b.totals->steps &&
                          a.totals->model_runtime == b.totals->model_runtime &&
                          a.totals->model_migration == b.totals->model_migration &&
                          a.totals->model_mean == b.totals->model_mean &&
                          a.totals->measured_runtime == b.totals->measured_runtime &&
                          a.totals->wall_seconds == b.totals->wall_seconds &&
                          a.totals->ghosts == b.totals->ghosts));
}

data::Checkpoint sample_checkpoint() {
    data::Checkpoint c;
    c.step = 120;
    c.time = 1.2;
    c.next_cell_id = 8;
    c.positions = data::Matrix(6, 3);
    for (std::size_t i = 0; i < 18; ++i)
        c.positions.values[i] = 0.1 * static_cast<double>(i) + 1.0 / 3.0;
    c.element_id = {1 << 20, (1 << 20) + 1, 4 << 20, 7 << 20, (7 << 20) + 1, (7 << 20) + 5};
    c.element_cell = {1, 1, 4, 7, 7, 7};
    c.element_adhesive = {1, 1, 0, 1, 1, 1};
    c.cell_id = {1, 4, 7};
    c.cell_type = {0, 2, 1};
    c.cell_generation = {0, 3, 1};
    c.cell_next_serial = {2, 1, 6};
    c.cell_elements = {2, 1, 3};
    c.cell_owner = {0, 1, 1};
    c.cell_age = {0.5, 3.25, 1.0 / 7.0};
    c.cell_cycle_time = {20.0, 18.5, 21.0};
    c.cell_growth_credit = {0.25, 0.0, 0.75};
    c.ranks = 2;
    c.slices = 12;
    c.policy = "holt";
    c.configuration = "Lx = 24\nseed = 7\n";
    c.policy_state = {{"boundaries", {0, 5, 12}}, {"holt/level", {1.0 / 3.0, 2.0}}};
    c.balancer_state = {{"interval_time", {0.125, 1e-9}}, {"history/step", {}}};
    return c;
}

bool same(const data::Checkpoint& a, const data::Checkpoint& b) {
    return a.step == b.step && a.time == b.time && a.next_cell_id == b.next_cell_id &&
           a.positions == b.positions && a.element_id == b.element_id &&
           a.element_cell == b.element_cell && a.element_adhesive == b.element_adhesive &&
           a.cell_id == b.cell_id && a.cell_type == b.cell_type &&
           a.cell_generation == b.cell_generation && a.cell_next_serial == b.cell_next_serial &&
           a.cell_elements == b.cell_elements && a.cell_owner == b.cell_owner &&
           a.cell_age == b.cell_age && a.cell_cycle_time == b.cell_cycle_time &&
           a.cell_growth_credit == b.cell_growth_credit && a.ranks == b.ranks &&
           a.slices == b.slices && a.policy == b.policy && a.configuration == b.configuration &&
           a.policy_state == b.policy_state && a.balancer_state == b.balancer_state;
}

data::Snapshot sample_snapshot() {
    data::Snapshot s;
    s.step = 300;
    s.time = 3.0;
    s.positions = data::Matrix(4, 3);
    for (std::size_t i = 0; i < 12; ++i)
        s.positions.values[i] = 0.25 * static_cast<double>(i) + 1.0 / 3.0;
    s.element_id = {1 << 20, (1 << 20) + 1, 2 << 20, (2 << 20) + 1};
    s.cell_id = {1, 1, 2, 2};
    s.cell_type = {0, 0, 1, 2};
    s.rank = {0, 0, 1, 1};
    s.domain = {24.0, 8.0, 10.0};
    s.source = "tests";
    return s;
}

bool same(const data::Snapshot& a, const data::Snapshot& b) {
    return a.step == b.step && a.time == b.time && a.positions.rows == b.positions.rows &&
           a.positions.cols == b.positions.cols && a.positions.values == b.positions.values &&
           a.element_id == b.element_id && a.cell_id == b.cell_id && a.cell_type == b.cell_type &&
           a.rank == b.rank && a.domain == b.domain && a.source == b.source;
}

} // namespace cellshift::test
