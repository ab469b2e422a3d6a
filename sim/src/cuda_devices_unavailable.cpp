// Device probe of a build without nvcc: CUDA is not compiled in.

#include "cellshift/sim/cuda_devices.hpp"

namespace cellshift::sim {

CudaProbe probe_cuda_devices() {
    CudaProbe probe;
    probe.status = "built without CUDA (nvcc was not found at configure time)";
    return probe;
}

} // namespace cellshift::sim
