// CPU vs CUDA parity of the SEM backends (label gpu). Without a device it prints
// "skipped: no CUDA device" and exits 77, which ctest counts as skipped.
#include "../support/sem_samples.hpp"

#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace cellshift;

namespace {

int failures = 0;

void expect(bool ok, const char* what, double value) {
    std::printf("%s %s (%.3g)\n", ok ? "ok:  " : "FAIL:", what, value);
    failures += ok ? 0 : 1;
}

sim::ForceField forces(const char* backend, const sim::SemParams& p, const sim::Elements& e,
                       sim::ForceStats& stats) {
    sim::ForceField f;
    stats = sim::make_backend(backend, p)->compute_forces(e, f);
    return f;
}

void compare_forces(const char* label, const sim::SemParams& p, const sim::Elements& e) {
    sim::ForceStats cpu_stats, gpu_stats, cpu_all, gpu_all;
    const sim::ForceField cpu = forces("cpu-binned", p, e, cpu_stats);
    const sim::ForceField gpu = forces("cuda-binned", p, e, gpu_stats);
    const sim::ForceField gpu_ref = forces("cuda-allpairs", p, e, gpu_all);
    const sim::ForceField cpu_ref = forces("cpu-allpairs", p, e, cpu_all);
    std::printf("%s: %zu elements\n", label, e.size());
    // Same summation order on both sides; only exp/sqrt rounding may differ.
    expect(test::relative_difference(gpu, cpu) < 1e-12, "cuda-binned == cpu-binned",
           test::relative_difference(gpu, cpu));
    expect(test::relative_difference(gpu_ref, cpu_ref) < 1e-12, "cuda-allpairs == cpu-allpairs",
           test::relative_difference(gpu_ref, cpu_ref));
    expect(gpu_stats.interactions == cpu_stats.interactions, "same interaction count",
           static_cast<double>(gpu_stats.interactions));
    expect(gpu_stats.candidates == cpu_stats.candidates, "same candidate count",
           static_cast<double>(gpu_stats.candidates));
    sim::ForceField again;
    sim::make_backend("cuda-binned", p)->compute_forces(e, again);
    expect(again.x == gpu.x && again.y == gpu.y && again.z == gpu.z, "cuda-binned is deterministic",
           0.0);
}

} // namespace

int main() {
    const sim::CudaProbe probe = sim::probe_cuda_devices();
    if (!probe.compiled || probe.devices.empty()) {
        std::printf("skipped: no CUDA device\n(%s)\n", probe.status.c_str());
        return 77;
    }
    std::printf("device: %s\n", probe.devices.front().name.c_str());
    const sim::SemParams p = test::small_domain_params();
    compare_forces("random configuration", p, test::random_elements(p, 3000, 60, 1));
    compare_forces("grown tissue", p, test::grown_tissue(p, 800).elements);

    // Short trajectories from the same grown tissue: CPU and GPU steps agree.
    const sim::Tissue start = test::grown_tissue(p, 400);
    sim::Simulation cpu(p, start, sim::make_backend("cpu-binned", p));
    sim::Simulation gpu(p, start, sim::make_backend("cuda-binned", p));
    cpu.run(30);
    gpu.run(30);
    double worst = 0.0;
    const auto& a = cpu.tissue().elements;
    const auto& b = gpu.tissue().elements;
    const bool same_ids = a.id == b.id;
    for (std::size_t i = 0; same_ids && i < a.size(); ++i) {
        worst = std::max({worst, std::abs(a.x[i] - b.x[i]), std::abs(a.y[i] - b.y[i]),
                          std::abs(a.z[i] - b.z[i])});
    }
    expect(same_ids && worst < 1e-9, "30-step trajectories agree (max position difference)", worst);
    std::printf("%s\n",
                failures == 0 ? "cpu and cuda backends agree" : "cpu and cuda backends DISAGREE");
    return failures == 0 ? 0 : 1;
}
