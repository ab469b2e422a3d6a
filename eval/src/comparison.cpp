#include "cellshift/eval/comparison.hpp"

#include "cellshift/eval/parallel_for.hpp"
#include "cellshift/eval/rollout.hpp"
#include "cellshift/scenarios/counter_rng.hpp"
#include "cellshift/scenarios/seeds.hpp"

#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace cellshift::eval {
namespace {

// Sums the per-scenario summaries of one (ranks, policy) cell in scenario order.
ComparisonRow aggregate(std::int64_t ranks, const std::string& policy,
                        const std::vector<RolloutSummary>& runs, double lambda) {
    ComparisonRow row;
    row.ranks = ranks;
    row.policy = policy;
    row.runtime_vs_static = 0.0;
    for (const auto& r : runs) {
        row.runtime += r.runtime;
        row.runtime_vs_static += r.runtime_vs_static();
        row.imbalance_pct += 100.0 * r.mean_imbalance;
        row.spread += r.mean_spread;
        row.migrated_slices += static_cast<double>(r.migrated);
        row.limited_events += static_cast<double>(r.limited);
        row.objective += r.mean_imbalance + r.mean_spread +
                         lambda * static_cast<double>(r.migrated) / static_cast<double>(r.events);
        row.events = r.events;
    }
    const double n = static_cast<double>(runs.size());
    row.runtime /= n;
    row.runtime_vs_static /= n;
    row.imbalance_pct /= n;
    row.spread /= n;
    row.migrated_slices /= n;
    row.limited_events /= n;
    row.objective /= n;
    row.scenarios = static_cast<std::int64_t>(runs.size());
    return row;
}

} // namespace

WorkloadHistory scenario_history(const scenarios::Scenario& sc) {
    WorkloadHistory h;
    h.workload = &sc.workload;
    h.growth_events = &sc.growth_events;
    h.cycle_phase = &sc.cycle_phase;
    h.estimate = sc.estimate.rows > 0 ? &sc.estimate : nullptr;
    h.jitter = [&sc](std::int64_t t, std::int64_t k, std::uint64_t stream) {
        return scenarios::jitter_factor(sc, t, k, stream);
    };
    return h;
}

ComparisonResult compare_on_scenarios(const std::vector<PolicySpec>& policies,
                                      const ScenarioComparison& opt) {
    if (policies.empty()) {
        throw std::invalid_argument("no policies to compare");
    }
    if (opt.count < 1 || opt.events < 1) {
        throw std::invalid_argument("--count and --events must be >= 1");
    }
    validate(opt.cost);
    // Create each policy once up front: a bad name or parameter fails here, before
    // any work, with the registry's one-line message.
    for (const auto& p : policies) {
        (void)controller::make_policy(p.name, p.settings);
    }
    ComparisonResult result;
    for (std::int64_t ranks : opt.ranks) {
        scenarios::ScenarioConfig config = opt.base;
        config.ranks = ranks;
        config.events = opt.events;
        scenarios::validate(config);
        const std::size_t n = static_cast<std::size_t>(opt.count);
        std::vector<std::vector<RolloutSummary>> runs(policies.size(),
                                                      std::vector<RolloutSummary>(n));
        std::vector<data::RunRecord> records(policies.size());
        std::mutex report;
        std::int64_t done = 0;
        parallel_for(n, opt.threads, [&](std::size_t i) {
            std::uint64_t seed = scenarios::seed_in_range(opt.seed_base, opt.first_index + i);
            scenarios::Scenario sc = scenarios::generate_scenario(config, seed);
            WorkloadHistory h = scenario_history(sc);
            h.source = "scenario seed " + std::to_string(seed);
            for (std::size_t p = 0; p < policies.size(); ++p) {
                auto policy = controller::make_policy(policies[p].name, policies[p].settings);
                bool keep = opt.keep_records && i == 0;
                Rollout r = run_rollout(*policy, policies[p].label, sc.layout, h, keep, opt.cost);
                runs[p][i] = r.summary;
                if (keep) {
                    records[p] = std::move(*r.record);
                }
            }
            std::lock_guard<std::mutex> lock(report);
            ++done;
            if (opt.progress) {
                opt.progress(ranks, done, opt.count);
            }
        });
        for (std::size_t p = 0; p < policies.size(); ++p) {
            result.rows.push_back(aggregate(ranks, policies[p].label, runs[p], opt.lambda));
            if (opt.keep_records) {
                result.records.push_back(std::move(records[p]));
            }
        }
    }
    return result;
}

const data::Matrix* observed_estimate(const data::Trace& trace, TraceObservation observe) {
    return trace.estimate && observe == TraceObservation::estimate ? &*trace.estimate : nullptr;
}

ComparisonResult compare_on_trace(const std::vector<PolicySpec>& policies, const data::Trace& trace,
                                  const std::vector<std::int64_t>& ranks, std::int64_t w_min,
                                  double jitter, bool keep_records, const std::string& source,
                                  double lambda, const MigrationCost& cost,
                                  TraceObservation observe) {
    if (trace.events() < 2) {
        throw std::invalid_argument("the trace has " + std::to_string(trace.events()) +
                                    " event(s); a rollout needs at least 2");
    }
    if (!(std::isfinite(jitter) && jitter >= 0.0)) {
        throw std::invalid_argument("--jitter must be finite and >= 0");
    }
    validate(cost);
    ComparisonResult result;
    for (std::int64_t p : ranks) {
        controller::Layout layout{static_cast<std::int64_t>(trace.slices()), p, w_min};
        controller::validate(layout);
        WorkloadHistory h;
        h.workload = &trace.workload;
        h.growth_events = trace.growth_events ? &*trace.growth_events : nullptr;
        h.cycle_phase = trace.cycle_phase ? &*trace.cycle_phase : nullptr;
        h.initial_load = trace.initial_load ? &*trace.initial_load : nullptr;
        h.estimate = observed_estimate(trace, observe);
        if (jitter > 0.0) {
            h.jitter = [jitter](std::int64_t t, std::int64_t k, std::uint64_t stream) {
                double z =
                    scenarios::counter_normal(0x7ace, 16 * stream, static_cast<std::uint64_t>(t),
                                              static_cast<std::uint64_t>(k));
                return std::exp(jitter * z - 0.5 * jitter * jitter);
            };
        }
        h.source = source;
        for (const auto& spec : policies) {
            auto policy = controller::make_policy(spec.name, spec.settings);
            Rollout r = run_rollout(*policy, spec.label, layout, h, keep_records, cost);
            result.rows.push_back(aggregate(p, spec.label, {r.summary}, lambda));
            if (keep_records) {
                result.records.push_back(std::move(*r.record));
            }
        }
    }
    return result;
}

} // namespace cellshift::eval
