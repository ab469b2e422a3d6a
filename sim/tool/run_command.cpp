#include "run_command.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/snapshot.hpp"
#include "cellshift/sim/bin_grid.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/simulation.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
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

data::Snapshot snapshot_of(const Tissue& t, const SemParams& p) {
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
    for (std::size_t i = 0; i < n; ++i) {
        s.positions(i, 0) = t.elements.x[i];
        s.positions(i, 1) = t.elements.y[i];
        s.positions(i, 2) = t.elements.z[i];
        const std::ptrdiff_t c = t.find_cell(t.elements.cell[i]);
        s.cell_type[i] = static_cast<std::int64_t>(t.cells[static_cast<std::size_t>(c)].type);
    }
    return s;
}

class SnapshotSeries {
public:
    SnapshotSeries(std::string folder, const SemParams& params)
        : folder_(std::move(folder)), params_(params) {}
    void write(const Tissue& t) {
        char name[64];
        std::snprintf(name, sizeof name, "snapshot_%09lld.h5", static_cast<long long>(t.step));
        data::write_snapshot(folder_ + "/" + name, snapshot_of(t, params_));
        frames_.push_back({name, t.time, static_cast<std::int64_t>(t.elements.size())});
        data::write_xdmf(folder_ + "/tissue.xdmf", frames_);
    }
    std::size_t count() const { return frames_.size(); }

private:
    std::string folder_;
    SemParams params_;
    std::vector<data::XdmfFrame> frames_;
};

void print_header() {
    std::cout << std::setw(9) << "step" << std::setw(9) << "time" << std::setw(7) << "cells"
              << std::setw(6) << "stem" << std::setw(6) << "TA" << std::setw(7) << "supra"
              << std::setw(9) << "elements" << std::setw(11) << "pairs/step" << std::setw(10)
              << "ms/step" << std::setw(12) << "elem-step/s" << std::setw(8) << "x_max"
              << "  backend notes\n";
}

void print_interval(const Tissue& t, const RunStats& s, double seconds, const std::string& note) {
    const TissueCensus c = census(t);
    const double steps = static_cast<double>(std::max<std::int64_t>(s.steps, 1));
    std::cout << std::setw(9) << t.step << std::setw(9) << std::fixed << std::setprecision(1)
              << t.time << std::setw(7) << c.total_cells() << std::setw(6) << c.cells[0]
              << std::setw(6) << c.cells[1] << std::setw(7) << c.cells[2] << std::setw(9)
              << c.elements << std::setw(11)
              << static_cast<long long>(static_cast<double>(s.forces.interactions) / steps)
              << std::setw(10) << std::setprecision(3) << 1e3 * seconds / steps << std::setw(12)
              << std::scientific << std::setprecision(2);
    if (s.steps > 0) {
        std::cout << static_cast<double>(c.elements) * steps / std::max(seconds, 1e-12);
    } else {
        std::cout << "-";
    }
    std::cout << std::fixed << std::setw(8) << std::setprecision(1) << c.x_max << "  " << note
              << "\n"
              << std::defaultfloat;
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

int run_simulation(const SemParams& params, const RunOptions& o) {
    // Everything that can be wrong is checked before the first file is written.
    validate(params);
    if (o.steps < 0)
        throw std::invalid_argument("--steps must be >= 0");
    if (o.report_every < 1)
        throw std::invalid_argument("--report-every must be >= 1");
    if (o.snapshot_every < 0)
        throw std::invalid_argument("--snapshot-every must be >= 0");
    if (o.snapshot_every > 0 && o.out.empty()) {
        throw std::invalid_argument("--snapshot-every needs --out FOLDER");
    }
    std::string note;
    auto backend = make_backend(o.backend, params, &note);
    if (!note.empty())
        std::cout << note << "\n";
    if (!o.out.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(o.out, ec);
        if (ec)
            throw std::runtime_error(o.out + ": cannot create folder: " + ec.message());
    }

    Simulation sim(params, std::move(backend));
    const BinGrid grid(params.Lx, params.Ly, params.Lz, params.effective_bin_edge());
    std::cout << "cellshift-sim: " << sim.backend().name() << ", domain " << params.Lx << " x "
              << params.Ly << " x " << params.Lz << ", " << grid.nx << " x " << grid.ny << " x "
              << grid.nz << " bins, " << sim.tissue().cells.size() << " cells, "
              << sim.tissue().elements.size() << " elements, " << o.steps << " steps\n";
    print_header();
    print_interval(sim.tissue(), RunStats{}, 0.0, "initial patch");

    SnapshotSeries snapshots(o.out, params);
    if (o.snapshot_every > 0)
        snapshots.write(sim.tissue());
    ProgressBar bar(!o.quiet);
    const auto start = std::chrono::steady_clock::now();
    RunStats total;
    std::int64_t done = 0;
    while (done < o.steps) {
        std::int64_t chunk =
            std::min(o.report_every - sim.tissue().step % o.report_every, o.steps - done);
        if (o.snapshot_every > 0) {
            chunk = std::min(chunk, o.snapshot_every - sim.tissue().step % o.snapshot_every);
        }
        const auto t0 = std::chrono::steady_clock::now();
        const RunStats s = sim.run(chunk);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        done += chunk;
        total.forces += s.forces;
        total.lifecycle += s.lifecycle;
        total.force_seconds += s.force_seconds;
        total.steps += s.steps;
        if (sim.tissue().step % o.report_every == 0 || done == o.steps) {
            bar.clear();
            print_interval(sim.tissue(), s, seconds, sim.backend().take_report());
        }
        if (o.snapshot_every > 0 &&
            (sim.tissue().step % o.snapshot_every == 0 || done == o.steps)) {
            snapshots.write(sim.tissue());
        }
        bar.show(done, o.steps,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    bar.clear();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "done: " << total.steps << " steps in " << std::setprecision(3) << wall << " s ("
              << total.force_seconds << " s in forces), " << total.lifecycle.divisions
              << " divisions, " << total.lifecycle.elements_added << " elements added, "
              << total.lifecycle.differentiations << " cells differentiated";
    if (snapshots.count() > 0) {
        std::cout << "; " << snapshots.count() << " snapshots in " << o.out << "/tissue.xdmf";
    }
    std::cout << "\n";
    if (!o.dump_forces.empty()) {
        ForceField f;
        sim.backend().compute_forces(sim.tissue().elements, f);
        write_forces_csv(o.dump_forces, sim.tissue().elements, f);
        std::cout << "forces of " << f.x.size() << " elements at step " << sim.tissue().step
                  << " written to " << o.dump_forces << "\n";
    }
    return 0;
}

} // namespace cellshift::sim::tool
