// cellshift-sim: the MPI + CUDA SEM tissue simulator. Subcommands: run (P ranks
// under mpirun, slab decomposition with live balancing), write-config,
// lattice-forces (the external LAMMPS check) and devices.

#include "cellshift/controller/registry.hpp"
#include "cellshift/data/atomic_file.hpp"
#include "cellshift/data/run_tool.hpp"
#include "cellshift/sim/collective_error.hpp"
#include "cellshift/sim/cuda_devices.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/version.hpp"
#include "tool/calibrate_command.hpp"
#include "tool/lattice_command.hpp"
#include "tool/run_command.hpp"
#include "tool/sem_options.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <fstream>
#include <iostream>

namespace {

int print_devices(int rank, int size) {
    if (rank != 0) {
        return 0;
    }
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(library, &length);
    std::string mpi(library, static_cast<std::size_t>(length));
    mpi = mpi.substr(0, mpi.find_first_of(",\n"));
    cellshift::sim::CudaProbe cuda = cellshift::sim::probe_cuda_devices();
    std::cout << "MPI: " << size << " rank(s) (" << mpi << ")\n"
              << "CPU: " << omp_get_max_threads() << " OpenMP thread(s) per rank\n"
              << "CUDA: " << cuda.status << "\n";
    for (const auto& d : cuda.devices) {
        std::cout << "  device " << d.index << ": " << d.name << ", compute " << d.compute_major
                  << "." << d.compute_minor << ", " << (d.memory_bytes >> 20) << " MiB\n";
    }
    return 0;
}

// The options a restart must match: the model and the balancing setup, as
// "name = value" lines (the given value, or the default).
std::string configuration_of(const CLI::App& run, const std::vector<std::string>& skip_groups) {
    std::string text;
    for (const CLI::Option* opt : run.get_options()) {
        const std::string group = opt->get_group();
        if (opt->get_name().empty() || opt->get_name() == "--help" ||
            std::find(skip_groups.begin(), skip_groups.end(), group) != skip_groups.end())
            continue;
        std::string value;
        for (const std::string& r : opt->results())
            value += (value.empty() ? "" : " ") + r;
        if (opt->count() == 0)
            value = opt->get_default_str();
        text += opt->get_name() + " = " + value + "\n";
    }
    return text;
}

} // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    CLI::App app{"cellshift-sim: MPI + CUDA subcellular-element (SEM) tissue simulator with "
                 "learned dynamic load balancing. Run with mpirun -n P."};
    app.set_version_flag("--version", std::string("cellshift-sim ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + ")");
    app.require_subcommand(1);
    app.add_subcommand("devices", "print the MPI ranks, OpenMP threads and CUDA devices "
                                  "this run would use");

    // run: the model's parameters are options and keys of the [run] section of a
    // TOML/INI config file (cellshift-sim --config FILE run ...).
    app.set_config("--config", "",
                   "read options from a TOML or INI file ([run] section); "
                   "`cellshift-sim write-config FILE` writes a documented one");
    app.allow_config_extras(CLI::config_extras_mode::error);
    cellshift::sim::SemParams params;
    cellshift::sim::tool::RunOptions run_options;
    CLI::App* run = app.add_subcommand(
        "run", "run a tissue simulation on P ranks (mpirun -n P) with live load balancing, "
               "per-interval statistics, a balancing summary, snapshots, run record and "
               "checkpoints");
    std::string backends;
    for (const auto& b : cellshift::sim::backend_names())
        backends += (backends.empty() ? "" : ", ") + b;
    const char* run_group = "Run";
    run->add_option("--steps", run_options.steps, "number of time steps")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--backend", run_options.backend, "force backend: " + backends)
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--report-every", run_options.report_every, "steps between statistics lines")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--snapshot-every", run_options.snapshot_every,
                    "steps between snapshots (0: none); needs --out")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--out", run_options.out, "folder for snapshot_*.h5 and tissue.xdmf (ParaView)")
        ->group(run_group);
    run->add_option("--dump-forces", run_options.dump_forces,
                    "after the run, write id,cell,x,y,z,fx,fy,fz of every element to this CSV")
        ->group(run_group);
    run->add_option("--run-record", run_options.run_record,
                    "write the balancing events (cellshift.run HDF5) to this file")
        ->group(run_group);
    run->add_option("--checkpoint", run_options.checkpoint,
                    "write a checkpoint (tissue, owners, balancer state) to this file at the end, "
                    "rewritten atomically")
        ->group(run_group);
    run->add_option("--checkpoint-every", run_options.checkpoint_every,
                    "also write it every N steps (0: only at the end)")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--restart", run_options.restart,
                    "continue from this checkpoint (same configuration and rank count); --steps "
                    "counts the steps added")
        ->group(run_group);
    run->add_flag("-q,--quiet", run_options.quiet, "no progress bar")->group(run_group);

    cellshift::sim::BalanceOptions balance;
    balance.controller_file = CELLSHIFT_SHIPPED_CONTROLLER; // as in cellshift-eval
    std::string policies;
    for (const auto& style : cellshift::controller::policy_styles()) {
        if (!style.clairvoyant)
            policies += (policies.empty() ? "" : ", ") + style.name;
    }
    const char* lb = "Load balancing (DESIGN section 3)";
    run->add_option("--slabs", balance.slabs,
                    "S: slabs along x, the balancer's slices; Lx / S must be a whole number of "
                    "bins (0: one slab per bin column)")
        ->capture_default_str()
        ->group(lb);
    run->add_option("--w-min", balance.w_min, "minimum slabs per rank")
        ->capture_default_str()
        ->group(lb);
    run->add_option("--rebalance-every", balance.rebalance_every,
                    "steps between rebalancing events (0: never)")
        ->capture_default_str()
        ->group(lb);
    run->add_option("--policy", balance.policy, "balancing policy: " + policies)
        ->capture_default_str()
        ->group(lb);
    run->add_option("--param", balance.params,
                    "override a parameter of --policy, POLICY.NAME=VALUE (repeatable), e.g. "
                    "reactive.ds_max_fraction=0.2 (cellshift-eval policies lists them)")
        ->group(lb);
    run->add_option("--controller", balance.controller_file,
                    "controller file for the `rnn` policy (default: the shipped gru24.h5)")
        ->group(lb);
    run->add_option("--clock", balance.clock,
                    "rank times the policy sees: model (calibrated cost model, reproducible) or "
                    "measured (steady clock around each rank's compute)")
        ->capture_default_str()
        ->group(lb);
    const char* cost = "Model clock (cellshift-sim calibrate; docs/simulator.md)";
    run->add_option("--cost-pair", balance.cost.per_pair,
                    "seconds per pair interaction within the cutoff")
        ->capture_default_str()
        ->group(cost);
    run->add_option("--cost-element", balance.cost.per_element,
                    "seconds per owned element per step")
        ->capture_default_str()
        ->group(cost);
    run->add_option("--cost-ghost", balance.cost.per_ghost, "seconds per ghost element per step")
        ->capture_default_str()
        ->group(cost);
    run->add_option("--cost-migrated", balance.cost.per_migrated_element,
                    "seconds per element that changes owner")
        ->capture_default_str()
        ->group(cost);
    cellshift::sim::tool::add_model_options(*run, params);

    std::string config_out;
    CLI::App* write_config = app.add_subcommand(
        "write-config", "write every run option with its description and default as a TOML file");
    write_config->add_option("file", config_out, "the config file to write")->required();

    cellshift::sim::tool::LatticeOptions lattice;
    CLI::App* lattice_cmd = app.add_subcommand(
        "lattice-forces", "forces on a jittered fcc lattice under one Morse parameter set, and "
                          "the same lattice as a LAMMPS data file (the external force check)");
    lattice_cmd->add_option("--cells", lattice.cells, "fcc unit cells per side (4 n^3 elements)")
        ->capture_default_str();
    lattice_cmd->add_option("--density", lattice.density, "number density (LAMMPS lattice fcc)")
        ->capture_default_str();
    lattice_cmd->add_option("--jitter", lattice.jitter, "random displacement in lattice constants")
        ->capture_default_str();
    lattice_cmd->add_option("--seed", lattice.seed, "seed of the displacements")
        ->capture_default_str();
    lattice_cmd->add_option("--D0", lattice.D0, "Morse well depth")->capture_default_str();
    lattice_cmd->add_option("--alpha", lattice.alpha, "Morse stiffness")->capture_default_str();
    lattice_cmd->add_option("--r0", lattice.r0, "Morse equilibrium distance")
        ->capture_default_str();
    lattice_cmd->add_option("--cutoff", lattice.cutoff, "cutoff")->capture_default_str();
    lattice_cmd->add_option("--backend", lattice.backend, "force backend: " + backends)
        ->capture_default_str();
    lattice_cmd->add_option("--forces", lattice.forces, "CSV of id,cell,x,y,z,fx,fy,fz")
        ->required();
    lattice_cmd->add_option("--lammps-data", lattice.lammps_data,
                            "LAMMPS data file (atom_style atomic)");

    cellshift::sim::tool::CalibrateOptions calibration;
    cellshift::sim::SemParams calibration_params;
    CLI::App* calibrate_cmd = app.add_subcommand(
        "calibrate", "measure the model clock's constants (seconds per pair interaction, "
                     "element, ghost and migrated element) on this machine, one process");
    calibrate_cmd->add_option("--backend", calibration.backend, "force backend to time")
        ->capture_default_str();
    calibrate_cmd->add_option("--steps", calibration.steps, "timed steps per tissue")
        ->capture_default_str();
    calibrate_cmd
        ->add_option("--repeats", calibration.repeats, "timed runs per tissue (the median counts)")
        ->capture_default_str();

    int code = cellshift::data::run_tool<CLI::ParseError>(
        "cellshift-sim", app, argc, argv,
        [&] {
            if (app.got_subcommand("devices")) {
                return print_devices(rank, size);
            }
            if (app.got_subcommand("run")) {
                try {
                    return cellshift::sim::tool::run_simulation(
                        MPI_COMM_WORLD, params, balance, run_options,
                        configuration_of(*run, {run_group}));
                } catch (const cellshift::sim::CollectiveError&) {
                    throw; // every rank has it: rank 0 reports it once
                } catch (const std::exception& error) {
                    if (size == 1)
                        throw;
                    // One rank failed alone: the others would wait for it forever.
                    std::cerr << "cellshift-sim: error: rank " << rank << ": "
                              << cellshift::data::one_line(error.what()) << "\n";
                    MPI_Abort(MPI_COMM_WORLD, cellshift::data::kExitFailure);
                }
            }
            if (size > 1 && rank != 0) {
                return 0; // the other subcommands run on rank 0
            }
            if (app.got_subcommand("write-config")) {
                std::string text =
                    "# cellshift-sim configuration: cellshift-sim --config FILE run\n" +
                    run->config_to_str(true, true);
                cellshift::data::write_text_atomically(config_out, "[run]\n" + text);
                std::cout << "wrote " << config_out << "\n";
                return 0;
            }
            if (app.got_subcommand("calibrate")) {
                return cellshift::sim::tool::calibrate(calibration_params, calibration);
            }
            if (app.got_subcommand("lattice-forces")) {
                return cellshift::sim::tool::lattice_forces(lattice);
            }
            return 0;
        },
        /*report_errors=*/rank == 0);
    MPI_Finalize();
    return code;
}
