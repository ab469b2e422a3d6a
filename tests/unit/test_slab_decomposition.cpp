// The MPI-free half of the slab decomposition: slab geometry, owners, the
// neighbour-only ghost condition, and the cell/element messages.

#include "../support/sem_samples.hpp"
#include "cellshift/sim/balance_options.hpp"
#include "cellshift/sim/element_parcel.hpp"
#include "cellshift/sim/lifecycle.hpp"
#include "cellshift/sim/slab_decomposition.hpp"
#include "cellshift/sim/slab_workload.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace cellshift;

TEST_CASE("the intervals a run has left after an event, the last one cut short included",
          "[sim][decomposition]") {
    CHECK(sim::rebalance_intervals_left(0, 1000, 100) == 10);
    CHECK(sim::rebalance_intervals_left(100, 1000, 100) == 9);
    CHECK(sim::rebalance_intervals_left(900, 1000, 100) == 1);
    CHECK(sim::rebalance_intervals_left(900, 950, 100) == 1); // 50 steps: still one
    CHECK(sim::rebalance_intervals_left(800, 950, 100) == 2);
    CHECK(sim::rebalance_intervals_left(1000, 1000, 100) == 1); // nothing left: the least
    CHECK(sim::rebalance_intervals_left(100, 0, 100) == 0);     // the end is not known
    CHECK(sim::rebalance_intervals_left(100, 1000, 0) == 0);    // nothing rebalances
}

TEST_CASE("slabs must be whole bins; owners follow the boundaries", "[sim][decomposition]") {
    sim::SemParams p; // Lx 96, bin edge 2: 48 bin columns
    CHECK_NOTHROW(sim::validate_slabs(p, 48));
    CHECK_NOTHROW(sim::validate_slabs(p, 24));
    CHECK_THROWS_WITH(sim::validate_slabs(p, 64), Catch::Contains("not a whole number of bins"));
    CHECK_THROWS_WITH(sim::validate_slabs(p, 96), Catch::Contains("not a whole number of bins"));
    const controller::Boundaries b{0, 3, 10, 12};
    CHECK(sim::owner_of_slab(0, b) == 0);
    CHECK(sim::owner_of_slab(2, b) == 0);
    CHECK(sim::owner_of_slab(3, b) == 1);
    CHECK(sim::owner_of_slab(9, b) == 1);
    CHECK(sim::owner_of_slab(10, b) == 2);
    CHECK(sim::owner_of_slab(11, b) == 2);
}

TEST_CASE("ghosts from neighbours suffice unless a rank reaches past one", "[sim][decomposition]") {
    const double rc = 2.0;
    using E = sim::Extent;
    // Three ranks, the middle one 6 wide: ranks 0 and 2 are 6 - 2 x 0 apart.
    CHECK(sim::ghost_reach_problem({E{0, 10}, E{10, 16}, E{18.5, 30}}, rc).empty());
    // Rank 0's elements reach to 17 and rank 2's start at 18.5: within the cutoff.
    const std::string problem = sim::ghost_reach_problem({E{0, 17}, E{10, 16}, E{18.5, 30}}, rc);
    CHECK_THAT(problem, Catch::Contains("ranks 0 and 2 are not neighbours"));
    // Empty ranks never interact.
    CHECK(sim::ghost_reach_problem({E{0, 17}, E{}, E{18, 30}}, rc).find("ranks 0 and 2") !=
          std::string::npos);
    CHECK(sim::ghost_reach_problem({E{0, 17}, E{}, E{}}, rc).empty());
    CHECK(sim::in_ghost_window(12.0, E{14, 20}, rc));
    CHECK_FALSE(sim::in_ghost_window(11.9, E{14, 20}, rc));
    CHECK_FALSE(sim::in_ghost_window(15.0, E{}, rc));
}

TEST_CASE("cells travel with all their elements and come back identical", "[sim][decomposition]") {
    const sim::SemParams p = test::small_domain_params();
    const sim::Tissue grown = test::grown_tissue(p, 300);
    REQUIRE(grown.cells.size() > 10);
    const controller::Boundaries b{0, 4, 8, 12};
    const std::vector<int> owner = sim::cell_owners(grown, p, b);
    // The owner is the slab of the centroid, computed independently here.
    for (std::size_t c = 0; c < grown.cells.size(); ++c) {
        double sum = 0.0;
        for (std::size_t i = 0; i < grown.elements.size(); ++i)
            sum += grown.elements.cell[i] == grown.cells[c].id ? grown.elements.x[i] : 0.0;
        const double cx = sum / grown.cells[c].elements;
        CHECK(owner[c] == sim::owner_of_slab(sim::slab_of(cx, p.Lx, 12), b));
    }
    // Split three ways, then reassemble: the same tissue, element for element.
    sim::Tissue keep = grown;
    auto out = sim::pack_cells(keep, owner, 1, 3);
    CHECK(out[1].empty());
    for (const sim::Cell& c : keep.cells)
        CHECK(owner[static_cast<std::size_t>(grown.find_cell(c.id))] == 1);
    sim::Tissue back = keep;
    sim::unpack_cells(back, out[0].data(), out[0].size());
    sim::unpack_cells(back, out[2].data(), out[2].size());
    CHECK(back.elements.id == grown.elements.id);
    CHECK(back.elements.x == grown.elements.x);
    CHECK(back.elements.cell == grown.elements.cell);
    REQUIRE(back.cells.size() == grown.cells.size());
    for (std::size_t c = 0; c < back.cells.size(); ++c) {
        CHECK(back.cells[c].id == grown.cells[c].id);
        CHECK(back.cells[c].elements == grown.cells[c].elements);
        CHECK(back.cells[c].age == grown.cells[c].age);
    }
    // A truncated message is an error, not a crash.
    CHECK_THROWS_WITH(sim::unpack_cells(back, out[0].data(), out[0].size() - 3),
                      Catch::Contains("truncated"));
}

TEST_CASE("own elements and ghosts merge in id order", "[sim][decomposition]") {
    const sim::Tissue grown = test::grown_tissue(test::small_domain_params(), 50);
    sim::Elements owned;
    std::vector<sim::ElementRecord> ghosts;
    for (std::size_t i = 0; i < grown.elements.size(); ++i) {
        if (i % 3 == 0)
            sim::append_element(ghosts, grown.elements, i);
        else
            owned.push_back(grown.elements.x[i], grown.elements.y[i], grown.elements.z[i],
                            grown.elements.id[i], grown.elements.cell[i],
                            grown.elements.adhesive[i] != 0);
    }
    sim::LocalView view;
    sim::merge_with_ghosts(owned, ghosts, view);
    CHECK(view.elements.id == grown.elements.id);
    CHECK(view.elements.x == grown.elements.x);
    for (std::size_t k = 0; k < view.active.size(); ++k) {
        CHECK((view.active[k] == 1) == (k % 3 != 0));
        if (view.active[k] == 1)
            CHECK(owned.id[view.own_index[k]] == view.elements.id[k]);
    }
}

TEST_CASE("daughter numbering: local and global agree for the whole tissue", "[sim][lifecycle]") {
    const auto ids = sim::number_daughters_locally({4, 9, 30}, 100);
    CHECK(ids.total_divisions == 3);
    CHECK(ids.first == std::vector<std::int64_t>{100, 102, 104});
}
