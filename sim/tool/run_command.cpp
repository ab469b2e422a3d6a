#include "run_command.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/snapshot.hpp"
#include "cellshift/sim/bin_grid.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/mpi_helpers.hpp"
#include "cellshift/sim/simulation.hpp"
#include "cellshift/sim/slab_simulation.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace cellshift::sim::tool {

namespace {

// A one-line progress bar on stderr, redrawn in place, only on a terminal.
class ProgressBar {
public:
    explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
    void show(std::int64_t done, std::int64_t total, double seconds) {
        if (!enabled_ || total <= 0)
            return;
        const double f = static_cast<double>(done) / static_cast<double>(total);
        const int width = 30;
        const int filled = static_cast<int>(f * width);
        const double eta = done > 0 ? seconds * (1.0 - f) / f : 0.0;
        std::fprintf(stderr, "\r[%s%s] %3d%% step %lld/%lld, eta %.0f s ",
                     std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), '.').c_str(),
                     static_cast<int>(100.0 * f), static_cast<long long>(done),
                     static_cast<long long>(total), eta);
        std::fflush(stderr);
    }
    void clear() {
        if (enabled_)
            std::fprintf(stderr, "\r%60s\r", "");
    }

private:
    bool enabled_;
};

data::Snapshot snapshot_of(const Tissue& t, const std::vector<int>& owners, const SemParams& p) {
    data::Snapshot s;
    s.step = t.step;
    s.time = t.time;
    s.domain = {p.Lx, p.Ly, p.Lz};
    s.source = "cellshift-sim run";
    const std::size_t n = t.elements.size();
    s.positions = data::Matrix(n, 3);
    s.element_id = t.elements.id;
    s.cell_id = t.elements.cell;
    s.cell_type.resize(n);
    s.rank.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        s.positions(i, 0) = t.elements.x[i];
        s.positions(i, 1) = t.elements.y[i];
        s.positions(i, 2) = t.elements.z[i];
        const auto c = static_cast<std::size_t>(t.find_cell(t.elements.cell[i]));
        s.cell_type[i] = static_cast<std::int64_t>(t.cells[c].type);
        s.rank[i] = owners[c];
    }
    return s;
}

class SnapshotSeries {
public:
    SnapshotSeries(std::string folder, const SemParams& params)
        : folder_(std::move(folder)), params_(params) {}
    // Collective: gathers the tissue; rank 0 writes, and a failed write (a full
    // disk) is every rank's error, reported once.
    void write(MPI_Comm comm, const SlabSimulation& sim) {
        std::vector<int> owners;
        const Tissue t = sim.gather(&owners);
        mpi::agree(comm, [&] {
            if (sim.rank() != 0)
                return;
            char name[64];
            std::snprintf(name, sizeof name, "snapshot_%09lld.h5", static_cast<long long>(t.step));
            data::write_snapshot(folder_ + "/" + name, snapshot_of(t, owners, params_));
            frames_.push_back({name, t.time, static_cast<std::int64_t>(t.elements.size()), true});
            data::write_xdmf(folder_ + "/tissue.xdmf", frames_);
        });
    }
    std::size_t count() const { return frames_.size(); }

private:
    std::string folder_;
    SemParams params_;
    std::vector<data::XdmfFrame> frames_;
};

// The whole tissue's census from every rank's part (collective).
TissueCensus global_census(MPI_Comm comm, const Tissue& local) {
    const TissueCensus mine = census(local);
    std::int64_t counts[4] = {mine.elements, mine.cells[0], mine.cells[1], mine.cells[2]};
    std::int64_t sums[4];
    MPI_Allreduce(counts, sums, 4, MPI_INT64_T, MPI_SUM, comm);
    const bool empty = mine.elements == 0;
    double highs[3] = {empty ? -1e300 : -mine.x_min, empty ? -1e300 : mine.x_max,
                       empty ? -1e300 : mine.z_max};
    double maxima[3];
    MPI_Allreduce(highs, maxima, 3, MPI_DOUBLE, MPI_MAX, comm);
    TissueCensus c;
    c.elements = sums[0];
    c.cells = {sums[1], sums[2], sums[3]};
    c.x_min = -maxima[0];
    c.x_max = maxima[1];
    c.z_max = maxima[2];
    return c;
}

