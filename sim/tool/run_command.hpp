#pragma once
// `cellshift-sim run`: P ranks (mpirun -n P) run a tissue for N steps under a
// balancing policy, printing per-interval statistics and an end-of-run balancing
// summary, writing snapshots (XDMF sidecar), the run record and checkpoints.

#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/slab_simulation.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

namespace cellshift::sim::tool {

struct RunOptions {
    std::int64_t steps = 2000;
    std::string backend = "auto";
    std::int64_t report_every = 500;   // steps between statistics lines
    std::int64_t snapshot_every = 0;   // 0: no snapshots
    std::string out;                   // folder for snapshots and tissue.xdmf
    std::string dump_forces;           // CSV of per-element forces after the run (one rank)
    std::string run_record;            // cellshift.run file of the balancing events
    std::string trace_out;             // cellshift.trace file of the per-slab workload
    std::string checkpoint;            // checkpoint file, rewritten atomically
    std::int64_t checkpoint_every = 0; // steps between checkpoints (0: only at the end)
    std::string restart;               // checkpoint to continue from
    // The step at which the whole run ends, across restarts, as the policy is told
    // (Observation::intervals_left): -1, this invocation's last step; 0, not known.
    std::int64_t last_step = -1;
    bool quiet = false; // no progress bar
};

// Throws std::invalid_argument for inconsistent run options on `ranks` ranks
// (files are only checked for an existing folder).
void validate_run_options(const RunOptions& options, int ranks);

// Validates everything before writing anything; returns the exit code.
// `configuration` is the text a checkpoint must match on restart.
int run_simulation(MPI_Comm comm, const SemParams& params, const BalanceOptions& balance,
                   const RunOptions& options, const std::string& configuration);

// Writes "id,cell,x,y,z,fx,fy,fz" for every element (atomically).
void write_forces_csv(const std::string& path, const Elements& elements, const ForceField& forces);

} // namespace cellshift::sim::tool
