// The SEM force backends against each other and against physics: binned equals
// the all-pairs reference, forces are minus the energy gradient, pair forces
// conserve momentum, and neither the OpenMP schedule nor the thread count changes
// a single bit.
#include "../support/sem_samples.hpp"

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/pair_lanes.hpp"
#include "cellshift/sim/sem_physics.hpp"

#include <catch2/catch.hpp>
#include <omp.h>

#include <algorithm>
#include <cmath>

using namespace cellshift;

namespace {

sim::ForceField forces_of(const std::string& backend, const sim::SemParams& p,
                          const sim::Elements& e, sim::ForceStats* stats = nullptr) {
    sim::ForceField f;
    auto b = sim::make_backend(backend, p);
    const sim::ForceStats s = b->compute_forces(e, f);
    if (stats)
        *stats = s;
    return f;
}

bool bitwise_equal(const sim::ForceField& a, const sim::ForceField& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

} // namespace

TEST_CASE("pair evaluator matches the analytic potential and its derivative") {
    sim::SemParams p;
    const sim::SemPairEvaluator pair(p);
    for (double r : {0.3, 0.8, 1.28, 1.9}) {
        for (bool same : {true, false}) {
            const sim::PairParams& q = same ? p.intra : p.inter;
            double f_over_r = 0.0, v = 0.0;
            REQUIRE(pair.evaluate(r * r, same, f_over_r, v));
            const double V = q.U0 * std::exp(-r / q.xi1) - q.V0 * std::exp(-r / q.xi2);
            const double dV =
                -q.U0 / q.xi1 * std::exp(-r / q.xi1) + q.V0 / q.xi2 * std::exp(-r / q.xi2);
            CHECK(v == Approx(V).epsilon(1e-13));
            CHECK(f_over_r * r == Approx(-dV).epsilon(1e-12).margin(1e-14));
        }
    }
    // The defaults' equilibrium spacings: 0.8 within a cell, 1.28 between cells.
    double f = 1.0, v = 0.0;
    pair.evaluate(0.8 * 0.8, true, f, v);
    CHECK(std::abs(f) < 1e-9);
    pair.evaluate(1.28 * 1.28, false, f, v);
    CHECK(std::abs(f) < 1e-3);
    CHECK_FALSE(pair.evaluate(p.cutoff * p.cutoff, true, f, v));
}

TEST_CASE("cpu-binned forces equal the all-pairs reference on random configurations") {
    const sim::SemParams p = test::small_domain_params();
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        const sim::Elements e = test::random_elements(p, 1500, 40, seed);
        sim::ForceStats ref_stats, bin_stats;
        const sim::ForceField ref = forces_of("cpu-allpairs", p, e, &ref_stats);
        const sim::ForceField bin = forces_of("cpu-binned", p, e, &bin_stats);
        // Different summation order (bins vs ids): equal to rounding.
        CHECK(test::relative_difference(bin, ref) < 1e-12);
        CHECK(test::relative_difference(forces_of("cpu-verlet", p, e), ref) < 1e-12);
        // Same pairs within the cutoff, far fewer candidates tested.
        CHECK(bin_stats.interactions == ref_stats.interactions);
        CHECK(bin_stats.interactions > 0);
        CHECK(bin_stats.candidates < ref_stats.candidates / 4);
    }
}

TEST_CASE("cpu-binned forces equal the all-pairs reference on a grown tissue") {
    const sim::SemParams p = test::small_domain_params();
    const sim::Tissue t = test::grown_tissue(p, 600);
    REQUIRE(t.cells.size() > 10); // it has grown and divided (6 cells at the start)
    sim::ForceStats ref_stats, bin_stats;
    const sim::ForceField ref = forces_of("cpu-allpairs", p, t.elements, &ref_stats);
    const sim::ForceField bin = forces_of("cpu-binned", p, t.elements, &bin_stats);
    CHECK(test::relative_difference(bin, ref) < 1e-12);
    CHECK(bin_stats.interactions == ref_stats.interactions);
    sim::ForceStats verlet_stats;
    CHECK(test::relative_difference(forces_of("cpu-verlet", p, t.elements, &verlet_stats), ref) <
          1e-12);
    CHECK(verlet_stats.interactions == ref_stats.interactions);
}

TEST_CASE("cpu-verlet rebuilds its list when elements move or change and stays exact") {
    sim::SemParams p = test::small_domain_params();
    p.noise_D = 0.05; // move enough to force rebuilds
    sim::Elements e = test::random_elements(p, 1000, 25, 11, 1.0);
    auto verlet = sim::make_backend("cpu-verlet", p);
    auto reference = sim::make_backend("cpu-allpairs", p);
    sim::ForceField fv, fr;
    for (int round = 0; round < 5; ++round) {
        verlet->advance(e, 20 * round, 20);
        verlet->compute_forces(e, fv);
        reference->compute_forces(e, fr);
        INFO("round " << round);
        CHECK(test::relative_difference(fv, fr) < 1e-12);
    }
    const std::string report = verlet->take_report();
    INFO(report);
    CHECK(report.find("list builds 1 / ") == std::string::npos); // it did rebuild
    // A changed element set (one element fewer) is noticed at once.
    for (auto* v : {&e.x, &e.y, &e.z})
        v->pop_back();
    e.id.pop_back();
    e.cell.pop_back();
    e.adhesive.pop_back();
    verlet->compute_forces(e, fv);
    reference->compute_forces(e, fr);
    CHECK(test::relative_difference(fv, fr) < 1e-12);
}