void print_header() {
    std::cout << std::setw(9) << "step" << std::setw(9) << "time" << std::setw(7) << "cells"
              << std::setw(6) << "stem" << std::setw(6) << "TA" << std::setw(7) << "supra"
              << std::setw(9) << "elements" << std::setw(11) << "pairs/step" << std::setw(10)
              << "ms/step" << std::setw(12) << "elem-step/s" << std::setw(8) << "x_max"
              << "  backend notes\n";
}

void print_interval(const TissueCensus& c, std::int64_t step, double time,
                    std::int64_t interactions, std::int64_t steps, double seconds,
                    const std::string& note) {
    const double n = static_cast<double>(std::max<std::int64_t>(steps, 1));
    std::cout << std::setw(9) << step << std::setw(9) << std::fixed << std::setprecision(1) << time
              << std::setw(7) << c.total_cells() << std::setw(6) << c.cells[0] << std::setw(6)
              << c.cells[1] << std::setw(7) << c.cells[2] << std::setw(9) << c.elements
              << std::setw(11) << static_cast<long long>(static_cast<double>(interactions) / n)
              << std::setw(10) << std::setprecision(3) << 1e3 * seconds / n << std::setw(12)
              << std::scientific << std::setprecision(2);
    if (steps > 0) {
        std::cout << static_cast<double>(c.elements) * n / std::max(seconds, 1e-12);
    } else {
        std::cout << "-";
    }
    std::cout << std::fixed << std::setw(8) << std::setprecision(1) << c.x_max << "  " << note
              << "\n"
              << std::defaultfloat;
}

// The end-of-run balancing summary (GROMACS' "dynamic load balancing" report).
void print_balance_summary(const SlabSimulation& sim, double wall) {
    const auto& events = sim.events();
    const BalanceTotals& t = sim.totals();
    const BalanceOptions& b = sim.balance();
    double imbalance = 0.0;
    std::int64_t slabs = 0, moved = 0, limited_events = 0;
    for (const BalanceEvent& e : events) {
        imbalance += e.imbalance;
        slabs += e.migrated_slices;
        moved += e.migrated_elements;
        limited_events += e.limited > 0 ? 1 : 0;
    }
    const double E = static_cast<double>(std::max<std::size_t>(events.size(), 1));
    std::cout << std::fixed << std::setprecision(2)
              << "load balancing (clock: " << clock_name(b.clock) << "; policy " << b.policy << "; "
              << sim.ranks() << " ranks, " << b.slabs << " slabs, w_min " << b.w_min
              << ", events every " << b.rebalance_every << " steps)\n"
              << "  events                          " << events.size() << "\n"
              << "  mean imbalance                  " << 100.0 * imbalance / E
              << " %  (max/mean - 1 of the rank times, per event)\n"
              << "  time lost waiting for slowest   " << 100.0 * t.of(b.clock).waiting_fraction()
              << " %  of the runtime (sum over steps of max - mean)\n"
              << "  slabs migrated                  " << slabs << "  (" << moved
              << " elements moved by rebalancing)\n"
              << "  events limited by w_min         " << limited_events << "\n"
              << std::setprecision(4) << "  runtime, model clock            " << t.model.runtime
              << " s  (migration " << t.model.migration << " s, perfect balance " << t.model.mean
              << " s)\n"
              << "  runtime, measured clock         " << t.measured.runtime
              << " s  (slowest rank's busy time per step; wall " << wall << " s)\n"
              << std::defaultfloat;
}

