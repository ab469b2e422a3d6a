#pragma once
// One interface, several implementations chosen at run time (OpenMM's platform
// split): the serial all-pairs reference is the oracle the fast backends are
// tested against.

#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/tissue.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cellshift::sim {

struct ForceField {
    std::vector<double> x, y, z;
    void assign_zero(std::size_t n) {
        x.assign(n, 0.0);
        y.assign(n, 0.0);
        z.assign(n, 0.0);
    }
};

// What one force evaluation did, summed over the steps of an advance().
struct ForceStats {
    std::int64_t candidates = 0;   // pairs tested (i, j), i != j, both orders
    std::int64_t interactions = 0; // of those, pairs within the cutoff
    ForceStats& operator+=(const ForceStats& o) {
        candidates += o.candidates;
        interactions += o.interactions;
        return *this;
    }
};

class ForceBackend {
public:
    virtual ~ForceBackend() = default;
    virtual std::string name() const = 0;
    // Pair plus external forces on every element, in the elements' order.
    virtual ForceStats compute_forces(const Elements& elements, ForceField& forces) = 0;
    // Takes `steps` Euler steps, numbered first_step, first_step + 1, ...; positions
    // in `elements` are current when it returns. The element set does not change.
    virtual ForceStats advance(Elements& elements, std::int64_t first_step, int steps) = 0;
    // One line about the backend's own machinery (e.g. which OpenMP schedules ran
    // since the last call); empty when there is nothing to say.
    virtual std::string take_report() { return {}; }

    // With MPI a rank's elements are its own plus ghosts, which are partners only:
    // `active[i] == 0` marks a ghost, whose force the CPU backends skip (it is
    // left zero and its pairs are not counted). nullptr: every element is active.
    void set_active(const std::vector<std::uint8_t>* active) { active_ = active; }

protected:
    bool is_active(std::size_t i) const { return active_ == nullptr || (*active_)[i] != 0; }
    const std::vector<std::uint8_t>* active_ = nullptr;
};

// Registered names: cpu-allpairs, cpu-binned, cpu-verlet, cuda-allpairs,
// cuda-binned, thrust-omp-allpairs, thrust-omp-binned (the CUDA backends' source on
// Thrust's OpenMP device system: it runs where no GPU is), plus the aliases cpu (= cpu-verlet, the
// fastest on a CPU), cuda
// (= cuda-binned) and auto (cuda when a device is present, otherwise cpu). `note` receives one
// informative line when auto falls back or picks. Throws std::invalid_argument for an unknown name
// or a CUDA backend without a device.
std::unique_ptr<ForceBackend> make_backend(const std::string& name, const SemParams& params,
                                           std::string* note = nullptr);
const std::vector<std::string>& backend_names();
// The registered backends (aliases left out) that can run in this process: compiled
// in, and for cuda-* a device visible.
std::vector<std::string> runnable_backends();

// Total potential energy (pairs counted once, plus external), serial all-pairs:
// the reference for the force = -grad(energy) test.
double total_energy(const Elements& elements, const SemParams& params);

} // namespace cellshift::sim
