// `cellshift-eval trace`: every policy on a user-supplied workload trace.
#include "command.hpp"
#include "compare_options.hpp"

#include "cellshift/data/trace.hpp"
#include "cellshift/eval/tables.hpp"

#include <iostream>

namespace cellshift::eval::tool {
namespace {

class TraceCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        options_.ranks = {2, 4, 8, 16};
        sub_ = app.add_subcommand(
            "trace", "every policy on a user-supplied workload trace (HDF5 cellshift.trace or "
                     "CSV: one row per event, one column per slice)");
        sub_->add_option("file", file_, "trace file (.h5 or .csv)")->required();
        add_compare_options(sub_, options_);
        sub_->add_option("--w-min", w_min_, "minimum slices per rank")
            ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40))
            ->capture_default_str();
        sub_->add_option("--jitter", jitter_,
                         "sigma of log-normal noise on what policies observe (0: exact)")
            ->capture_default_str();
        sub_->add_flag("--observe-cost", observe_cost_,
                       "policies observe each slice's cost of the interval that just ended (as "
                       "a per-slice timer would measure it) instead of the estimate stored "
                       "beside it (a simulator trace's live estimate); a trace without one is "
                       "observed this way anyway");
    }

    int run() override {
        auto weights = load_controller(options_);
        auto specs = policy_specs(options_, weights ? &*weights : nullptr);
        const data::Trace t = data::read_trace(file_);
        const TraceObservation observe =
            observe_cost_ ? TraceObservation::cost : TraceObservation::estimate;
        const ComparisonResult result =
            compare_on_trace(specs, t, options_.ranks, w_min_, jitter_, options_.records, file_,
                             5e-4, options_.cost, observe);
        const std::string caption =
            "trace " + file_ + "; clock: workload (the trace's cost); policies observe " +
            (observed_estimate(t, observe) != nullptr ? "the stored estimate"
                                                      : "the last interval's cost") +
            "; " + cost_caption(options_.cost);
        std::cout << format_table(result.rows, caption) << rnn_note(specs, weights.has_value());
        write_outputs(*sub_, options_, result, "trace", caption);
        return 0;
    }

private:
    CompareOptions options_;
    std::string file_;
    std::int64_t w_min_ = 1;
    double jitter_ = 0.0;
    bool observe_cost_ = false;
};

} // namespace

std::unique_ptr<Command> make_trace_command() {
    return std::make_unique<TraceCommand>();
}

} // namespace cellshift::eval::tool
