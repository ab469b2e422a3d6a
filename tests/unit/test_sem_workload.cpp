// The per-slab workload of the simulator against brute-force counts, and the
// workload-aware initial partition.
#include "../support/sem_samples.hpp"

#include "cellshift/controller/layout.hpp"
#include "cellshift/sim/bin_grid.hpp"
#include "cellshift/sim/lifecycle.hpp"
#include "cellshift/sim/slab_workload.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

using namespace cellshift;

namespace {

// Elements whose bin is within one bin (in every direction) of bin (bx, by, bz),
// by looking at every element: an independent count of the 3x3x3 neighbourhood.
double brute_neighbourhood(const sim::Elements& e, const sim::BinGrid& g, double x, double y,
                           double z) {
    const int bx = sim::BinGrid::coordinate(x, g.ex, g.nx);
    const int by = sim::BinGrid::coordinate(y, g.ey, g.ny);
    const int bz = sim::BinGrid::coordinate(z, g.ez, g.nz);
    double n = 0;
    for (std::size_t j = 0; j < e.size(); ++j) {
        const int jx = sim::BinGrid::coordinate(e.x[j], g.ex, g.nx);
        const int jy = sim::BinGrid::coordinate(e.y[j], g.ey, g.ny);
        const int jz = sim::BinGrid::coordinate(e.z[j], g.ez, g.nz);
        n += std::abs(jx - bx) <= 1 && std::abs(jy - by) <= 1 && std::abs(jz - bz) <= 1 ? 1 : 0;
    }
    return n;
}

} // namespace

TEST_CASE("per-slab cell workload is n_i * n_N(i) summed by centroid slab") {
    const sim::SemParams p = test::small_domain_params();
    const sim::Tissue t = test::grown_tissue(p, 400);
    const std::int64_t slabs = 12;
    const std::vector<double> w = sim::cell_workload_per_slab(t, p, slabs);
    const sim::BinGrid g(p.Lx, p.Ly, p.Lz, p.effective_bin_edge());
    std::vector<double> expected(slabs, 0.0);
    for (const sim::Cell& c : t.cells) {
        double x = 0, y = 0, z = 0;
        for (std::size_t i = 0; i < t.elements.size(); ++i) {
            if (t.elements.cell[i] != c.id)
                continue;
            x += t.elements.x[i];
            y += t.elements.y[i];
            z += t.elements.z[i];
        }
        x /= c.elements;
        y /= c.elements;
        z /= c.elements;
        expected[static_cast<std::size_t>(sim::slab_of(x, p.Lx, slabs))] +=
            c.elements * brute_neighbourhood(t.elements, g, x, y, z);
    }
    for (std::int64_t k = 0; k < slabs; ++k) {
        CHECK(w[static_cast<std::size_t>(k)] == Approx(expected[static_cast<std::size_t>(k)]));
    }
    // The tissue started in the first 40% of the domain: the far slabs are empty.
    CHECK(w.back() == 0.0);
    CHECK(w.front() > 0.0);
}

TEST_CASE("per-slab interaction estimate counts each element's 3x3x3 neighbourhood") {
    const sim::SemParams p = test::small_domain_params();
    const sim::Elements e = test::random_elements(p, 700, 10, 3);
    sim::Tissue t;
    t.elements = e;
    const sim::BinGrid g(p.Lx, p.Ly, p.Lz, p.effective_bin_edge());
    const std::vector<double> w = sim::interaction_estimate_per_slab(t, p, 6);
    double total = 0;
    for (std::size_t i = 0; i < e.size(); ++i)
        total += brute_neighbourhood(e, g, e.x[i], e.y[i], e.z[i]);
    CHECK(std::accumulate(w.begin(), w.end(), 0.0) == Approx(total));

    // One slab per bin column: every element on its own slab, element by element.
    const std::int64_t slabs = g.nx;
    std::vector<double> expected(static_cast<std::size_t>(slabs), 0.0);
    for (std::size_t i = 0; i < e.size(); ++i)
        expected[static_cast<std::size_t>(sim::slab_of(e.x[i], p.Lx, slabs))] +=
            brute_neighbourhood(e, g, e.x[i], e.y[i], e.z[i]);
    CHECK(sim::interaction_estimate_per_slab(t, p, slabs) == expected);

    // Split between two owners by x, each counting its own: the sum of their
    // counts gives the whole tissue's estimate, wherever the split is.
    for (const double cut : {0.3 * p.Lx, 0.55 * p.Lx}) {
        sim::Elements left, right;
        for (std::size_t i = 0; i < e.size(); ++i)
            (e.x[i] < cut ? left : right)
                .push_back(e.x[i], e.y[i], e.z[i], e.id[i], e.cell[i], e.adhesive[i] != 0);
        std::vector<double> count = sim::element_count_per_bin(left, p);
        const std::vector<double> theirs = sim::element_count_per_bin(right, p);
        for (std::size_t b = 0; b < count.size(); ++b)
            count[b] += theirs[b];
        CHECK(sim::interaction_estimate_per_slab(count, p, slabs) == expected);
    }
    CHECK_THROWS_WITH(sim::interaction_estimate_per_slab(std::vector<double>(3, 1.0), p, slabs),
                      Catch::Contains("per-bin counts for 3 bins"));
}

TEST_CASE("the initial partition follows the workload and honours w_min") {
    sim::SemParams p = test::small_domain_params();
    const sim::Tissue t = sim::make_basal_patch(p); // over the first 40% along x
    controller::Layout layout{48, 4, 2};
    const controller::Boundaries b = sim::initial_partition(t, p, layout);
    REQUIRE(b.size() == 5);
    CHECK(b.front() == 0);
    CHECK(b.back() == 48);
    for (std::size_t k = 0; k + 1 < b.size(); ++k)
        CHECK(b[k + 1] - b[k] >= 2);
    // Three of the four ranks share the patch, the last takes the empty rest.
    CHECK(b[3] <= 24);
    CHECK(b[3] > b[2]);
    // P * w_min > S cannot be partitioned.
    CHECK_THROWS(sim::initial_partition(t, p, controller::Layout{8, 4, 3}));
}

TEST_CASE("a bin's coordinates invert its index on an uneven grid") {
    const sim::BinGrid g(7.0, 5.0, 3.0, 1.0); // 7 x 5 x 3: every axis a different size
    REQUIRE(g.count() == 105);
    int visited = 0;
    for (int x = 0; x < g.nx; ++x)
        for (int y = 0; y < g.ny; ++y)
            for (int z = 0; z < g.nz; ++z) {
                int bx = -1, by = -1, bz = -1;
                g.coordinates(g.index(x, y, z), bx, by, bz);
                CHECK((bx == x && by == y && bz == z));
                ++visited;
            }
    CHECK(visited == g.count());
}
