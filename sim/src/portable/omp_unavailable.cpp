// Built when the CCCL (Thrust) headers were not found at configure time: the
// thrust-omp backends exist by name but say why they cannot run.
#include "../portable_backends.hpp"

#include <stdexcept>

namespace cellshift::sim {

bool thrust_omp_backends_compiled() {
    return false;
}

namespace {
[[noreturn]] void not_compiled(const char* name) {
    throw std::invalid_argument(std::string("backend '") + name +
                                "' is not available: this build found no CCCL (Thrust) headers "
                                "at configure time");
}
} // namespace

std::unique_ptr<ForceBackend> make_thrust_omp_allpairs_backend(const SemParams&) {
    not_compiled("thrust-omp-allpairs");
}
std::unique_ptr<ForceBackend> make_thrust_omp_binned_backend(const SemParams&) {
    not_compiled("thrust-omp-binned");
}

} // namespace cellshift::sim
