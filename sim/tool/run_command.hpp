#pragma once
// `cellshift-sim run`: one rank runs a tissue for N steps, printing per-interval
// statistics, writing snapshots with their XDMF sidecar, and optionally dumping
// per-element forces for external checks.

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_params.hpp"

#include <cstdint>
#include <string>

namespace cellshift::sim::tool {

struct RunOptions {
    std::int64_t steps = 2000;
    std::string backend = "auto";
    std::int64_t report_every = 500; // steps between statistics lines
    std::int64_t snapshot_every = 0; // 0: no snapshots
    std::string out;                 // folder for snapshots and tissue.xdmf
    std::string dump_forces;         // CSV of per-element forces after the run
    bool quiet = false;              // no progress bar
};

// Validates everything before writing anything; returns the exit code.
int run_simulation(const SemParams& params, const RunOptions& options);

// Writes "id,cell,x,y,z,fx,fy,fz" for every element (atomically).
void write_forces_csv(const std::string& path, const Elements& elements, const ForceField& forces);

} // namespace cellshift::sim::tool
