// CUDA build of the device probe. Any error from the runtime (35: no driver,
// 100: no device) means zero devices; the error is cleared so later CUDA calls
// do not see it.

#include "cellshift/sim/cuda_devices.hpp"

#include <cuda_runtime.h>

namespace cellshift::sim {

CudaProbe probe_cuda_devices() {
    CudaProbe probe;
    probe.compiled = true;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError();
        probe.status = std::string("no CUDA device (") + cudaGetErrorString(err) + ")";
        return probe;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        probe.devices.push_back({i, prop.name, prop.major, prop.minor, prop.totalGlobalMem});
    }
    probe.status = probe.devices.empty() ? std::string("no CUDA device")
                                         : std::to_string(probe.devices.size()) + " CUDA device(s)";
    return probe;
}

} // namespace cellshift::sim
