#include "cellshift/controller/registry.hpp"

#include "styles.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace cellshift::controller {
namespace {

// The reactive rule's constants, shared by `reactive` and `rnn-zero` so that the
// two are the same rule. Every default in this file is the best point of the
// documented search on training seeds (docs/baselines.md); reactive's is the
// lowest modelled runtime over every scenario family and three migration costs.
std::vector<ParameterInfo> reactive_parameters() {
    return {
        {"alpha", 0.45, 1e-6, 10.0, "gain: fraction of the estimated excess moved per event"},
        {"tau", 0.02, 0.0, 2.0, "dead band: boundaries with |I| <= tau do not move"},
        {"ds_max_fraction", 1.0, 1e-6, 1.0,
         "largest move per boundary and event, x S/P (at least one slice)"},
    };
}

std::vector<PolicyStyle> build_styles() {
    using namespace styles;
    std::vector<ParameterInfo> focused = reactive_parameters();
    focused.push_back({"focus", 0.0, 0.0, 1.0,
                       "a boundary moves only if its slower neighbour's time is >= mean + focus "
                       "(max - mean)"});
    std::vector<ParameterInfo> zero = reactive_parameters();
    zero.push_back({"seed", 0.0, 0.0, 1e15, "seed of the random GRU weights"});
    return {
        {"static", "keep the workload-aware initial partition", {}, false, false, make_static},
        {"reactive", "reactive boundary-shift rule (paper baseline)", reactive_parameters(), false,
         false, make_reactive},
        {"reactive-max", "reactive rule on the boundaries of the slowest ranks only", focused,
         false, false, make_reactive_max},
        {"persistence",
         "forecast = last per-slice workload, equal-load repartition",
         {},
         true,
         false,
         make_persistence},
        {"holt",
         "Holt level+trend forecast per slice, equal-load repartition",
         {{"level_alpha", 0.6, 0.0, 1.0, "smoothing of the level"},
          {"trend_beta", 0.0, 0.0, 1.0, "smoothing of the trend"}},
         true,
         false,
         make_holt},
        {"lazy-holt",
         "holt's target, but a boundary moves only to unload a neighbour heavier than (1 + "
         "threshold + threshold_slices / (S/P)) x mean, by at most step slices",
         {{"level_alpha", 0.6, 0.0, 1.0, "smoothing of the level"},
          {"trend_beta", 0.0, 0.0, 1.0, "smoothing of the trend"},
          {"threshold", -1.0, -1.0, 10.0,
           "a boundary moves only to unload a neighbour whose forecast load is >= (1 + "
           "threshold) x mean (-1: no gate, holt's repartition)"},
          {"threshold_slices", 0.0, 0.0, 1e6,
           "added to threshold in slices of a mean-width rank: threshold + this / (S/P)"},
          {"hysteresis", 1.0, 0.0, 1e6, "slices between boundary and target before it moves"},
          {"step", 0.0, 0.0, 1e6, "largest move per boundary and event, slices (0: no limit)"}},
         true,
         false,
         make_lazy_holt},
        {"seam",
         "seam rule (seed 003): move by delta when the relative difference exceeds rho, never "
         "two adjacent boundaries",
         {{"rho", 0.1, 0.0, 2.0, "threshold on the relative load difference"},
          {"delta", 1.0, 1.0, 1e9, "slices moved per triggered boundary"}},
         false,
         false,
         make_seam},
        {"hoomd",
         "HOOMD-blue style: scale domains by inverse load ratio",
         {{"tolerance", 1.05, 1.0, 10.0, "balance only when max/mean exceeds this"},
          {"max_change", 0.002, 0.0, 1.0, "largest relative width change per event"}},
         false,
         false,
         make_hoomd},
        {"lammps-shift",
         "LAMMPS fix balance shift style: threshold, then bisection of cuts on slice costs",
         {{"threshold", 1.01, 1.0, 10.0, "rebalance when measured max/mean exceeds this"},
          {"iterations", 10.0, 1.0, 1000.0, "Niter: adjustment rounds per event"},
          {"stop", 1.01, 1.0, 10.0, "stopthresh: stop when the estimated max/mean is below"}},
         true,
         false,
         make_lammps_shift},
        {"oracle",
         "clairvoyant optimal min-max partition of the next interval (a floor)",
         {},
         false,
         true,
         make_oracle},
        {"rnn",
         "learned GRU controller from a controller file: a gain and correction on holt's split "
         "(forecast base; reads per-slice workload and the host's migration cost) or a residual "
         "on the reactive rule (the paper's)",
         {{"hold_horizon", -1.0, -1.0, 1e6,
           "cost gate: move only if the forecast says the move pays within this many intervals, "
           "migration included (0: no gate; -1: the controller file's value)"}},
         false,
         false,
         make_rnn},
        {"rnn-zero",
         "residual GRU with random weights and a zero head: must equal reactive exactly", zero,
         false, false, make_rnn_zero},
    };
}

std::string known_names() {
    std::string names;
    for (const auto& s : policy_styles()) {
        names += (names.empty() ? "" : ", ") + s.name;
    }
    return names;
}

} // namespace

double Parameters::operator[](const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) {
        throw std::logic_error("policy '" + policy_ + "' has no parameter '" + name + "'");
    }
    return it->second;
}

const std::vector<PolicyStyle>& policy_styles() {
    static const std::vector<PolicyStyle> styles = build_styles();
    return styles;
}

const PolicyStyle& policy_style(const std::string& name) {
    for (const auto& s : policy_styles()) {
        if (s.name == name) {
            return s;
        }
    }
    throw std::invalid_argument("unknown policy '" + name + "' (known: " + known_names() + ")");
}

std::unique_ptr<Policy> make_policy(const std::string& name, const PolicySettings& settings) {
    const PolicyStyle& style = policy_style(name);
    std::map<std::string, double> values;
    for (const auto& p : style.parameters) {
        values[p.name] = p.default_value;
    }
    for (const auto& [key, value] : settings.overrides) {
        const ParameterInfo* info = nullptr;
        for (const auto& p : style.parameters) {
            if (p.name == key) {
                info = &p;
            }
        }
        if (info == nullptr) {
            std::string have;
            for (const auto& p : style.parameters) {
                have += (have.empty() ? "" : ", ") + p.name;
            }
            throw std::invalid_argument(
                "policy '" + name + "' has no parameter '" + key + "'" +
                (have.empty() ? " (it has none)" : " (it has: " + have + ")"));
        }
        if (!std::isfinite(value) || value < info->min_value || value > info->max_value) {
            std::ostringstream out;
            out << "parameter " << name << "." << key << " = " << value << " is outside ["
                << info->min_value << ", " << info->max_value << "]";
            throw std::invalid_argument(out.str());
        }
        values[key] = value;
    }
    return style.create(Parameters(name, values), settings);
}

ParameterOverride parse_parameter_override(const std::string& p) {
    const auto dot = p.find('.');
    const auto eq = p.find('=');
    if (dot == std::string::npos || eq == std::string::npos || eq < dot)
        throw std::invalid_argument("--param '" + p + "' is not POLICY.NAME=VALUE");
    ParameterOverride o{p.substr(0, dot), p.substr(dot + 1, eq - dot - 1), 0.0};
    const std::string text = p.substr(eq + 1);
    try {
        std::size_t used = 0;
        o.value = std::stod(text, &used);
        if (used != text.size())
            throw std::invalid_argument(text);
    } catch (const std::exception&) {
        throw std::invalid_argument("--param '" + p + "': '" + text + "' is not a number");
    }
    return o;
}

} // namespace cellshift::controller
