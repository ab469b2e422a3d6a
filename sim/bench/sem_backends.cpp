// Benchmark of the SEM force backends (issue: SEM core). Not a test: it prints
// figures and asserts nothing about time. Sections:
//   scaling    element-steps/s of every available backend (thrust-omp: the CUDA
//              source on the CPU, beside cpu-binned) on the fcc lattice of
//              LAMMPS' bench deck (density 0.8442, Morse alpha 5, r_c 2.5) for N
//              from ~1e3 up to --max-n, the fitted exponent of time per step vs N,
//              the binned / all-pairs ratio at the largest common N, and with a GPU
//              the CUDA backends against the paper's L40S figures;
//   lammps     cpu-binned and LAMMPS pair_style morse (sim/bench/in.morse.bench)
//              side by side, one thread each, measured in the same run;
//   schedule   fixed static, fixed dynamic and adaptive OpenMP schedules of
//              cpu-binned on a grown, heterogeneous tissue.
// Every figure is a median over --repeats runs; one JSON object per line.
// Run: build/sim/cellshift-bench-sem [--max-n 1e6] [--repeats 3] [--threads T]
//        [--allpairs-max N] [--no-lammps] [--grow-steps 5000] [--section NAME]

#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/lattice.hpp"
#include "cellshift/sim/simulation.hpp"

#include "cellshift/tool/run_tool.hpp"

#include <CLI/CLI.hpp>
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cellshift;
using clock_type = std::chrono::steady_clock;

