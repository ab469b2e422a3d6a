// Built when nvcc was not found: the CUDA backends exist by name but say why they
// cannot run.
#include "../portable_backends.hpp"

#include <stdexcept>

namespace cellshift::sim {

bool cuda_backends_compiled() {
    return false;
}

namespace {
[[noreturn]] void not_compiled(const char* name) {
    throw std::invalid_argument(std::string("backend '") + name +
                                "' is not available: this build has no CUDA (nvcc was not "
                                "found at configure time)");
}
} // namespace

std::unique_ptr<ForceBackend> make_cuda_allpairs_backend(const SemParams&) {
    not_compiled("cuda-allpairs");
}
std::unique_ptr<ForceBackend> make_cuda_binned_backend(const SemParams&) {
    not_compiled("cuda-binned");
}

} // namespace cellshift::sim
