// The portable GPU backends on Thrust's OpenMP device system, compiled by the host
// compiler: the code of cuda-binned / cuda-allpairs, run on the CPU (CI has no GPU).
// THRUST_DEVICE_SYSTEM is set so that no Thrust header reaches for CUDA here.
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_OMP

#include "../portable_backends.hpp"
#include "portable_backend.hpp"

#include <thrust/system/omp/execution_policy.h>
#include <thrust/system/omp/vector.h>

namespace cellshift::sim {
using namespace portable;
namespace {

struct OmpSystem {
    template <typename T>
    using vector = thrust::omp::vector<T>;
    static auto policy() { return thrust::omp::par; }
    static constexpr const char* prefix = "thrust-omp";
};

} // namespace

bool thrust_omp_backends_compiled() {
    return true;
}
std::unique_ptr<ForceBackend> make_thrust_omp_binned_backend(const SemParams& params) {
    return std::make_unique<PortableBinnedBackend<OmpSystem>>(params);
}
std::unique_ptr<ForceBackend> make_thrust_omp_allpairs_backend(const SemParams& params) {
    return std::make_unique<PortableAllPairsBackend<OmpSystem>>(params);
}

} // namespace cellshift::sim