TEST_CASE("bins wider than the cutoff give the same forces") {
    sim::SemParams p = test::small_domain_params();
    const sim::Elements e = test::random_elements(p, 800, 20, 9);
    const sim::ForceField narrow = forces_of("cpu-binned", p, e);
    p.bin_edge = 3.1;
    CHECK(test::relative_difference(forces_of("cpu-binned", p, e), narrow) < 1e-12);
}

TEST_CASE("force is minus the finite-difference gradient of the energy") {
    const sim::SemParams p = test::small_domain_params();
    // Dense enough that most elements interact; walls and adhesion included.
    sim::Elements e = test::random_elements(p, 300, 6, 4);
    const sim::ForceField f = forces_of("cpu-binned", p, e);
    const double h = 1e-6;
    double worst = 0.0;
    for (std::size_t i = 0; i < e.size(); i += 7) {
        for (int axis = 0; axis < 3; ++axis) {
            std::vector<double>& coord = axis == 0 ? e.x : (axis == 1 ? e.y : e.z);
            const double saved = coord[i];
            coord[i] = saved + h;
            const double up = sim::total_energy(e, p);
            coord[i] = saved - h;
            const double down = sim::total_energy(e, p);
            coord[i] = saved;
            const double numeric = -(up - down) / (2.0 * h);
            const double analytic = axis == 0 ? f.x[i] : (axis == 1 ? f.y[i] : f.z[i]);
            worst = std::max(worst, std::abs(numeric - analytic) / (1.0 + std::abs(analytic)));
        }
    }
    CHECK(worst < 1e-6);
}

TEST_CASE("pair forces conserve momentum when there is no external potential") {
    sim::SemParams p = test::small_domain_params();
    p.external = false;
    const sim::Elements e = test::random_elements(p, 1200, 30, 5);
    for (const char* backend : {"cpu-allpairs", "cpu-binned", "cpu-verlet"}) {
        const sim::ForceField f = forces_of(backend, p, e);
        double sx = 0.0, sy = 0.0, sz = 0.0, magnitude = 0.0;
        for (std::size_t i = 0; i < e.size(); ++i) {
            sx += f.x[i];
            sy += f.y[i];
            sz += f.z[i];
            magnitude += std::abs(f.x[i]) + std::abs(f.y[i]) + std::abs(f.z[i]);
        }
        INFO(backend);
        CHECK(magnitude > 1.0);
        CHECK(std::abs(sx) + std::abs(sy) + std::abs(sz) < 1e-12 * magnitude);
    }
}

TEST_CASE("OpenMP schedule and thread count do not change a bit of the forces") {
    sim::SemParams p = test::small_domain_params();
    const sim::Tissue t = test::grown_tissue(p, 300);
    for (const char* backend : {"cpu-binned", "cpu-verlet"}) {
        p.omp_schedule = "adaptive";
        const sim::ForceField reference = forces_of(backend, p, t.elements);
        for (const char* schedule : {"static", "dynamic", "adaptive"}) {
            p.omp_schedule = schedule;
            for (int threads : {1, 2, 3}) {
                omp_set_num_threads(threads);
                INFO(backend << ", " << schedule << " with " << threads << " threads");
                CHECK(bitwise_equal(forces_of(backend, p, t.elements), reference));
            }
        }
    }
    omp_set_num_threads(omp_get_num_procs());
}

TEST_CASE("the vectorisable exp of the list kernel agrees with libm's to a few ulp") {
    // exp_arith replaces std::exp inside cpu-verlet's vectorised pair loop; its range is
    // [-708, 0]. Over a dense sweep of that range and the pair loop's typical arguments:
    double worst = 0.0;
    for (int i = 0; i <= 2000000; ++i) {
        const double x = -708.0 * static_cast<double>(i) / 2000000.0;
        const double want = std::exp(x);
        worst = std::max(worst, std::abs(sim::lanes::exp_arith(x) - want) / want);
    }
    for (int i = 0; i <= 100000; ++i) {
        const double x = -30.0 * static_cast<double>(i) / 100000.0;
        worst = std::max(worst, std::abs(sim::lanes::exp_arith(x) - std::exp(x)) / std::exp(x));
    }
    INFO("largest relative difference " << worst);
    CHECK(worst < 1e-15); // a few ulp (one ulp is 2.2e-16 relative)
    CHECK(sim::lanes::exp_arith(0.0) == 1.0);
    CHECK(sim::lanes::exp_arith(-std::log(2.0) * 10.0) == Approx(1.0 / 1024.0).epsilon(1e-15));
}

TEST_CASE("the external potential holds elements off the membrane and adheres basal cells") {
    sim::SemParams p;
    const sim::ExternalEvaluator ext(p);
    double fx = 0.0, fy = 0.0, fz = 0.0, energy = 0.0;
    ext.evaluate(5.0, 5.0, 0.05, false, fx, fy, fz, energy);
    CHECK(fz > 0.0); // exclusion pushes up
    CHECK(fx == 0.0);
    double fz_adhesive = 0.0;
    ext.evaluate(5.0, 5.0, 1.0, true, fx, fy, fz_adhesive, energy);
    double fz_plain = 0.0;
    ext.evaluate(5.0, 5.0, 1.0, false, fx, fy, fz_plain, energy);
    CHECK(fz_adhesive < fz_plain); // adhesion pulls basal cells down
}