// Collective: where the wall time went, per phase, as a block for rank 0 to print:
// the mean over ranks and the slowest rank, each as a share of the wall time. The
// decomposition's own overheads (ghost exchange, migration, decision, output) are
// summed on the last line; waiting for the slowest rank is the imbalance the
// balancer fights, reported on its own.
std::string phase_summary(MPI_Comm comm, const PhaseSeconds& phases, double output_seconds,
                          double wall) {
    constexpr int n = PhaseSeconds::kCount + 1;
    double local[n];
    std::copy(phases.begin(), phases.begin() + PhaseSeconds::kCount, local);
    local[n - 1] = output_seconds;
    double sum[n], max[n];
    MPI_Reduce(local, sum, n, MPI_DOUBLE, MPI_SUM, 0, comm);
    MPI_Reduce(local, max, n, MPI_DOUBLE, MPI_MAX, 0, comm);
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    std::ostringstream out;
    const double w = wall > 0.0 ? wall : 1.0;
    out << std::fixed << std::setprecision(3)
        << "where the wall time went (mean over ranks | slowest rank; % of the wall time)\n";
    double overhead = 0.0;
    for (int k = 0; k < n; ++k) {
        const char* name = k < PhaseSeconds::kCount ? PhaseSeconds::name(k) : "output";
        const double mean = sum[k] / ranks;
        out << "  " << std::left << std::setw(18) << name << std::right << std::setw(9) << mean
            << " s " << std::setprecision(1) << std::setw(5) << 100.0 * mean / w << " % |"
            << std::setprecision(3) << std::setw(9) << max[k] << " s " << std::setprecision(1)
            << std::setw(5) << 100.0 * max[k] / w << " %\n"
            << std::setprecision(3);
        const std::string phase = name;
        if (phase == "ghost exchange" || phase == "migration" || phase == "decision" ||
            phase == "output")
            overhead += mean;
    }
    out << std::setprecision(1) << "  decomposition overhead " << 100.0 * overhead / w
        << " % of the wall time (ghost exchange, migration, decision, output)\n";
    return out.str();
}

// Collective: gathers the state; rank 0 writes it atomically (a failed write is
// every rank's error).
void write_checkpoint(MPI_Comm comm, const SlabSimulation& sim, const std::string& path) {
    const data::Checkpoint k = sim.checkpoint();
    mpi::agree(comm, [&] {
        if (sim.rank() == 0)
            data::write_checkpoint(path, k);
    });
}

bool check_folder_of(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return parent.empty() || std::filesystem::is_directory(parent);
}

} // namespace

void write_forces_csv(const std::string& path, const Elements& e, const ForceField& f) {
    std::ostringstream out;
    out.precision(17);
    out << "id,cell,x,y,z,fx,fy,fz\n";
    for (std::size_t i = 0; i < e.size(); ++i) {
        out << e.id[i] << ',' << e.cell[i] << ',' << e.x[i] << ',' << e.y[i] << ',' << e.z[i] << ','
            << f.x[i] << ',' << f.y[i] << ',' << f.z[i] << '\n';
    }
    data::write_text_atomically(path, out.str());
}

namespace {

// Fault injection for the tests: CELLSHIFT_TEST_FAIL=RANK:STEP makes that rank
// alone fail once it has passed STEP, as a rank whose node or disk fails would.
void injected_failure(int rank, std::int64_t step) {
    static const char* text = std::getenv("CELLSHIFT_TEST_FAIL");
    if (text == nullptr)
        return;
    int fail_rank = -1;
    long long fail_step = -1;
    if (std::sscanf(text, "%d:%lld", &fail_rank, &fail_step) == 2 && rank == fail_rank &&
        step >= fail_step)
        throw std::runtime_error("injected failure at step " + std::to_string(step) +
                                 " (CELLSHIFT_TEST_FAIL)");
}

} // namespace

