#include "train_config.hpp"

#include "cellshift/data/controller_file.hpp"
#include "cellshift/scenarios/scenario.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cellshift::trainer {

void add_train_options(CLI::App& app, TrainCommandLine& line) {
    app.set_config("--config", "", "read options from an INI or TOML file");

    TrainConfig& c = line.config;
    app.add_option("-o,--out", line.out, "controller file to write (atomically)")
        ->capture_default_str();
    app.add_option("--log", line.log, "training log CSV (default: OUT without .h5 + .log.csv)");
    app.add_option("--steps", c.steps, "optimisation steps")->capture_default_str();
    app.add_option("--batch", c.batch, "scenarios per step")->capture_default_str();
    app.add_option("--events", c.events, "rebalancing events per rollout (BPTT length)")
        ->capture_default_str();
    app.add_option("--min-ranks", c.min_ranks, "smallest P drawn per step")->capture_default_str();
    app.add_option("--max-ranks", c.max_ranks, "largest P drawn per step")->capture_default_str();
    app.add_option("--hidden", c.hidden, "GRU hidden size")->capture_default_str();
    app.add_option("--features", c.features,
                   "GRU inputs: 16 (with the per-slice forecast features), 12 (rank times "
                   "only, the set of controllers trained before them) or 18 (with the host's "
                   "migration costs; --base forecast and blend need them)")
        ->capture_default_str();
    app.add_option("--base", c.base,
                   "what the GRU corrects: reactive (the paper's rule), forecast (holt's "
                   "equal-load split; a zero head is holt exactly) or blend (the same move "
                   "aimed at a per-boundary mix of holt's split and a fast forecaster's; "
                   "--optimiser es)")
        ->capture_default_str();
    app.add_option("--base-level-alpha", c.base_level_alpha,
                   "holt level smoothing of the forecast base (stored in the file)")
        ->capture_default_str();
    app.add_option("--base-trend-beta", c.base_trend_beta,
                   "holt trend smoothing of the forecast base (stored in the file)")
        ->capture_default_str();
    app.add_option("--optimiser", c.optimiser,
                   "bptt (back-propagation through the differentiable surrogate) or es "
                   "(evolution strategies on the deployed hard loop; --objective relative)")
        ->check(CLI::IsMember({"bptt", "es"}))
        ->capture_default_str();
    app.add_option("--es-pairs", c.es_pairs,
                   "antithetic parameter perturbations per ES step (each rolls every scenario "
                   "twice)")
        ->capture_default_str();
    app.add_option("--es-sigma", c.es_sigma, "standard deviation of the ES parameter noise")
        ->capture_default_str();
    app.add_option("--es-parameters", c.es_parameters,
                   "what ES fits: all (GRU and head), head (the seeded GRU stays as drawn), "
                   "blend (the blend base's third head row only), cost (that row's bias and "
                   "its weights on the two cost features), cost-all (the same for the gain, "
                   "correction and blend rows) or cost-forecast (cost, and the four Holt "
                   "constants of the two forecasters the gate judges by)")
        ->check(CLI::IsMember(kEsParameterSets))
        ->capture_default_str();
    app.add_option("--fast-level-alpha", c.fast_level_alpha,
                   "level smoothing of the blend base's fast forecaster (stored in the file)")
        ->capture_default_str();
    app.add_option("--fast-trend-beta", c.fast_trend_beta,
                   "trend smoothing of the blend base's fast forecaster (stored in the file)")
        ->capture_default_str();
    app.add_option("--hold-horizon", c.hold_horizon,
                   "cost gate of a forecast or blend base: move only if the forecast says the "
                   "move pays within this many intervals (0: no gate; stored in the file; ES only)")
        ->capture_default_str();
    app.add_option("--calibration-keep", c.calibration_keep,
                   "memory per event of the calibration of per-slice estimates against measured "
                   "rank times, stored in the file (1: off; forecast or blend base, ES only)")
        ->capture_default_str();
    app.add_option("--refine-split", c.refine_split,
                   "the cost gate's choice is replaced by the minimax whole-slice split when "
                   "that shortens the next interval, stored in the file (1: when it moves; 2: "
                   "when it moves or holds; 0: off; needs --hold-horizon > 0)")
        ->capture_default_str();
    app.add_option("--lr", c.lr, "Adam learning rate (cosine-annealed)")->capture_default_str();
    app.add_option("--lr-min", c.lr_min, "learning rate at the end of the cosine")
        ->capture_default_str();
    app.add_option("--grad-clip", c.grad_clip, "max global gradient norm")->capture_default_str();
    app.add_option("--temperature-start", c.temperature_start,
                   "soft-boundary temperature at step 0, in slices")
        ->capture_default_str();
    app.add_option("--temperature-end", c.temperature_end,
                   "temperature at the last step (geometric annealing)")
        ->capture_default_str();
    app.add_option("--lambda", c.lambda, "loss per moved slice and event (L1 migration penalty)")
        ->capture_default_str();
    app.add_option("--spread-weight", c.spread_weight,
                   "weight of the normalised spread in the loss (0: global imbalance only)")
        ->capture_default_str();
    app.add_flag("--round-moves", c.round_moves,
                 "round moves to whole slices in the training rollouts too (straight-through "
                 "gradient); validation always rounds");
    app.add_option("--alpha", c.reactive.alpha, "reactive rule gain (stored in the file)")
        ->capture_default_str();
    app.add_option("--tau", c.reactive.tau, "reactive rule dead band (stored in the file)")
        ->capture_default_str();
    app.add_option("--ds-max-fraction", c.reactive.ds_max_fraction,
                   "largest move per boundary and event, x S/P (stored in the file)")
        ->capture_default_str();
    app.add_option("--seed", c.seed, "seed of the weights and of the training scenarios")
        ->capture_default_str();
    app.add_option("--validate-every", c.validate_every, "steps between validation passes")
        ->capture_default_str();
    app.add_option("--validation-count", c.validation_count,
                   "validation scenarios (validation seed range)")
        ->capture_default_str();
    app.add_option("--threads", c.threads, "LibTorch intra-op threads (ES: rollout threads)")
        ->capture_default_str();
    app.add_option("--checkpoint", c.checkpoint,
                   "checkpoint file (written every "
                   "--checkpoint-every steps, atomically)");
    app.add_option("--checkpoint-every", c.checkpoint_every, "steps between checkpoints")
        ->capture_default_str();
    app.add_flag("--resume", c.resume, "continue from --checkpoint");
    app.add_option("--stop-after", c.stop_after,
                   "stop after this step (checkpointing it), as if interrupted");
    app.add_option("--objective", c.objective,
                   "what the rollouts minimise: loss (imbalance + spread + lambda x migration), "
                   "runtime (modelled runtime over perfect balance, migration included) or "
                   "relative (modelled runtime over the base's, the zero-head controller's, on "
                   "the same scenario: every scenario weighs the same)")
        ->check(CLI::IsMember({"loss", "runtime", "relative"}))
        ->capture_default_str();
    app.add_option("--migration-cost-min", c.migration_cost_min,
                   "smallest mu of the runtime objective (drawn log-uniform per scenario)")
        ->capture_default_str();
    app.add_option("--migration-cost-max", c.migration_cost_max,
                   "largest mu of the runtime objective")
        ->capture_default_str();
    app.add_option("--rebalance-cost", c.rebalance_cost,
                   "kappa of the runtime objective (fraction of the mean rank time per event "
                   "that moves anything)")
        ->capture_default_str();
    app.add_option("--families", c.families,
                   "scenario generator families, equal weight (paper, broad, front, point, "
                   "shift, colonies)")
        ->delimiter(',')
        ->capture_default_str();
    app.add_option("--traces", c.traces,
                   "cellshift.trace files whose windows are replayed in a share "
                   "--trace-fraction of the steps (never files under an evaluation/ folder)")
        ->delimiter(',');
    app.add_option("--validation-traces", c.validation_traces,
                   "cellshift.trace files replayed in validation too")
        ->delimiter(',');
    app.add_option("--trace-fraction", c.trace_fraction,
                   "share of the training steps drawn from --traces")
        ->capture_default_str();
    app.add_flag("-q,--quiet", line.quiet, "no progress bar");
    app.add_flag("--build-info", line.show_build,
                 "print the LibTorch version and the intra-op thread count, then exit");
}

