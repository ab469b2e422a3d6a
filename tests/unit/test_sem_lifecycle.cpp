// Growth, division and differentiation, and the determinism of whole runs.
#include "../support/sem_samples.hpp"

#include "cellshift/sim/counter_noise.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/lifecycle.hpp"
#include "cellshift/sim/simulation.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace cellshift;

namespace {

// Every Tissue invariant: ids unique and sorted, cells sorted, counts consistent.
void check_invariants(const sim::Tissue& t) {
    const auto& ids = t.elements.id;
    REQUIRE(std::is_sorted(ids.begin(), ids.end()));
    REQUIRE(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
    REQUIRE(std::is_sorted(t.cells.begin(), t.cells.end(),
                           [](const sim::Cell& a, const sim::Cell& b) { return a.id < b.id; }));
    std::map<std::int64_t, std::int32_t> counted;
    for (std::size_t i = 0; i < t.elements.size(); ++i) {
        ++counted[t.elements.cell[i]];
        const std::ptrdiff_t c = t.find_cell(t.elements.cell[i]);
        REQUIRE(c >= 0);
        REQUIRE(t.elements.adhesive[i] ==
                (t.cells[static_cast<std::size_t>(c)].adhesive() ? 1 : 0));
    }
    REQUIRE(counted.size() == t.cells.size());
    for (const sim::Cell& c : t.cells)
        REQUIRE(counted[c.id] == c.elements);
}

// One stem cell of `n` elements in a ball at (x, y, z).
sim::Tissue single_cell(const sim::SemParams& p, int n, double z, sim::CellType type,
                        int generation = 0) {
    sim::Tissue t;
    sim::Cell c;
    c.id = 0;
    c.type = type;
    c.generation = generation;
    c.cycle_time = p.cycle_time;
    for (int k = 0; k < n; ++k) {
        const double a = 2.399963 * k; // golden-angle spiral: a compact, even cloud
        const double r = 1.2 * std::sqrt((k + 0.5) / n);
        t.elements.push_back(10.0 + r * std::cos(a), 4.0 + r * std::sin(a),
                             z + 0.3 * std::sin(0.7 * k), k, 0, c.adhesive());
    }
    c.elements = n;
    c.next_serial = n;
    t.cells.push_back(c);
    t.next_cell_id = 1;
    return t;
}

template <typename F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "<no error was thrown>";
}

void expect_message(const std::string& message, const std::string& fragment) {
    INFO("message: " << message);
    CHECK(message.find(fragment) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
}

} // namespace

TEST_CASE("counter normals have mean 0 and variance 1") {
    const int n = 200000;
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; ++i) {
        const double v = sim::counter_normal(7, static_cast<std::uint64_t>(i), 3, 0);
        sum += v;
        sum2 += v * v;
    }
    const double mean = sum / n;
    CHECK(std::abs(mean) < 0.01); // 4.5 standard errors
    CHECK(std::abs(sum2 / n - mean * mean - 1.0) < 0.015);
}

TEST_CASE("division conserves elements and splits a cell into two viable daughters") {
    const sim::SemParams p = test::small_domain_params();
    for (double parallel : {0.0, 1.0}) {
        sim::SemParams q = p;
        q.p_plane_parallel = parallel;
        sim::Tissue t = single_cell(q, q.elements_division, 1.0, sim::CellType::stem);
        const std::set<std::int64_t> before(t.elements.id.begin(), t.elements.id.end());
        const sim::LifecycleEvents ev = sim::update_lifecycle(t, q, 0.0);
        CHECK(ev.divisions == 1);
        REQUIRE(t.cells.size() == 2);
        CHECK(t.elements.size() == static_cast<std::size_t>(q.elements_division));
        CHECK(std::set<std::int64_t>(t.elements.id.begin(), t.elements.id.end()) == before);
        for (const sim::Cell& d : t.cells) {
            CHECK(d.elements >= q.elements_division / 4);
            CHECK(d.id >= 1); // new ids, the parent's is retired
        }
        CHECK(t.cells[0].type == sim::CellType::stem); // the lower daughter stays a stem cell
        check_invariants(t);
    }
}

TEST_CASE("growth adds elements at (division - initial) per cycle time") {
    sim::SemParams p = test::small_domain_params();
    sim::Tissue t = single_cell(p, p.elements_initial, 1.0, sim::CellType::stem);
    const int span = p.elements_division - p.elements_initial;
    const sim::LifecycleEvents ev = sim::update_lifecycle(t, p, 0.5 * p.cycle_time);
    CHECK(ev.elements_added == span / 2);
    CHECK(t.cells.at(0).elements == p.elements_initial + span / 2);
    check_invariants(t);
}