namespace {

struct Options {
    double max_n = 1.1e6;
    double allpairs_max = 33000;
    double cuda_allpairs_max = 2.6e5;
    int repeats = 3;
    int threads = 0; // 0: OpenMP's default
    bool lammps = true;
    long grow_steps = 5000;
    std::string section; // empty: all
    std::string deck = CELLSHIFT_MORSE_DECK;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

struct Measurement {
    double seconds_per_step = 0.0;
    double interactions_per_element = 0.0;
};

// Median seconds per step of `backend` advancing a copy of `elements`; each
// repeat runs enough steps to last about 0.3 s.
Measurement time_steps(sim::ForceBackend& backend, const sim::Elements& elements, int repeats) {
    sim::Elements e = elements;
    auto t0 = clock_type::now();
    sim::ForceStats warm = backend.advance(e, 0, 1);
    const double one = std::max(seconds_since(t0), 1e-6);
    const int steps = std::clamp(static_cast<int>(0.3 / one), 1, 2000);
    std::vector<double> per_step;
    for (int r = 0; r < repeats; ++r) {
        e = elements;
        t0 = clock_type::now();
        backend.advance(e, 1, steps);
        per_step.push_back(seconds_since(t0) / steps);
    }
    return {median(per_step),
            static_cast<double>(warm.interactions) / static_cast<double>(elements.size())};
}

// Least-squares slope of log(y) against log(x).
double loglog_slope(const std::vector<std::pair<double, double>>& points) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = static_cast<double>(points.size());
    for (const auto& [x, y] : points) {
        sx += std::log(x);
        sy += std::log(y);
        sxx += std::log(x) * std::log(x);
        sxy += std::log(x) * std::log(y);
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

constexpr double kDensity = 0.8442, kD0 = 1.0, kAlpha = 5.0, kR0 = 1.1224, kCutoff = 2.5;

sim::SemParams lattice_params(const sim::Lattice& l) {
    sim::SemParams p = sim::morse_benchmark_params(l, kD0, kAlpha, kR0, kCutoff);
    p.dt = 1e-3; // overdamped and stable for Morse alpha = 5
    return p;
}

bool available(const std::string& backend) {
    try {
        sim::make_backend(backend, sim::SemParams{});
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

// The source paper's L40S figures (1,000 steps of its tissue): element-steps/s.
struct PaperFigure {
    const char* backend;
    double elements, seconds_per_1000_steps;
};
constexpr PaperFigure kPaperL40S[] = {{"cuda-binned", 1.6e5, 7.2},
                                      {"cuda-allpairs", 1.6e5, 14.1},
                                      {"cuda-binned", 6.3e6, 255.0},
                                      {"cuda-allpairs", 6.3e6, 2355.0}};

// Speed of `numerator` over `denominator` at the largest N both measured.
void print_ratio(const std::map<std::string, std::vector<std::pair<double, double>>>& curve,
                 const std::string& numerator, const std::string& denominator) {
    if (!curve.count(numerator) || !curve.count(denominator))
        return;
    const auto& num = curve.at(numerator);
    const auto& den = curve.at(denominator);
    for (auto it = den.rbegin(); it != den.rend(); ++it) {
        auto match = std::find_if(num.begin(), num.end(),
                                  [&](const auto& b) { return b.first == it->first; });
        if (match != num.end()) {
            std::printf("{\"section\": \"scaling\", \"ratio\": \"%s speed / %s speed\", "
                        "\"elements\": %.0f, \"value\": %.3g}\n",
                        numerator.c_str(), denominator.c_str(), it->first,
                        it->second / match->second);
            return;
        }
    }
}

void scaling(const Options& o, bool have_cuda) {
    std::vector<std::string> backends{"cpu-binned", "cpu-verlet", "cpu-allpairs"};
    // The GPU backends' own source on the CPU: its cost beside cpu-binned.
    for (const char* name : {"thrust-omp-binned", "thrust-omp-allpairs"})
        if (available(name))
            backends.push_back(name);
    if (have_cuda) {
        backends.push_back("cuda-binned");
        backends.push_back("cuda-allpairs");
    }
    std::map<std::string, std::vector<std::pair<double, double>>> curve; // N -> s/step
    // n = 34: 1.57e5 elements, the paper's smaller size; 116: 6.24e6, its largest.
    for (int n : {6, 10, 14, 20, 30, 34, 40, 63, 80, 100, 116}) {
        const double N = 4.0 * n * n * n;
        const bool gpu_only = N > 1.1e6;
        if (N > o.max_n && !(have_cuda && gpu_only && o.max_n >= 6e6))
            continue;
        const sim::Lattice lattice = sim::fcc_lattice(n, kDensity, 0.05, 1);
        const sim::SemParams p = lattice_params(lattice);
        for (const std::string& name : backends) {
            const bool cuda = name.rfind("cuda", 0) == 0;
            const bool allpairs = name.find("allpairs") != std::string::npos;
            if (gpu_only && !cuda)
                continue;
            if (N > o.max_n && !cuda)
                continue;
            if (allpairs && !cuda && N > o.allpairs_max)
                continue;
            if (name == "cuda-allpairs" && N > o.cuda_allpairs_max)
                continue;
            auto backend = sim::make_backend(name, p);
            const Measurement m = time_steps(*backend, lattice.elements, o.repeats);
            curve[name].push_back({N, m.seconds_per_step});
            std::printf("{\"section\": \"scaling\", \"backend\": \"%s\", \"elements\": %.0f, "
                        "\"threads\": %d, \"seconds_per_step\": %.4g, \"element_steps_per_s\": "
                        "%.4g, \"interactions_per_element\": %.1f}\n",
                        name.c_str(), N,
                        cuda ? 0 : (name == "cpu-allpairs" ? 1 : omp_get_max_threads()),
                        m.seconds_per_step, N / m.seconds_per_step, m.interactions_per_element);
            std::fflush(stdout);
        }
    }
    for (const auto& [name, points] : curve) {
        std::vector<std::pair<double, double>> fit;
        for (const auto& pt : points) {
            if (pt.first >= 4000)
                fit.push_back(pt); // below, fixed overheads dominate
        }
        if (fit.size() >= 2) {
            std::printf("{\"section\": \"scaling\", \"backend\": \"%s\", \"fitted_exponent\": "
                        "%.3f, \"fit_range\": [%.0f, %.0f]}\n",
                        name.c_str(), loglog_slope(fit), fit.front().first, fit.back().first);
        }
    }
    for (const std::string kind : {"cpu", "thrust-omp", "cuda"})
        print_ratio(curve, kind + "-binned", kind + "-allpairs");
    print_ratio(curve, "thrust-omp-binned", "cpu-binned");
    // Against the paper's L40S at the sizes it reports (nearest measured N within 10%).
    for (const PaperFigure& paper : kPaperL40S) {
        if (!curve.count(paper.backend))
            continue;
        for (const auto& [N, seconds] : curve.at(paper.backend)) {
            if (std::abs(N / paper.elements - 1.0) > 0.1)
                continue;
            const double paper_speed = paper.elements * 1000.0 / paper.seconds_per_1000_steps;
            std::printf(
                "{\"section\": \"scaling\", \"ratio\": \"%s speed / paper L40S speed\", "
                "\"elements\": %.0f, \"paper_elements\": %.2g, \"paper_element_steps_per_s\": "
                "%.3g, \"value\": %.3g}\n",
                paper.backend, N, paper.elements, paper_speed, N / seconds / paper_speed);
        }
    }
}

// Runs the LAMMPS deck for 4 n^3 atoms; returns atom-steps/s from its loop time.
// `style`: the deck's pair style, morse or morse/opt (the OPT package).
double run_lammps(const Options& o, int n, int steps, const std::string& style) {
    const std::string log = "/tmp/cellshift-bench-lammps-" + std::to_string(n) + ".log";
    const std::string command = "OMP_NUM_THREADS=1 lmp -var n " + std::to_string(n) +
                                " -var steps " + std::to_string(steps) + " -var style " + style +
                                " -in '" + o.deck + "' -log '" + log + "' -screen none";
    if (std::system(command.c_str()) != 0)
        return 0.0;
    std::FILE* f = std::fopen(log.c_str(), "r");
    if (!f)
        return 0.0;
    char line[512];
    double loop = 0.0, atoms = 0.0, ran = 0.0;
    while (std::fgets(line, sizeof line, f)) {
        int procs = 0;
        if (std::sscanf(line, "Loop time of %lf on %d procs for %lf steps with %lf atoms", &loop,
                        &procs, &ran, &atoms) == 4) {
            break;
        }
    }
    std::fclose(f);
    return loop > 0.0 ? atoms * ran / loop : 0.0;
}

void lammps_side_by_side(const Options& o) {
    if (std::system("command -v lmp > /dev/null 2>&1") != 0) {
        std::printf("{\"section\": \"lammps\", \"skipped\": \"lmp not found (apt-get install "
                    "lammps)\"}\n");
        return;
    }
    const bool have_opt = std::system("lmp -h 2>/dev/null | grep -q 'morse/opt'") == 0;
    const int saved = omp_get_max_threads();
    for (int n : {20, 40}) {
        const double N = 4.0 * n * n * n;
        if (N > o.max_n)
            continue;
        const int steps = n == 20 ? 200 : 40;
        std::vector<double> morse, opt, binned, verlet, binned2, verlet2, portable, portable2;
        const sim::Lattice lattice = sim::fcc_lattice(n, kDensity, 0.05, 1);
        const sim::SemParams p = lattice_params(lattice);
        auto b = sim::make_backend("cpu-binned", p);
        auto v = sim::make_backend("cpu-verlet", p);
        // The GPU backends' source on the CPU, where this build has it.
        auto t =
            available("thrust-omp-binned") ? sim::make_backend("thrust-omp-binned", p) : nullptr;
        const auto speed = [&](sim::ForceBackend& backend, int threads) {
            omp_set_num_threads(threads);
            return N / time_steps(backend, lattice.elements, 1).seconds_per_step;
        };
        // Interleaved, so that a noisy neighbour on the machine hurts every column alike.
        for (int r = 0; r < o.repeats; ++r) {
            morse.push_back(run_lammps(o, n, steps, "morse"));
            if (have_opt)
                opt.push_back(run_lammps(o, n, steps, "morse/opt"));
            binned.push_back(speed(*b, 1));
            verlet.push_back(speed(*v, 1));
            binned2.push_back(speed(*b, 2));
            verlet2.push_back(speed(*v, 2));
            if (t) {
                portable.push_back(speed(*t, 1));
                portable2.push_back(speed(*t, 2));
            }
        }
        const double m = median(morse), mo = have_opt ? median(opt) : 0.0;
        std::printf(
            "{\"section\": \"lammps\", \"elements\": %.0f, \"threads\": 1, "
            "\"lammps_morse_atom_steps_per_s\": %.4g, \"lammps_morse_opt_atom_steps_per_s\": %.4g, "
            "\"cpu_binned_element_steps_per_s\": %.4g, \"cpu_verlet_element_steps_per_s\": "
            "%.4g, \"ratio_binned_over_lammps\": %.2f, \"ratio_verlet_over_lammps\": %.2f, "
            "\"ratio_verlet_over_lammps_opt\": %.2f}\n",
            N, m, mo, median(binned), median(verlet), median(binned) / m, median(verlet) / m,
            have_opt ? median(verlet) / mo : 0.0);
        // Two threads against one, same run: the parallel efficiency speed(2) / (2 speed(1)).
        std::printf("{\"section\": \"lammps\", \"elements\": %.0f, \"threads\": 2, "
                    "\"cpu_binned_element_steps_per_s\": %.4g, \"cpu_verlet_element_steps_per_s\": "
                    "%.4g, \"efficiency_binned\": %.2f, \"efficiency_verlet\": %.2f}\n",
                    N, median(binned2), median(verlet2), median(binned2) / (2.0 * median(binned)),
                    median(verlet2) / (2.0 * median(verlet)));
        if (t)
            std::printf("{\"section\": \"lammps\", \"elements\": %.0f, \"backend\": "
                        "\"thrust-omp-binned\", \"element_steps_per_s_1_thread\": %.4g, "
                        "\"element_steps_per_s_2_threads\": %.4g, \"ratio_over_lammps\": %.2f, "
                        "\"efficiency\": %.2f}\n",
                        N, median(portable), median(portable2), median(portable) / m,
                        median(portable2) / (2.0 * median(portable)));
        std::fflush(stdout);
    }
    omp_set_num_threads(saved);
}

void schedules(const Options& o) {
    sim::SemParams p; // the default tissue
    std::fprintf(stderr, "schedule: growing the default tissue for %ld steps...\n", o.grow_steps);
    sim::Simulation grow(p, sim::make_backend("cpu-binned", p));
    grow.run(o.grow_steps);
    const sim::Elements& e = grow.tissue().elements;
    std::printf("{\"section\": \"schedule\", \"tissue_elements\": %zu, \"cells\": %zu, "
                "\"threads\": %d}\n",
                e.size(), grow.tissue().cells.size(), omp_get_max_threads());
    for (const char* schedule : {"static", "dynamic", "adaptive"}) {
        sim::SemParams q = p;
        q.omp_schedule = schedule;
        auto backend = sim::make_backend("cpu-binned", q);
        sim::ForceField f;
        backend->compute_forces(e, f);
        backend->take_report();
        std::vector<double> times;
        for (int r = 0; r < std::max(o.repeats, 5); ++r) {
            const auto t0 = clock_type::now();
            for (int k = 0; k < 20; ++k)
                backend->compute_forces(e, f);
            times.push_back(seconds_since(t0) / 20.0);
        }
        std::printf(
            "{\"section\": \"schedule\", \"schedule\": \"%s\", \"ms_per_force_evaluation\": "
            "%.4g, \"engaged\": \"%s\"}\n",
            schedule, 1e3 * median(times), backend->take_report().c_str());
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"SEM force backends: element-steps/s scaling, LAMMPS side by side and OpenMP "
                 "schedules; one JSON line per figure (medians over --repeats runs)"};
    app.add_option("--max-n", o.max_n, "largest element count of the scaling section")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--allpairs-max", o.allpairs_max,
                   "largest N the O(N^2) all-pairs CPU backend runs")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--repeats", o.repeats, "runs per figure (the median is printed)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--threads", o.threads, "OpenMP threads (0: OpenMP's default)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--grow-steps", o.grow_steps, "steps grown before the schedule section")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--section", o.section, "only this section (default: all)")
        ->check(CLI::IsMember({"scaling", "lammps", "schedule"}));
    app.add_option("--deck", o.deck, "LAMMPS input deck of the lammps section")
        ->check(CLI::ExistingFile)
        ->capture_default_str();
    app.add_flag("--lammps,!--no-lammps", o.lammps,
                 "run (default) or skip the LAMMPS side-by-side section");
    return tool::run_tool<CLI::ParseError>("cellshift-bench-sem", app, argc, argv, [&] {
        if (o.threads > 0)
            omp_set_num_threads(o.threads);
        const sim::CudaProbe probe = sim::probe_cuda_devices();
        const bool have_cuda = probe.compiled && !probe.devices.empty();
        std::printf("{\"section\": \"machine\", \"openmp_threads\": %d, \"cuda\": \"%s\"}\n",
                    omp_get_max_threads(),
                    have_cuda ? probe.devices.front().name.c_str() : probe.status.c_str());
        if (o.section.empty() || o.section == "scaling")
            scaling(o, have_cuda);
        if (o.lammps && (o.section.empty() || o.section == "lammps"))
            lammps_side_by_side(o);
        if (o.section.empty() || o.section == "schedule")
            schedules(o);
        return 0;
    });
}
