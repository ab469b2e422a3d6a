#pragma once
// Internal: the factory of every registered style, one source file per style.

#include "cellshift/controller/registry.hpp"

namespace cellshift::controller::styles {

std::unique_ptr<Policy> make_static(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_reactive(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_reactive_max(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_persistence(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_holt(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_lazy_holt(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_seam(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_hoomd(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_lammps_shift(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_oracle(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_rnn(const Parameters&, const PolicySettings&);
std::unique_ptr<Policy> make_rnn_zero(const Parameters&, const PolicySettings&);

// Shared by the styles that need per-slice estimates.
const std::vector<double>& require_slice_workload(const Observation& o, const char* policy);

} // namespace cellshift::controller::styles
