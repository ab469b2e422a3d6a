#pragma once
// The scenarios' counter-based random numbers: the project's one definition
// (cellshift/common/counter_rng.hpp), under the names the generator uses.

#include "cellshift/common/counter_rng.hpp"

namespace cellshift::scenarios {

using common::counter_hash;
using common::counter_normal;
using common::counter_uniform;
using common::mix64;

} // namespace cellshift::scenarios
