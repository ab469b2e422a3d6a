#pragma once
// Simulator checkpoints (format "cellshift.checkpoint"): the whole tissue, which
// rank owns each cell, and the balancer's state (the policy's arrays, the clock
// accumulators, the run record so far), so that a restarted run continues exactly
// as an uninterrupted one. Written atomically: a killed run leaves the previous
// checkpoint intact.

#include "cellshift/data/array2d.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cellshift::data {

inline constexpr const char* kCheckpointFormat = "cellshift.checkpoint";
inline constexpr int kCheckpointFormatVersion = 1;

// Named float64 arrays (integers below 2^53 are stored exactly).
using NamedArrays = std::map<std::string, std::vector<double>>;

struct Checkpoint {
    std::int64_t step = 0;
    double time = 0.0;
    std::int64_t next_cell_id = 0;
    // Elements [N], sorted by id.
    Matrix positions; // [N, 3]
    std::vector<std::int64_t> element_id, element_cell, element_adhesive;
    // Cells [C], sorted by id.
    std::vector<std::int64_t> cell_id, cell_type, cell_generation, cell_next_serial, cell_elements,
        cell_owner;
    std::vector<double> cell_age, cell_cycle_time, cell_growth_credit;
    // Decomposition and balancer.
    std::int64_t ranks = 1;
    std::int64_t slices = 1;
    std::string policy;
    std::string configuration; // what a restart must match, as text
    NamedArrays policy_state;
    NamedArrays balancer_state;
};

// Shapes, finiteness, sorted unique ids, element-cell consistency, owners in
// [0, ranks), types 0..2. Throws Error("<where>: <problem>").
void validate(const Checkpoint& checkpoint, const std::string& where);
void write_checkpoint(const std::string& path, const Checkpoint& checkpoint);
Checkpoint read_checkpoint(const std::string& path);

} // namespace cellshift::data
