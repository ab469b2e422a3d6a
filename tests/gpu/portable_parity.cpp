// The portable GPU backends (one Thrust source) against the CPU backends, on every
// device system this build has (label gpu): thrust-omp (the host compiler's build,
// which runs on any machine) and cuda (nvcc's build, when a device is visible).
// It prints which device systems ran and fails when none did: a gpu label that
// tested nothing is an error, not a pass.
#include "../support/sem_samples.hpp"

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/simulation.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cellshift;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what, double value) {
    std::printf("%s %s (%.3g)\n", ok ? "ok:  " : "FAIL:", what.c_str(), value);
    failures += ok ? 0 : 1;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
bool same_bits(const sim::ForceField& a, const sim::ForceField& b) {
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

struct Result {
    sim::ForceField forces;
    sim::ForceStats stats;
};

Result forces(const std::string& backend, const sim::SemParams& p, const sim::Elements& e,
              const std::vector<std::uint8_t>* active = nullptr) {
    Result r;
    auto b = sim::make_backend(backend, p);
    b->set_active(active);
    r.stats = b->compute_forces(e, r.forces);
    return r;
}

// Forces, pair counts and the ghost mask of `system`'s two backends against
// cpu-binned and cpu-allpairs. exp and sqrt may round differently on a GPU, hence
// the tolerance; on the host the summation order is the same, so bits are reported.
void compare_forces(const std::string& system, const char* label, const sim::SemParams& p,
                    const sim::Elements& e) {
    std::printf("%s, %s: %zu elements\n", system.c_str(), label, e.size());
    const Result cpu = forces("cpu-binned", p, e);
    const Result cpu_all = forces("cpu-allpairs", p, e);
    const Result binned = forces(system + "-binned", p, e);
    const Result all = forces(system + "-allpairs", p, e);
    const double d_binned = test::relative_difference(binned.forces, cpu.forces);
    const double d_all = test::relative_difference(all.forces, cpu_all.forces);
    expect(d_binned < 1e-12, system + "-binned == cpu-binned (relative difference)", d_binned);
    expect(d_all < 1e-12, system + "-allpairs == cpu-allpairs (relative difference)", d_all);
    std::printf("      bitwise: binned %s, allpairs %s\n",
                same_bits(binned.forces, cpu.forces) ? "yes" : "no",
                same_bits(all.forces, cpu_all.forces) ? "yes" : "no");
    expect(binned.stats.interactions == cpu.stats.interactions &&
               all.stats.interactions == cpu_all.stats.interactions,
           "same interaction counts", static_cast<double>(binned.stats.interactions));
    expect(binned.stats.candidates == cpu.stats.candidates &&
               all.stats.candidates == cpu_all.stats.candidates,
           "same candidate counts", static_cast<double>(binned.stats.candidates));
    expect(same_bits(forces(system + "-binned", p, e).forces, binned.forces),
           system + "-binned is deterministic (two runs, same bits)", 0.0);

    // Every other element a ghost: partner only, force left zero, pairs not counted.
    std::vector<std::uint8_t> active(e.size());
    for (std::size_t i = 0; i < e.size(); ++i)
        active[i] = static_cast<std::uint8_t>(i % 2);
    const Result cpu_masked = forces("cpu-binned", p, e, &active);
    const Result masked = forces(system + "-binned", p, e, &active);
    bool ghosts_zero = true;
    for (std::size_t i = 0; i < e.size(); i += 2)
        ghosts_zero = ghosts_zero && masked.forces.x[i] == 0.0 && masked.forces.y[i] == 0.0 &&
                      masked.forces.z[i] == 0.0;
    const double d_masked = test::relative_difference(masked.forces, cpu_masked.forces);
    expect(ghosts_zero && d_masked < 1e-12 &&
               masked.stats.interactions == cpu_masked.stats.interactions &&
               masked.stats.interactions < binned.stats.interactions,
           system + "-binned with ghosts == cpu-binned with ghosts", d_masked);
}

// Short trajectories from one grown tissue: every step of both backends agrees.
void compare_trajectories(const std::string& system, const sim::SemParams& p) {
    const sim::Tissue start = test::grown_tissue(p, 400);
    for (const char* algorithm : {"binned", "allpairs"}) {
        const std::string name = system + "-" + algorithm;
        sim::Simulation cpu(p, start, sim::make_backend(std::string("cpu-") + algorithm, p));
        sim::Simulation dev(p, start, sim::make_backend(name, p));
        cpu.run(30);
        dev.run(30);
        const auto& a = cpu.tissue().elements;
        const auto& b = dev.tissue().elements;
        double worst = a.id == b.id && a.size() > 0 ? 0.0 : INFINITY;
        for (std::size_t i = 0; std::isfinite(worst) && i < a.size(); ++i)
            worst = std::max({worst, std::abs(a.x[i] - b.x[i]), std::abs(a.y[i] - b.y[i]),
                              std::abs(a.z[i] - b.z[i])});
        expect(worst < 1e-9, "30-step " + name + " trajectory == cpu (max position difference)",
               worst);
    }
}

// On the host, the work split must not show in the bits.
void compare_thread_counts(const std::string& system, const sim::SemParams& p,
                           const sim::Elements& e) {
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const Result one = forces(system + "-binned", p, e);
    omp_set_num_threads(3);
    const Result three = forces(system + "-binned", p, e);
    omp_set_num_threads(threads);
    expect(same_bits(one.forces, three.forces) &&
               one.stats.interactions == three.stats.interactions,
           system + "-binned: 1 and 3 threads give the same bits", 0.0);
}

// The device system's name when its backends can run here, else why not.
bool available(const std::string& system, std::string& why) {
    try {
        sim::make_backend(system + "-binned", test::small_domain_params());
        return true;
    } catch (const std::invalid_argument& e) {
        why = e.what();
        return false;
    }
}

} // namespace

int main() {
    const sim::SemParams p = test::small_domain_params();
    std::vector<std::string> ran;
    for (const std::string system : {"thrust-omp", "cuda"}) {
        std::string why;
        if (!available(system, why)) {
            std::printf("device system %s: not run (%s)\n", system.c_str(), why.c_str());
            continue;
        }
        std::printf("device system %s:\n", system.c_str());
        ran.push_back(system);
        compare_forces(system, "random configuration", p, test::random_elements(p, 3000, 60, 1));
        compare_forces(system, "grown tissue", p, test::grown_tissue(p, 800).elements);
        compare_trajectories(system, p);
        if (system == "thrust-omp")
            compare_thread_counts(system, p, test::random_elements(p, 3000, 60, 2));
    }
    if (ran.empty()) {
        std::printf("FAIL: no device system ran: the gpu label tested nothing\n");
        return 1;
    }
    std::string systems;
    for (const auto& s : ran)
        systems += (systems.empty() ? "" : ", ") + s;
    std::printf("%s: portable backends %s the CPU backends\n", systems.c_str(),
                failures == 0 ? "agree with" : "DISAGREE with");
    return failures == 0 ? 0 : 1;
}
