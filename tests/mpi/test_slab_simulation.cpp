// The slab decomposition against independent truth: the one-process Simulation
// (serial lifecycle numbering, backend->advance) is the reference trajectory;
// element and cell counts follow from the lifecycle's own event counts; an
// uninterrupted run is the reference for a restarted one.

#include "cellshift/controller/policy.hpp"
#include "cellshift/data/checkpoint.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/simulation.hpp"
#include "cellshift/sim/slab_simulation.hpp"

#include <catch2/catch.hpp>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>

using namespace cellshift;

namespace {

int world_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int world_size() {
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

// Wide enough for 4 ranks of >= 3 slabs of 2 bins' width; fast growth, so cells
// divide, move and change owner within a few hundred steps.
sim::SemParams mpi_params() {
    sim::SemParams p;
    p.Lx = 48.0;
    p.Ly = 8.0;
    p.Lz = 10.0;
    p.cycle_time = 4.0;
    p.patch_fraction = 0.6;
    return p;
}

sim::BalanceOptions balance_for(const std::string& policy) {
    sim::BalanceOptions b;
    b.slabs = 24;
    b.w_min = 3;
    b.rebalance_every = 40;
    b.policy = policy;
    b.controller_file = CELLSHIFT_SHIPPED_CONTROLLER;
    return b;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Rank 0's verdict, on every rank (so every rank's CHECK agrees and no rank
// leaves a test case early).
bool on_every_rank(bool verdict) {
    int v = verdict ? 1 : 0;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v != 0;
}

bool same_tissue(const sim::Tissue& a, const sim::Tissue& b) {
    if (a.cells.size() != b.cells.size() || a.elements.id != b.elements.id ||
        a.elements.cell != b.elements.cell || a.next_cell_id != b.next_cell_id)
        return false;
    for (std::size_t c = 0; c < a.cells.size(); ++c) {
        const sim::Cell &x = a.cells[c], &y = b.cells[c];
        if (x.id != y.id || x.type != y.type || x.elements != y.elements ||
            x.generation != y.generation || x.age != y.age || x.growth_credit != y.growth_credit)
            return false;
    }
    return same_bits(a.elements.x, b.elements.x) && same_bits(a.elements.y, b.elements.y) &&
           same_bits(a.elements.z, b.elements.z);
}

constexpr std::int64_t kSteps = 800;

const sim::Tissue& serial_reference() {
    static const sim::Tissue reference = [] {
        sim::Simulation serial(mpi_params(), sim::make_backend("cpu-binned", mpi_params()));
        serial.run(kSteps);
        return serial.tissue();
    }();
    return reference;
}

// What a cpu-binned SlabSimulation decided under one policy: its boundaries at every
// event and the pairs it counted (the model clock). Filled by the first test case, so
// the portable-backend case below need not rerun cpu-binned (it does when run alone).
struct Decisions {
    std::vector<std::vector<std::int64_t>> boundaries;
    std::int64_t interactions = 0;
};
std::map<std::string, Decisions>& cpu_decisions() {
    static std::map<std::string, Decisions> decisions;
    return decisions;
}
Decisions decisions_of(const sim::SlabSimulation& slab) {
    Decisions d;
    for (const sim::BalanceEvent& e : slab.events())
        d.boundaries.push_back(e.boundaries);
    d.interactions = slab.totals().interactions;
    return d;
}

// Holds the boundaries and records how many intervals each event's observation said
// were left (rank 0's policy decides; the others record nothing).
class RecordingPolicy : public controller::Policy {
public:
    explicit RecordingPolicy(std::vector<std::int64_t>* told) : told_(told) {}

protected:
    controller::Boundaries next(const controller::Observation& o) override {
        told_->push_back(o.intervals_left);
        return boundaries();
    }

private:
    std::vector<std::int64_t>* told_;
};

// The counts a SlabSimulation told its policy over `steps` steps of a run that ends at
// `last_step` (0: not set), rebalancing every 40 steps; on every rank (rank 0's).
std::vector<std::int64_t> intervals_told(std::int64_t last_step, std::int64_t steps) {
    std::vector<std::int64_t> told;
    sim::SlabSimulation slab(MPI_COMM_WORLD, mpi_params(), balance_for("static"), "cpu-binned",
                             "test");
    slab.use_policy(std::make_unique<RecordingPolicy>(&told));
    if (last_step > 0)
        slab.set_last_step(last_step);
    slab.run(steps);
    auto n = static_cast<std::int64_t>(told.size());
    MPI_Bcast(&n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    told.resize(static_cast<std::size_t>(n));
    MPI_Bcast(told.data(), static_cast<int>(n), MPI_INT64_T, 0, MPI_COMM_WORLD);
    return told;
}

} // namespace

TEST_CASE("the policy is told how many rebalancing intervals the run has left") {
    using counts = std::vector<std::int64_t>;
    // Events every 40 steps. Ending at 200: after the event at 40 the intervals
    // (40,80] .. (160,200] remain, 4; at 200 itself the count stays at 1.
    CHECK(intervals_told(200, 200) == counts{4, 3, 2, 1, 1});
    // Ending at 190: the last interval (160,190] is cut short and still counts.
    CHECK(intervals_told(190, 190) == counts{4, 3, 2, 1});
    // A run told a later end than it reaches this invocation (a run split by restarts).
    CHECK(intervals_told(400, 120) == counts{9, 8, 7});
    // No end set: not known.
    CHECK(intervals_told(0, 120) == counts{0, 0, 0});
}

TEST_CASE("P ranks reproduce the one-process trajectory bitwise, under every policy") {
    const sim::Tissue initial = sim::make_basal_patch(mpi_params());
    for (const std::string policy : {"persistence", "holt", "reactive", "rnn", "static"}) {
        INFO("policy " << policy << ", " << world_size() << " ranks");
        sim::SlabSimulation slab(MPI_COMM_WORLD, mpi_params(), balance_for(policy), "cpu-binned",
                                 "test");
        slab.run(kSteps);
        cpu_decisions()[policy] = decisions_of(slab);
        std::vector<int> owners;
        const sim::Tissue whole = slab.gather(&owners);
        bool equal = false, grew = false, conserved = false, widths_ok = true;
        std::int64_t moved = 0, slabs_moved = 0;
        if (world_rank() == 0) {
            const sim::Tissue& ref = serial_reference();
            equal = same_tissue(whole, ref);
            const sim::BalanceTotals& t = slab.totals();
            grew = t.divisions > 10 && whole.cells.size() > initial.cells.size();
            // Growth adds elements, a division turns one cell into two.
            conserved = static_cast<std::int64_t>(whole.elements.size()) ==
                            static_cast<std::int64_t>(initial.elements.size()) + t.elements_added &&
                        static_cast<std::int64_t>(whole.cells.size()) ==
                            static_cast<std::int64_t>(initial.cells.size()) + t.divisions;
            for (const sim::BalanceEvent& e : slab.events()) {
                moved += e.migrated_elements;
                slabs_moved += e.migrated_slices;
                for (std::size_t p = 0; p + 1 < e.boundaries.size(); ++p)
                    widths_ok = widths_ok && e.boundaries[p + 1] - e.boundaries[p] >= 3;
            }
            INFO("divisions " << t.divisions << ", slabs migrated " << slabs_moved
                              << ", elements moved " << moved);
            CHECK(slab.events().size() == static_cast<std::size_t>(kSteps / 40));
        }
        CHECK(on_every_rank(equal));
        CHECK(on_every_rank(grew));
        CHECK(on_every_rank(conserved));
        CHECK(on_every_rank(widths_ok));
        if (world_size() > 1 &&
            (policy == std::string("persistence") || policy == std::string("holt"))) {
            // The forecast policies repartition from scratch: boundaries move and cells
            // change owner, so the equality above covered migration.
            CHECK(on_every_rank(slabs_moved > 0 && moved > 0));
        }
    }
}

#ifdef CELLSHIFT_HAVE_THRUST_OMP
// The GPU backends' source (on Thrust's OpenMP system, so it runs without a GPU)
// driven by the slab decomposition: ghosts as partners only, migration and moving
// boundaries, and still the one-process cpu-binned trajectory, bitwise.
TEST_CASE("P ranks with the portable GPU backend reproduce the one-process trajectory") {
    if (cpu_decisions().count("holt") == 0) {
        sim::SlabSimulation cpu(MPI_COMM_WORLD, mpi_params(), balance_for("holt"), "cpu-binned",
                                "test");
        cpu.run(kSteps);
        cpu_decisions()["holt"] = decisions_of(cpu);
    }
    sim::SlabSimulation slab(MPI_COMM_WORLD, mpi_params(), balance_for("holt"), "thrust-omp-binned",
                             "test");
    slab.run(kSteps);
    const sim::Tissue whole = slab.gather(nullptr);
    bool equal = false, same_decisions = false;
    std::int64_t moved = 0, slabs_moved = 0;
    if (world_rank() == 0) {
        equal = same_tissue(whole, serial_reference());
        // Pairs counted over owned elements only (ghosts are partners): the model
        // clock, hence every balancing decision, is cpu-binned's.
        const Decisions mine = decisions_of(slab);
        const Decisions& cpu = cpu_decisions().at("holt");
        same_decisions = mine.interactions == cpu.interactions && mine.boundaries == cpu.boundaries;
        for (const sim::BalanceEvent& e : slab.events()) {
            moved += e.migrated_elements;
            slabs_moved += e.migrated_slices;
        }
        INFO("slabs migrated " << slabs_moved << ", elements moved " << moved);
    }
    CHECK(on_every_rank(equal));
    CHECK(on_every_rank(same_decisions));
    if (world_size() > 1)
        CHECK(on_every_rank(slabs_moved > 0 && moved > 0));
}
#endif

TEST_CASE("element ids are unique and every element belongs to one present cell") {
    sim::SlabSimulation slab(MPI_COMM_WORLD, mpi_params(), balance_for("persistence"), "cpu-binned",
                             "test");
    slab.run(400);
    // Locally: every element's cell is here (cells move with all their elements).
    bool local_ok = true;
    for (std::int64_t cell : slab.local().elements.cell)
        local_ok = local_ok && slab.local().find_cell(cell) >= 0;
    int ok = local_ok ? 1 : 0, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    CHECK(all == 1);
    const sim::Tissue whole = slab.gather(nullptr);
    bool unique = true;
    if (world_rank() == 0) {
        for (std::size_t i = 1; i < whole.elements.size(); ++i)
            unique = unique && whole.elements.id[i] > whole.elements.id[i - 1];
        for (std::size_t c = 1; c < whole.cells.size(); ++c)
            unique = unique && whole.cells[c].id > whole.cells[c - 1].id;
    }
    CHECK(on_every_rank(unique));
}

TEST_CASE("slab estimate `cost`: the policy sees the model clock's cost of the last step") {
    // With an event after every step, the trace's cost row of an interval is that one
    // step's model-clock cost per slab (cells on the slab that decided their owner),
    // independent accounting of the same sums: the estimate the policy saw, the same
    // step costed with cells on their current slab, must have the same total.
    sim::BalanceOptions b = balance_for("holt");
    b.rebalance_every = 1;
    b.slab_estimate = sim::SlabEstimate::cost;
    sim::SlabSimulation slab(MPI_COMM_WORLD, mpi_params(), b, "cpu-binned", "test");
    slab.record_trace();
    slab.run(120);
    const data::Trace trace = slab.trace("test");
    bool totals_agree = false;
    if (world_rank() == 0) {
        REQUIRE(trace.estimate.has_value());
        REQUIRE(trace.events() == 120);
        totals_agree = true;
        for (std::size_t e = 0; e < trace.events(); ++e) {
            double cost = 0.0, estimate = 0.0;
            for (std::size_t s = 0; s < trace.slices(); ++s) {
                cost += trace.workload(e, s);
                estimate += (*trace.estimate)(e, s);
            }
            INFO("event " << e << ": cost " << cost << " s, estimate " << estimate << " s");
            totals_agree = totals_agree && cost > 0.0 && std::abs(estimate - cost) <= 1e-12 * cost;
        }
    }
    CHECK(on_every_rank(totals_agree));
}

TEST_CASE("a run restarted from its checkpoint continues exactly") {
    const std::string path = "/tmp/cellshift-mpi-restart-" + std::to_string(getppid()) + ".h5";
    for (const std::string policy : {"rnn", "holt"}) {
        INFO("policy " << policy);
        sim::SlabSimulation straight(MPI_COMM_WORLD, mpi_params(), balance_for(policy),
                                     "cpu-binned", "config A");
        straight.run(500);
        const sim::Tissue reference = straight.gather(nullptr);

        sim::SlabSimulation first(MPI_COMM_WORLD, mpi_params(), balance_for(policy), "cpu-binned",
                                  "config A");
        first.run(260); // not on an event: the interval's times are in the checkpoint
        const data::Checkpoint saved = first.checkpoint();
        if (world_rank() == 0)
            data::write_checkpoint(path, saved);
        MPI_Barrier(MPI_COMM_WORLD);
        const data::Checkpoint loaded = data::read_checkpoint(path);
        sim::SlabSimulation second(MPI_COMM_WORLD, mpi_params(), balance_for(policy), "cpu-binned",
                                   "config A", &loaded);
        second.run(240);
        const sim::Tissue resumed = second.gather(nullptr);
        bool same = false, same_events = false;
        if (world_rank() == 0) {
            same = same_tissue(resumed, reference);
            const auto& a = straight.events();
            const auto& b = second.events();
            same_events = a.size() == b.size();
            for (std::size_t k = 0; same_events && k < a.size(); ++k) {
                same_events = a[k].boundaries == b[k].boundaries &&
                              same_bits(a[k].rank_time, b[k].rank_time) &&
                              a[k].migrated_elements == b[k].migrated_elements;
            }
            same_events =
                same_events && straight.totals().model.runtime == second.totals().model.runtime;
        }
        CHECK(on_every_rank(same));
        CHECK(on_every_rank(same_events));

        // A different configuration or rank count is refused on every rank.
        CHECK_THROWS_AS(sim::SlabSimulation(MPI_COMM_WORLD, mpi_params(), balance_for(policy),
                                            "cpu-binned", "config B", &loaded),
                        sim::CollectiveError);
        MPI_Barrier(MPI_COMM_WORLD);
        if (world_rank() == 0)
            std::remove(path.c_str());
    }
}

TEST_CASE("bad setups fail on every rank with one message, no hang") {
    const int P = world_size();
    const auto message = [&](const sim::BalanceOptions& b) {
        try {
            sim::SlabSimulation s(MPI_COMM_WORLD, mpi_params(), b, "cpu-binned", "test");
        } catch (const sim::CollectiveError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    sim::BalanceOptions too_many = balance_for("static");
    too_many.w_min = 24 / P + 1;
    CHECK_THAT(message(too_many), Catch::Contains("P * w_min <= S"));
    sim::BalanceOptions unknown = balance_for("magic");
    CHECK_THAT(message(unknown), Catch::Contains("unknown policy 'magic'"));
    sim::BalanceOptions missing = balance_for("rnn");
    missing.controller_file = "/nonexistent/controller.h5";
    CHECK_THAT(message(missing), Catch::Contains("/nonexistent/controller.h5"));
    sim::BalanceOptions odd = balance_for("static");
    odd.slabs = 7; // 48 / 7 is no whole number of bins
    CHECK_THAT(message(odd), Catch::Contains("not a whole number of bins"));
}
