#pragma once
// What CUDA can offer this process: compiled in or not, and which devices are
// visible. Without a GPU (or a driver) the probe reports zero devices and says
// why; callers fall back to the CPU backends with that message.

#include <cstddef>
#include <string>
#include <vector>

namespace cellshift::sim {

struct CudaDevice {
    int index = 0;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    std::size_t memory_bytes = 0;
};

struct CudaProbe {
    bool compiled = false;           // was this binary built with nvcc?
    std::vector<CudaDevice> devices; // visible devices, empty when none
    std::string status;              // one line: what was found, or why nothing was
};

CudaProbe probe_cuda_devices();

} // namespace cellshift::sim
