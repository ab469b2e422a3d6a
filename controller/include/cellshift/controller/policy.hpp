#pragma once
// A load-balancing policy: at every rebalancing event it sees what the interval
// that just ended showed and returns the integer boundaries for the next one.
// Policies are created by name from the registry (registry.hpp).

#include "cellshift/controller/layout.hpp"
#include "cellshift/controller/rank_time_calibration.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cellshift::controller {

// The migration cost mu of a CPU cluster (docs/design.md 8.1, docs/runtime.md): what the
// evaluator, the simulator's model clock and the C API assume unless told.
inline constexpr double kDefaultMigrationCost = 0.0075;

// What a policy may observe at one event. Only `rank_times` is required.
struct Observation {
    std::vector<double> rank_times;     // [P] time of each rank since the last event (measured,
                                        // so jittered); governed by the current boundaries
    std::vector<double> slice_workload; // [S] per-slice cost estimate of that interval, or empty
    double cycle_phase = 0.0;           // growth-cycle phase, radians
    std::vector<double> growth_events;  // [S] recent growth (division) events, or empty
    std::vector<double> next_workload;  // [S] clairvoyance: the true workload of the interval the
                                        // new boundaries will govern. Filled by the evaluator
                                        // for the `oracle` only; no causal policy reads it.
    // The host's costs (docs/design.md 8.1): mu, the time to move one unit of load in units of
    // its compute time, and kappa, the fixed cost of an event that moves anything as a
    // fraction of the mean rank time. The cost-aware controller reads them.
    double migration_cost = kDefaultMigrationCost;
    double rebalance_cost = 0.0;
    // How many intervals the run has left, the one the new boundaries will govern
    // included (1 at the last event), where the host knows its run length (a step count,
    // a trace's length); 0: not known. Not clairvoyance about the workload: an MD or
    // agent code is started for a given number of steps. The learned controller's cost
    // gate reads it: a move made near the end has fewer intervals left to repay its
    // migration.
    std::int64_t intervals_left = 0;
};

// Everything a checkpoint must keep for a policy to continue exactly where it
// stopped: named float64 arrays (boundaries, GRU hidden states, Holt level and
// trend, ...). Integers and float32 values are stored exactly.
using PolicyState = std::map<std::string, std::vector<double>>;

class Policy {
public:
    virtual ~Policy() = default;

    // Starts a rollout: the layout and the initial (feasible) boundaries.
    void reset(const Layout& layout, const Boundaries& initial);
    // New boundaries for the next interval; they become the current ones.
    const Boundaries& decide(const Observation& observation);

    const Boundaries& boundaries() const { return boundaries_; }
    const Layout& layout() const { return layout_; }
    // Interior boundaries whose move w_min shortened at the last decision.
    std::int64_t last_limited() const { return limited_; }
    // True for an instance that reads Observation::slice_workload although its style
    // does not declare it (an rnn whose file has the 16 forecast features): callers
    // that gather workload only on demand ask the style's flag or this.
    virtual bool reads_slice_workload() const { return false; }
    // Calibrates the per-slice estimates against the measured rank times before the
    // policy sees them (rank_time_calibration.hpp), with this memory per event; 1 (the
    // default) leaves them as they are. Set before reset().
    void set_calibration(double keep) { calibration_ = RankTimeCalibration(keep); }

    // The policy's full state, and its restoration after reset() with the same
    // layout; restore_state throws std::invalid_argument for a state that does not
    // fit (missing array, wrong size, infeasible boundaries).
    PolicyState save_state() const;
    void restore_state(const PolicyState& state);

protected:
    virtual void on_reset() {}
    // A stateful policy adds its arrays to the state, and reads them back.
    virtual void save_extra(PolicyState&) const {}
    virtual void restore_extra(const PolicyState&) {}
    // The array `name` of a state, checked to hold `size` values.
    static const std::vector<double>& state_array(const PolicyState& state, const std::string& name,
                                                  std::size_t size);
    // Computes the next boundaries from boundaries() and the observation; sets
    // limited_ when it used the feasible update.
    virtual Boundaries next(const Observation& observation) = 0;
    // Applies moves (real, in slices) through the joint feasible update.
    Boundaries apply_moves(const std::vector<double>& moves);
    std::int64_t limited_ = 0;

private:
    Layout layout_;
    Boundaries boundaries_;
    RankTimeCalibration calibration_;
};

} // namespace cellshift::controller
