// The portable GPU backends on CUDA, compiled by nvcc: cuda-binned and
// cuda-allpairs. Their oracle in CI is the same source on Thrust's OpenMP system
// (omp_system.cpp), itself tested against the CPU backends.

#include "../portable_backends.hpp"
#include "portable_backend.hpp"

#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/vector.h>

namespace cellshift::sim {
using namespace portable;
namespace {

struct CudaSystem {
    template <typename T>
    using vector = thrust::cuda::vector<T>;
    // No stream sync after each algorithm: they are ordered on one stream, and
    // every read back to the host (copy, reduce) synchronises.
    static auto policy() { return thrust::cuda::par_nosync; }
    static constexpr const char* prefix = "cuda";
};

} // namespace

bool cuda_backends_compiled() {
    return true;
}
std::unique_ptr<ForceBackend> make_cuda_binned_backend(const SemParams& params) {
    return std::make_unique<PortableBinnedBackend<CudaSystem>>(params);
}
std::unique_ptr<ForceBackend> make_cuda_allpairs_backend(const SemParams& params) {
    return std::make_unique<PortableAllPairsBackend<CudaSystem>>(params);
}

} // namespace cellshift::sim