void validate_run_options(const RunOptions& o, int ranks) {
    if (o.steps < 0)
        throw std::invalid_argument("--steps must be >= 0");
    if (o.report_every < 1)
        throw std::invalid_argument("--report-every must be >= 1");
    if (o.snapshot_every < 0)
        throw std::invalid_argument("--snapshot-every must be >= 0");
    if (o.checkpoint_every < 0)
        throw std::invalid_argument("--checkpoint-every must be >= 0");
    if (o.snapshot_every > 0 && o.out.empty())
        throw std::invalid_argument("--snapshot-every needs --out FOLDER");
    if (o.last_step < -1)
        throw std::invalid_argument("--last-step must be >= -1 (-1: this run's last step; 0: "
                                    "not known)");
    if (o.checkpoint_every > 0 && o.checkpoint.empty())
        throw std::invalid_argument("--checkpoint-every needs --checkpoint FILE");
    if (!o.dump_forces.empty() && ranks > 1)
        throw std::invalid_argument("--dump-forces needs a one-rank run");
    if (!o.trace_out.empty() && !o.restart.empty())
        throw std::invalid_argument("--trace-out records a fresh run: it cannot follow --restart");
    for (const std::string* file : {&o.run_record, &o.trace_out, &o.checkpoint, &o.dump_forces}) {
        if (!file->empty() && !check_folder_of(*file))
            throw std::invalid_argument(*file + ": the folder does not exist");
    }
}

