#pragma once
// The painted families (front, point, shift, colonies): scenario_families.cpp.

#include "cellshift/scenarios/scenario.hpp"

namespace cellshift::scenarios {

Scenario generate_family_scenario(const ScenarioConfig& config, std::uint64_t seed);

} // namespace cellshift::scenarios
