#pragma once
// Entry points of the portable GPU backends (src/portable/), plain C++ so the
// registry can call them. The same Thrust source is built for CUDA by nvcc
// (cuda-binned, cuda-allpairs) and for Thrust's OpenMP device system by the host
// compiler (thrust-omp-binned, thrust-omp-allpairs); a build without the CCCL
// headers or without nvcc gets the "unavailable" versions, which say why.

#include "cellshift/sim/force_backend.hpp"

#include <memory>

namespace cellshift::sim {

bool cuda_backends_compiled();
std::unique_ptr<ForceBackend> make_cuda_allpairs_backend(const SemParams& params);
std::unique_ptr<ForceBackend> make_cuda_binned_backend(const SemParams& params);

bool thrust_omp_backends_compiled();
std::unique_ptr<ForceBackend> make_thrust_omp_allpairs_backend(const SemParams& params);
std::unique_ptr<ForceBackend> make_thrust_omp_binned_backend(const SemParams& params);

} // namespace cellshift::sim