void validate(const TrainConfig& c) {
    auto require = [](bool ok, const std::string& message) {
        if (!ok) {
            throw std::invalid_argument(message);
        }
    };
    require(c.steps >= 1, "--steps must be >= 1");
    require(c.batch >= 1, "--batch must be >= 1");
    require(c.events >= 1, "--events must be >= 1");
    require(c.min_ranks >= 2 && c.max_ranks >= c.min_ranks,
            "--min-ranks must be >= 2 and <= --max-ranks");
    require(c.hidden >= 1, "--hidden must be >= 1");
    require(c.features == 12 || c.features == 16 || c.features == 18,
            "--features must be 12, 16 or 18");
    require(c.base == "reactive" || c.base == "forecast" || c.base == "blend",
            "--base must be reactive, forecast or blend, not '" + c.base + "'");
    require(c.base == "reactive" || c.features >= 18,
            "--base " + c.base + " reads at least 18 features (--features 18)");
    require(c.base != "blend" || c.optimiser == "es",
            "--base blend is trained by --optimiser es (the surrogate has no blend base)");
    require(c.fast_level_alpha > 0 && c.fast_level_alpha <= 1 && c.fast_trend_beta >= 0 &&
                c.fast_trend_beta <= 1,
            "--fast-level-alpha must be in (0, 1] and --fast-trend-beta in [0, 1]");
    require(data::valid_hold_horizon(c.hold_horizon),
            "--hold-horizon must be 0 (no gate) or in [1, 1e6] intervals");
    require(c.hold_horizon == 0 || (c.base != "reactive" && c.optimiser == "es"),
            "--hold-horizon needs a forecast or blend base and --optimiser es (the surrogate "
            "does not model the cost gate)");
    require(data::valid_calibration_keep(c.calibration_keep),
            "--calibration-keep must be in [0, 1] (1: off)");
    require(c.calibration_keep == 1 || (c.base != "reactive" && c.optimiser == "es"),
            "--calibration-keep needs a forecast or blend base and --optimiser es");
    require(data::valid_refine_split(c.refine_split),
            std::string("--refine-split must be ") + data::kRefineSplitValues);
    require(c.refine_split == 0 || c.hold_horizon > 0,
            "--refine-split refines the cost gate's choice: it needs --hold-horizon > 0");
    require(c.base_level_alpha > 0 && c.base_level_alpha <= 1 && c.base_trend_beta >= 0 &&
                c.base_trend_beta <= 1,
            "--base-level-alpha must be in (0, 1] and --base-trend-beta in [0, 1]");
    require(std::isfinite(c.lr) && c.lr > 0 && c.lr_min >= 0 && c.lr_min <= c.lr,
            "--lr must be > 0 and --lr-min in [0, lr]");
    require(c.grad_clip > 0, "--grad-clip must be > 0");
    require(c.temperature_start > 0 && c.temperature_end > 0, "temperatures must be > 0");
    require(std::isfinite(c.lambda) && c.lambda >= 0, "--lambda must be >= 0");
    require(std::isfinite(c.spread_weight) && c.spread_weight >= 0, "--spread-weight must be >= 0");
    require(c.reactive.alpha > 0 && c.reactive.tau >= 0 && c.reactive.ds_max_fraction > 0 &&
                c.reactive.ds_max_fraction <= 1,
            "--alpha must be > 0, --tau >= 0, --ds-max-fraction in (0, 1]");
    require(c.validate_every >= 1 && c.validation_count >= 1,
            "--validate-every and --validation-count must be >= 1");
    require(c.threads >= 1, "--threads must be >= 1");
    require(c.optimiser == "bptt" || c.optimiser == "es",
            "--optimiser must be bptt or es, not '" + c.optimiser + "'");
    require(c.optimiser != "es" || c.objective == "relative",
            "--optimiser es minimises the relative runtime: it needs --objective relative");
    require(c.optimiser != "es" || (c.checkpoint.empty() && !c.resume),
            "--checkpoint/--resume are for --optimiser bptt");
    require(std::find(kEsParameterSets.begin(), kEsParameterSets.end(), c.es_parameters) !=
                kEsParameterSets.end(),
            "--es-parameters must be all, head, blend, cost, cost-all or cost-forecast");
    require(c.es_parameters == "all" || c.es_parameters == "head" || c.base == "blend",
            "--es-parameters " + c.es_parameters + " needs --base blend");
    require(c.es_pairs >= 1 && std::isfinite(c.es_sigma) && c.es_sigma > 0,
            "--es-pairs must be >= 1 and --es-sigma > 0");
    require(!c.resume || !c.checkpoint.empty(), "--resume needs --checkpoint FILE");
    require(std::isfinite(c.migration_cost_min) && c.migration_cost_min > 0 &&
                std::isfinite(c.migration_cost_max) && c.migration_cost_max >= c.migration_cost_min,
            "--migration-cost-min must be > 0 and <= --migration-cost-max");
    require(std::isfinite(c.rebalance_cost) && c.rebalance_cost >= 0,
            "--rebalance-cost must be >= 0");
    require(!c.families.empty(), "--families is empty");
    for (const auto& f : c.families) {
        (void)scenarios::family_summary(f); // unknown families fail with the list
    }
    require(std::isfinite(c.trace_fraction) && c.trace_fraction >= 0 && c.trace_fraction <= 1,
            "--trace-fraction must be in [0, 1]");
    for (const auto* list : {&c.traces, &c.validation_traces}) {
        for (const auto& path : *list) {
            for (const auto& part : std::filesystem::path(path)) {
                require(part != "evaluation",
                        path + ": a held-out evaluation trace; training and validation never "
                               "read evaluation data");
                require(part != "external",
                        path + ": a trace from another code, held out for the generalisation "
                               "bar; training and validation never read it");
            }
        }
    }
}

} // namespace cellshift::trainer
