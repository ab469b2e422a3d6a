#pragma once
// The CUDA backends' entry points, plain C++ so the registry can call them from
// a .cpp file. Implemented in cuda_allpairs.cu / cuda_binned.cu when nvcc built
// this library, and by cuda_backends_unavailable.cpp when it did not.

#include "cellshift/sim/force_backend.hpp"

#include <memory>

namespace cellshift::sim {

bool cuda_backends_compiled();
std::unique_ptr<ForceBackend> make_cuda_allpairs_backend(const SemParams& params);
std::unique_ptr<ForceBackend> make_cuda_binned_backend(const SemParams& params);

} // namespace cellshift::sim
