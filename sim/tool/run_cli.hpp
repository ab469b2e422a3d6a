#pragma once
// The `run` subcommand of cellshift-sim: every option of a run (model, run,
// balancing, model clock) and the --config file that sets them. Shared by the
// tool and the config-file fuzz target (tests/fuzz), so that both parse the same
// options. Header-only like sem_options.hpp: CLI11 is compiled only where used.

#include "cellshift/controller/registry.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/sem_params.hpp"
#include "cellshift/sim/slab_simulation.hpp"
#include "run_command.hpp"
#include "sem_options.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace cellshift::sim::tool {

// Options of this group are not part of the configuration a restart must match.
inline constexpr const char* kRunGroup = "Run";

// A transform for an option that names one of `values` (as `name_of` spells them):
// it stores the enum's number, so that CLI11 fills the enum field.
template <typename Enum>
CLI::Validator enum_by_name(std::vector<Enum> values, const char* (*name_of)(Enum),
                            const std::string& what) {
    std::string choices, listed;
    for (std::size_t i = 0; i < values.size(); ++i) {
        choices += (i == 0 ? "" : "|") + std::string(name_of(values[i]));
        listed += (i == 0                   ? ""
                   : i + 1 == values.size() ? " or "
                                            : ", ") +
                  std::string(name_of(values[i]));
    }
    return CLI::Validator(
        [values, name_of, what, listed](std::string& text) -> std::string {
            for (const Enum v : values) {
                if (text == name_of(v)) {
                    text = std::to_string(static_cast<int>(v));
                    return {};
                }
            }
            return what + " must be " + listed + ", got '" + text + "'";
        },
        choices, what);
}

// Everything `cellshift-sim run` sets.
struct RunCommandLine {
    SemParams params;
    RunOptions run;
    BalanceOptions balance;
};

// Adds --config to `app` and the `run` subcommand with all its options.
inline CLI::App* add_run_subcommand(CLI::App& app, RunCommandLine& line) {
    // run: the model's parameters are options and keys of the [run] section of a
    // TOML/INI config file (cellshift-sim --config FILE run ...).
    app.set_config("--config", "",
                   "read options from a TOML or INI file ([run] section); "
                   "`cellshift-sim write-config FILE` writes a documented one");
    app.allow_config_extras(CLI::config_extras_mode::error);
    CLI::App* run = app.add_subcommand(
        "run", "run a tissue simulation on P ranks (mpirun -n P) with live load balancing, "
               "per-interval statistics, a balancing summary, snapshots, run record and "
               "checkpoints");
    std::string backends;
    for (const auto& b : backend_names())
        backends += (backends.empty() ? "" : ", ") + b;
    const char* run_group = kRunGroup;
    run->add_option("--steps", line.run.steps, "number of time steps")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--backend", line.run.backend, "force backend: " + backends)
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--report-every", line.run.report_every, "steps between statistics lines")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--snapshot-every", line.run.snapshot_every,
                    "steps between snapshots (0: none); needs --out")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--out", line.run.out, "folder for snapshot_*.h5 and tissue.xdmf (ParaView)")
        ->group(run_group);
    run->add_option("--dump-forces", line.run.dump_forces,
                    "after the run, write id,cell,x,y,z,fx,fy,fz of every element to this CSV")
        ->group(run_group);
    run->add_option("--run-record", line.run.run_record,
                    "write the balancing events (cellshift.run HDF5) to this file")
        ->group(run_group);
    run->add_option("--trace-out", line.run.trace_out,
                    "write the per-slab workload of every rebalancing interval, with growth "
                    "events and cycle phase (cellshift.trace HDF5), for cellshift-eval trace "
                    "and cellshift-train --traces; the model clock's per-slab cost costs one "
                    "extra neighbour count per step")
        ->group(run_group);
    run->add_option("--checkpoint", line.run.checkpoint,
                    "write a checkpoint (tissue, owners, balancer state) to this file at the end, "
                    "rewritten atomically")
        ->group(run_group);
    run->add_option("--checkpoint-every", line.run.checkpoint_every,
                    "also write it every N steps (0: only at the end)")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--last-step", line.run.last_step,
                    "the step the whole run ends at, across restarts, as the balancing policy "
                    "is told (the learned controller makes no move that cannot repay its "
                    "migration by then): -1, this invocation's last step; 0, not known")
        ->capture_default_str()
        ->group(run_group);
    run->add_option("--restart", line.run.restart,
                    "continue from this checkpoint (same configuration and rank count); --steps "
                    "counts the steps added")
        ->group(run_group);
    run->add_flag("-q,--quiet", line.run.quiet, "no progress bar")->group(run_group);

    std::string policies;
    for (const auto& style : controller::policy_styles()) {
        if (!style.clairvoyant)
            policies += (policies.empty() ? "" : ", ") + style.name;
    }
    const char* lb = "Load balancing (docs/design.md section 3)";
    run->add_option("--slabs", line.balance.slabs,
                    "S: slabs along x, the balancer's slices; Lx / S must be a whole number of "
                    "bins (0: one slab per bin column)")
        ->capture_default_str()
        ->group(lb);
    run->add_option("--w-min", line.balance.w_min, "minimum slabs per rank")
        ->capture_default_str()
        ->group(lb);
    run->add_option("--rebalance-every", line.balance.rebalance_every,
                    "steps between rebalancing events (0: never)")
        ->capture_default_str()
        ->group(lb);
    run->add_option("--policy", line.balance.policy, "balancing policy: " + policies)
        ->capture_default_str()
        ->group(lb);
    run->add_option("--param", line.balance.params,
                    "override a parameter of --policy, POLICY.NAME=VALUE (repeatable), e.g. "
                    "reactive.ds_max_fraction=0.2 (cellshift-eval policies lists them)")
        ->group(lb);
    run->add_option("--controller", line.balance.controller_file,
                    "controller file for the `rnn` policy (default: the shipped default.h5)")
        ->group(lb);
    run->add_option("--clock", line.balance.clock,
                    "rank times the policy sees: model (calibrated cost model, reproducible) or "
                    "measured (steady clock around each rank's compute)")
        ->transform(enum_by_name({Clock::model, Clock::measured}, clock_name, "clock"))
        ->default_str(clock_name(line.balance.clock))
        ->group(lb);
    run->add_option("--slab-estimate", line.balance.slab_estimate,
                    "per-slab workload the forecast policies observe at each event: "
                    "interactions (candidate partners per element, a proxy) or cost (the cost "
                    "model's seconds per slab for the interval's last step, elements on their "
                    "cell's slab)")
        ->transform(enum_by_name({SlabEstimate::interactions, SlabEstimate::cost},
                                 slab_estimate_name, "slab-estimate"))
        ->default_str(slab_estimate_name(line.balance.slab_estimate))
        ->group(lb);
    const char* cost = "Model clock (cellshift-sim calibrate; docs/simulator.md)";
    run->add_option("--cost-pair", line.balance.cost.per_pair,
                    "seconds per pair interaction within the cutoff")
        ->capture_default_str()
        ->group(cost);
    run->add_option("--cost-element", line.balance.cost.per_element,
                    "seconds per owned element per step")
        ->capture_default_str()
        ->group(cost);
    run->add_option("--cost-ghost", line.balance.cost.per_ghost,
                    "seconds per ghost element per step")
        ->capture_default_str()
        ->group(cost);
    run->add_option("--cost-migrated", line.balance.cost.per_migrated_element,
                    "seconds per element that changes owner")
        ->capture_default_str()
        ->group(cost);
    add_model_options(*run, line.params);
    return run;
}

} // namespace cellshift::sim::tool