TEST_CASE("TA cells stop after their generations and suprabasal cells neither grow nor divide") {
    const sim::SemParams p = test::small_domain_params();
    sim::Tissue t = single_cell(p, p.elements_division, 1.0, sim::CellType::transit_amplifying,
                                p.ta_generations);
    sim::update_lifecycle(t, p, 0.0);
    REQUIRE(t.cells.size() == 2);
    for (const sim::Cell& d : t.cells)
        CHECK(d.type == sim::CellType::suprabasal);

    sim::Tissue s = single_cell(p, p.elements_division, 1.0, sim::CellType::suprabasal);
    const sim::LifecycleEvents ev = sim::update_lifecycle(s, p, 10.0 * p.cycle_time);
    CHECK(ev.divisions == 0);
    CHECK(ev.elements_added == 0);
}

TEST_CASE("a basal cell that loses the membrane differentiates") {
    const sim::SemParams p = test::small_domain_params();
    sim::Tissue t = single_cell(p, p.elements_initial, 5.0, sim::CellType::stem);
    const sim::LifecycleEvents ev = sim::update_lifecycle(t, p, 0.0);
    CHECK(ev.differentiations == 1);
    CHECK(t.cells.at(0).type == sim::CellType::suprabasal);
    check_invariants(t); // its elements no longer adhere
}

TEST_CASE("a grown tissue keeps its invariants, stratifies and spreads along x") {
    const sim::SemParams p = test::small_domain_params();
    const sim::Tissue start = sim::make_basal_patch(p);
    check_invariants(start);
    const sim::TissueCensus c0 = sim::census(start);
    const sim::Tissue t = test::grown_tissue(p, 1500);
    check_invariants(t);
    const sim::TissueCensus c = sim::census(t);
    CHECK(c.elements > 2 * c0.elements);
    CHECK(c.cells[static_cast<int>(sim::CellType::suprabasal)] > 0);
    CHECK(c.x_max > c0.x_max + 1.0);
    CHECK(c.z_max > c0.z_max);
    for (std::size_t i = 0; i < t.elements.size(); ++i) {
        REQUIRE(std::isfinite(t.elements.x[i]));
        REQUIRE(t.elements.z[i] >= 0.0);
    }
}

TEST_CASE("the same seed gives the same trajectory, another seed another one") {
    sim::SemParams p = test::small_domain_params();
    const sim::Tissue a = test::grown_tissue(p, 400);
    const sim::Tissue b = test::grown_tissue(p, 400);
    CHECK(a.elements.x == b.elements.x);
    CHECK(a.elements.y == b.elements.y);
    CHECK(a.elements.z == b.elements.z);
    CHECK(a.elements.cell == b.elements.cell);
    p.seed = 2;
    const sim::Tissue c = test::grown_tissue(p, 400);
    CHECK(c.elements.x != a.elements.x);
}

TEST_CASE("all-pairs and binned trajectories agree") {
    // Short, so rounding differences in the summation order cannot grow into
    // different division outcomes.
    const sim::SemParams p = test::small_domain_params();
    sim::Simulation ref(p, sim::make_backend("cpu-allpairs", p));
    sim::Simulation bin(p, sim::make_backend("cpu-binned", p));
    ref.run(50);
    bin.run(50);
    const auto& x = ref.tissue().elements;
    const auto& y = bin.tissue().elements;
    REQUIRE(x.id == y.id);
    double worst = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max({worst, std::abs(x.x[i] - y.x[i]), std::abs(x.y[i] - y.y[i]),
                          std::abs(x.z[i] - y.z[i])});
    }
    CHECK(worst < 1e-9);
}

TEST_CASE("bad simulator parameters are rejected with one line") {
    sim::SemParams p;
    p.cutoff = -1.0;
    expect_message(message_of([&] { sim::validate(p); }),
                   "cutoff must be a positive length, got -1");
    p = {};
    p.bin_edge = 1.0;
    expect_message(message_of([&] { sim::validate(p); }),
                   "bin-edge (1) must be 0 (= cutoff) or >= the cutoff (2)");
    p = {};
    p.Ly = 1.0;
    expect_message(message_of([&] { sim::validate(p); }), "domain too small: Ly = 1");
    p = {};
    expect_message(message_of([&] { sim::make_backend("gpu-magic", p); }),
                   "unknown backend 'gpu-magic'");
}