int run_simulation(MPI_Comm comm, const SemParams& params, const BalanceOptions& balance,
                   const RunOptions& o, const std::string& configuration) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    // Everything that can be wrong is checked, on every rank alike, before the
    // first file is written.
    data::Checkpoint restart;
    mpi::agree(comm, [&] {
        validate(params);
        validate_run_options(o, size);
        if (!o.restart.empty())
            restart = data::read_checkpoint(o.restart);
    });
    SlabSimulation sim(comm, params, balance, o.backend, configuration,
                       o.restart.empty() ? nullptr : &restart);
    // The policy is told how many rebalancing intervals the run has left (the learned
    // controller's cost gate makes no move that cannot repay its migration by then).
    const std::int64_t end = sim.local().step + o.steps;
    mpi::agree(comm, [&] {
        if (o.last_step > 0 && o.last_step < end)
            throw std::invalid_argument("--last-step " + std::to_string(o.last_step) +
                                        " is before this run's last step, " + std::to_string(end));
    });
    sim.set_last_step(o.last_step == -1 ? end : o.last_step);
    if (!o.trace_out.empty()) {
        mpi::agree(comm, [&] {
            if (balance.rebalance_every < 1 || o.steps < 2 * balance.rebalance_every)
                throw std::invalid_argument("--trace-out needs at least two rebalancing "
                                            "intervals (--steps >= 2 x --rebalance-every > 0)");
        });
        sim.record_trace();
    }
    std::string note; // which backend `auto` picked, and why
    if (rank == 0 && o.backend == "auto")
        make_backend(o.backend, params, &note);
    // Only a valid setup creates the output folder.
    mpi::agree(comm, [&] {
        if (rank == 0 && !o.out.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(o.out, ec);
            if (ec)
                throw std::runtime_error(o.out + ": cannot create folder: " + ec.message());
        }
    });
    const BinGrid grid(params.Lx, params.Ly, params.Lz, params.effective_bin_edge());
    TissueCensus c = global_census(comm, sim.local());
    if (rank == 0) {
        if (!note.empty())
            std::cout << note << "\n";
        std::cout << "cellshift-sim: " << size << " rank(s), " << sim.backend_name() << ", domain "
                  << params.Lx << " x " << params.Ly << " x " << params.Lz << ", " << grid.nx
                  << " x " << grid.ny << " x " << grid.nz << " bins, " << sim.balance().slabs
                  << " slabs, policy " << balance.policy << " (" << clock_name(balance.clock)
                  << " clock, slab estimate " << slab_estimate_name(balance.slab_estimate) << "), "
                  << c.total_cells() << " cells, " << c.elements << " elements, " << o.steps
                  << " steps"
                  << (o.restart.empty()
                          ? std::string()
                          : " from step " + std::to_string(sim.local().step) + " of " + o.restart)
                  << "\n";
        print_header();
        print_interval(c, sim.local().step, sim.local().time, 0, 0, 0.0,
                       o.restart.empty() ? "initial patch" : "restarted");
    }

    SnapshotSeries snapshots(o.out, params);
    double output_seconds = 0.0; // snapshots and checkpoints, this rank
    const auto timed_output = [&](auto&& write) {
        const auto t = std::chrono::steady_clock::now();
        write();
        output_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    if (o.snapshot_every > 0)
        timed_output([&] { snapshots.write(comm, sim); });
    ProgressBar bar(!o.quiet && rank == 0);
    const auto start = std::chrono::steady_clock::now();
    const auto due = [&](std::int64_t every) {
        return every > 0 ? every - sim.local().step % every : o.steps;
    };
    std::int64_t done = 0;
    while (done < o.steps) {
        const std::int64_t chunk = std::min(
            {due(o.report_every), due(o.snapshot_every), due(o.checkpoint_every), o.steps - done});
        const auto t0 = std::chrono::steady_clock::now();
        sim.run(chunk);
        injected_failure(rank, sim.local().step);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        done += chunk;
        const std::int64_t step = sim.local().step;
        std::int64_t interactions = sim.take_interactions();
        std::int64_t all_interactions = 0;
        MPI_Reduce(&interactions, &all_interactions, 1, MPI_INT64_T, MPI_SUM, 0, comm);
        if (step % o.report_every == 0 || done == o.steps) {
            c = global_census(comm, sim.local());
            if (rank == 0) {
                bar.clear();
                print_interval(c, step, sim.local().time, all_interactions, chunk, seconds,
                               sim.take_backend_report());
            }
        }
        if (o.snapshot_every > 0 && (step % o.snapshot_every == 0 || done == o.steps))
            timed_output([&] { snapshots.write(comm, sim); });
        if (o.checkpoint_every > 0 && step % o.checkpoint_every == 0 && done < o.steps)
            timed_output([&] { write_checkpoint(comm, sim, o.checkpoint); });
        bar.show(done, o.steps,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    bar.clear();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!o.checkpoint.empty())
        timed_output([&] { write_checkpoint(comm, sim, o.checkpoint); });
    const std::string phases = phase_summary(comm, sim.phase_seconds(), output_seconds, wall);
    if (rank == 0) {
        const BalanceTotals& t = sim.totals();
        std::cout << "done: " << done << " steps in " << std::setprecision(3) << wall << " s, "
                  << t.divisions << " divisions, " << t.elements_added << " elements added, "
                  << t.differentiations << " cells differentiated";
        if (snapshots.count() > 0)
            std::cout << "; " << snapshots.count() << " snapshots in " << o.out << "/tissue.xdmf";
        std::cout << "\n";
        print_balance_summary(sim, wall);
        std::cout << phases;
    }
    mpi::agree(comm, [&] {
        if (rank == 0 && !o.run_record.empty())
            data::write_run_record(o.run_record, sim.run_record("cellshift-sim run", wall));
        if (rank == 0 && !o.trace_out.empty())
            data::write_trace(o.trace_out, sim.trace("cellshift-sim run --trace-out"));
    });
    if (rank == 0) {
        if (!o.run_record.empty())
            std::cout << "run record: " << o.run_record << "\n";
        if (!o.trace_out.empty())
            std::cout << "trace: " << o.trace_out << "\n";
        if (!o.checkpoint.empty())
            std::cout << "checkpoint: " << o.checkpoint << " (step " << sim.local().step << ")\n";
    }
    if (!o.dump_forces.empty()) {
        auto backend = make_backend(o.backend, params);
        ForceField f;
        backend->compute_forces(sim.local().elements, f);
        write_forces_csv(o.dump_forces, sim.local().elements, f);
        std::cout << "forces of " << f.x.size() << " elements at step " << sim.local().step
                  << " written to " << o.dump_forces << "\n";
    }
    return 0;
}

} // namespace cellshift::sim::tool
