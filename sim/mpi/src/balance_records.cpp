#include "cellshift/sim/balance_records.hpp"

namespace cellshift::sim {

const char* PhaseSeconds::name(int k) {
    static const char* const names[kCount] = {"ghost exchange",   "forces",    "integration",
                                              "wait (step sync)", "lifecycle", "migration",
                                              "decision"};
    return names[k];
}

} // namespace cellshift::sim
