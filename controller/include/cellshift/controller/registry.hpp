#pragma once
// The registry of balancing styles, selected by name (like LAMMPS' balance
// styles). Each style documents its parameters and their defaults here, next to
// the code; `cellshift-eval policies` prints this table.

#include "cellshift/controller/policy.hpp"
#include "cellshift/data/controller_file.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cellshift::controller {

struct ParameterInfo {
    std::string name;
    double default_value;
    double min_value; // accepted range, inclusive
    double max_value;
    std::string meaning;
};

// Parameter values of one policy instance: the style's defaults with the
// caller's overrides. Asking for an unknown name is a programming error.
class Parameters {
public:
    Parameters(std::string policy, std::map<std::string, double> values)
        : policy_(std::move(policy)), values_(std::move(values)) {}
    double operator[](const std::string& name) const;

private:
    std::string policy_;
    std::map<std::string, double> values_;
};

struct PolicySettings {
    std::map<std::string, double> overrides;      // parameter name -> value
    std::string controller_file;                  // for `rnn`: read when `controller` is null
    const data::Controller* controller = nullptr; // for `rnn`: weights already in memory
};

struct PolicyStyle {
    std::string name;
    std::string summary;
    std::vector<ParameterInfo> parameters;
    bool needs_slice_workload = false; // reads Observation::slice_workload
    bool clairvoyant = false;          // reads Observation::next_workload
    std::function<std::unique_ptr<Policy>(const Parameters&, const PolicySettings&)> create;
};

// Every registered style, in the order tables list them.
const std::vector<PolicyStyle>& policy_styles();
const PolicyStyle& policy_style(const std::string& name); // throws for unknown names

// One `--param POLICY.NAME=VALUE` of the tools (the same form in cellshift-eval
// and cellshift-sim); throws std::invalid_argument with one line naming it.
struct ParameterOverride {
    std::string policy;
    std::string name;
    double value = 0.0;
};
ParameterOverride parse_parameter_override(const std::string& text);

// Creates a policy; throws std::invalid_argument with one line for an unknown
// policy, an unknown parameter or an invalid value.
std::unique_ptr<Policy> make_policy(const std::string& name, const PolicySettings& settings = {});

} // namespace cellshift::controller
