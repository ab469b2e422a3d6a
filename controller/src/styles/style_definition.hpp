#pragma once
// How a balancing style registers itself (LAMMPS' style files, in C++ terms).
//
// A style is one file in controller/src/styles/. It defines its rule, a struct
// with one named field per parameter, the table that documents each field
// (default, accepted range, meaning) beside the rule, and registers all of it:
//
//     struct SeamFields { double rho = 0.0, delta = 0.0; };
//     CELLSHIFT_POLICY_STYLES(seam) {   // the file's name without .cpp
//         styles.push_back(define_style<SeamFields>(
//             "seam", "seam rule ...",
//             {{"rho", &SeamFields::rho, 0.1, 0.0, 2.0, "threshold on ..."}, ...},
//             Reads::rank_times,
//             [](const SeamFields& f, const PolicySettings&) { return ...; }));
//     }
//
// The build lists the files of this folder (controller/CMakeLists.txt) and the
// registry calls every file's registration, so adding a style touches one file
// and no static initialiser is involved (those would be dropped from a static
// library by the linker, as nothing refers to them).

#include "cellshift/controller/registry.hpp"

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cellshift::controller::styles {

// What a style reads of an Observation beside the rank times.
enum class Reads {
    rank_times,     // nothing else
    slice_workload, // Observation::slice_workload (a caller without it cannot run the style)
    next_workload,  // Observation::next_workload: clairvoyant, a floor for evaluation only
};

// One parameter: its name, the field of the style's struct it fills, and its
// documentation.
template <class Fields>
struct Field {
    const char* name;
    double Fields::*member;
    double default_value;
    double min_value; // accepted range, inclusive
    double max_value;
    const char* meaning;
};

struct NoFields {};

// The per-slice estimates' calibration against measured rank times
// (rank_time_calibration.hpp): a parameter of every style that reads them, off by
// default, and of `rnn`, whose controller file names its own value.
inline constexpr const char* kCalibrateParameter = "calibrate";

template <class Fields>
PolicyStyle
define_style(std::string name, std::string summary, std::vector<Field<Fields>> fields, Reads reads,
             std::function<std::unique_ptr<Policy>(const Fields&, const PolicySettings&)> create) {
    PolicyStyle style;
    style.name = std::move(name);
    style.summary = std::move(summary);
    for (const Field<Fields>& f : fields)
        style.parameters.push_back({f.name, f.default_value, f.min_value, f.max_value, f.meaning});
    style.needs_slice_workload = reads == Reads::slice_workload;
    style.clairvoyant = reads == Reads::next_workload;
    // Every style that reads per-slice estimates may calibrate them against the
    // measured rank times first (rank_time_calibration.hpp); off unless asked.
    if (style.needs_slice_workload)
        style.parameters.push_back(
            {kCalibrateParameter, 1.0, 0.0, 1.0,
             "memory per event of the per-slice estimates' calibration against the measured "
             "rank times (0: the last interval's ratio alone; 1: off)"});
    style.create = [fields = std::move(fields), create = std::move(create),
                    reads](const Parameters& values, const PolicySettings& settings) {
        Fields typed{};
        if constexpr (!std::is_empty_v<Fields>) { // no fields to fill (and none to index)
            for (const Field<Fields>& f : fields)
                typed.*f.member = values[f.name];
        }
        std::unique_ptr<Policy> policy = create(typed, settings);
        if (reads == Reads::slice_workload)
            policy->set_calibration(values[kCalibrateParameter]);
        return policy;
    };
    return style;
}

// Shared by the styles that need per-slice estimates: throws a one-line error
// naming the policy when the caller gave none.
const std::vector<double>& require_slice_workload(const Observation& o, const char* policy);

// Every style file's registration, declared from the build's list of them.
#define CELLSHIFT_STYLE_FILE(stem) void register_##stem(std::vector<PolicyStyle>& styles);
#include "cellshift_style_files.inc"
#undef CELLSHIFT_STYLE_FILE

} // namespace cellshift::controller::styles

// Opens the registration function of the style file `stem` (its name without .cpp);
// its body appends to `styles`. Use it inside namespace cellshift::controller::styles.
#define CELLSHIFT_POLICY_STYLES(stem) void register_##stem(std::vector<PolicyStyle>& styles)
