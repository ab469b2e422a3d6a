// GPU smoke test (label gpu): the CUDA runtime this project links can run a
// kernel on every visible device and get the right answer back. Exits 77 (ctest
// SKIP_RETURN_CODE) with "skipped: no CUDA device" when there is none, so a
// machine without a GPU never counts it as passed.

#include "cellshift/sim/cuda_devices.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

namespace {

__global__ void axpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

bool check(cudaError_t err, const char* what) {
    if (err != cudaSuccess) {
        std::printf("FAIL: %s: %s\n", what, cudaGetErrorString(err));
        return false;
    }
    return true;
}

} // namespace

int main() {
    cellshift::sim::CudaProbe probe = cellshift::sim::probe_cuda_devices();
    if (probe.devices.empty()) {
        std::printf("skipped: no CUDA device\n(%s)\n", probe.status.c_str());
        return 77;
    }
    const int n = 1 << 20;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = 1.0f;
    }
    for (const auto& device : probe.devices) {
        std::printf("device %d: %s (compute %d.%d)\n", device.index, device.name.c_str(),
                    device.compute_major, device.compute_minor);
        float* dx = nullptr;
        float* dy = nullptr;
        std::vector<float> out(n);
        bool ok =
            check(cudaSetDevice(device.index), "cudaSetDevice") &&
            check(cudaMalloc(&dx, n * sizeof(float)), "cudaMalloc") &&
            check(cudaMalloc(&dy, n * sizeof(float)), "cudaMalloc") &&
            check(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy x") &&
            check(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy y");
        if (ok) {
            axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
            ok = check(cudaGetLastError(), "launch") &&
                 check(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost),
                       "copy back");
        }
        cudaFree(dx);
        cudaFree(dy);
        if (!ok) {
            return 1;
        }
        for (int i = 0; i < n; ++i) {
            if (out[i] != 2.0f * x[i] + 1.0f) { // exact: small integers in float
                std::printf("FAIL: device %d element %d: %g, expected %g\n", device.index, i,
                            out[i], 2.0f * x[i] + 1.0f);
                return 1;
            }
        }
    }
    std::printf("passed on %zu device(s)\n", probe.devices.size());
    return 0;
}
