// The force backends by name (LAMMPS-style registry of named styles).
#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/sim/force_backend.hpp"

#include "cpu_backend.hpp"
#include "cpu_binned.hpp"
#include "cpu_verlet.hpp"
#include "portable_backends.hpp"

#include <stdexcept>

namespace cellshift::sim {

const std::vector<std::string>& backend_names() {
    static const std::vector<std::string> names{
        "auto",       "cpu",           "cuda",        "cpu-allpairs",        "cpu-binned",
        "cpu-verlet", "cuda-allpairs", "cuda-binned", "thrust-omp-allpairs", "thrust-omp-binned"};
    return names;
}

std::unique_ptr<ForceBackend> make_backend(const std::string& requested, const SemParams& params,
                                           std::string* note) {
    std::string name = requested;
    if (name == "auto" || name == "cuda" || name == "cuda-allpairs" || name == "cuda-binned") {
        const CudaProbe probe = probe_cuda_devices();
        const bool usable = probe.compiled && !probe.devices.empty();
        if (name == "auto") {
            name = usable ? "cuda-binned" : "cpu-verlet";
            if (note) {
                *note = usable ? "backend auto: cuda-binned on " + probe.devices.front().name
                               : "backend auto: cpu-verlet (" + probe.status + ")";
            }
        } else if (!usable) {
            throw std::invalid_argument("backend '" + requested +
                                        "' needs a CUDA device: " + probe.status);
        }
    }
    if (name == "cpu")
        name = "cpu-verlet";
    if (name == "cuda")
        name = "cuda-binned";
    if (name == "cpu-allpairs")
        return std::make_unique<CpuAllPairsBackend>(params);
    if (name == "cpu-binned") {
        return std::make_unique<CpuBinnedBackend>(params,
                                                  parse_schedule_policy(params.omp_schedule));
    }
    if (name == "cpu-verlet") {
        return std::make_unique<CpuVerletBackend>(params,
                                                  parse_schedule_policy(params.omp_schedule));
    }
    if (name == "cuda-allpairs")
        return make_cuda_allpairs_backend(params);
    if (name == "cuda-binned")
        return make_cuda_binned_backend(params);
    if (name == "thrust-omp-allpairs")
        return make_thrust_omp_allpairs_backend(params);
    if (name == "thrust-omp-binned")
        return make_thrust_omp_binned_backend(params);
    std::string known;
    for (const auto& n : backend_names())
        known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown backend '" + requested + "' (known: " + known + ")");
}

std::vector<std::string> runnable_backends() {
    std::vector<std::string> runnable;
    for (const std::string& name : backend_names()) {
        if (name == "auto" || name == "cpu" || name == "cuda")
            continue;
        try {
            make_backend(name, SemParams{});
            runnable.push_back(name);
        } catch (const std::invalid_argument&) {
        }
    }
    return runnable;
}

} // namespace cellshift::sim
