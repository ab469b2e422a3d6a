#include "cellshift/controller/registry.hpp"

#include "styles/style_definition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace cellshift::controller {

const std::vector<double>& styles::require_slice_workload(const Observation& o,
                                                          const char* policy) {
    if (o.slice_workload.empty()) {
        throw std::invalid_argument(std::string("policy '") + policy +
                                    "' needs per-slice workload estimates, and the caller "
                                    "gave none");
    }
    return o.slice_workload;
}

namespace {

// Every style file of controller/src/styles/ registers its styles; the table
// lists them by name.
std::vector<PolicyStyle> build_styles() {
    std::vector<PolicyStyle> all;
#define CELLSHIFT_STYLE_FILE(stem) styles::register_##stem(all);
#include "cellshift_style_files.inc"
#undef CELLSHIFT_STYLE_FILE
    std::sort(all.begin(), all.end(),
              [](const PolicyStyle& a, const PolicyStyle& b) { return a.name < b.name; });
    for (std::size_t k = 1; k < all.size(); ++k) {
        if (all[k].name == all[k - 1].name)
            throw std::logic_error("two policy styles are named '" + all[k].name + "'");
    }
    return all;
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
