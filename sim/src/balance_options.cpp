#include "cellshift/sim/balance_options.hpp"

#include "cellshift/controller/layout.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/sim/slab_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace cellshift::sim {

namespace {

void check_cost(const char* name, double v) {
    if (!std::isfinite(v) || v < 0.0)
        throw std::invalid_argument(std::string(name) + " must be finite and >= 0");
}

} // namespace

const char* clock_name(Clock clock) {
    return clock == Clock::model ? "model" : "measured";
}

const char* slab_estimate_name(SlabEstimate estimate) {
    return estimate == SlabEstimate::interactions ? "interactions" : "cost";
}

BalanceOptions with_resolved_slabs(BalanceOptions balance, const SemParams& params) {
    const double columns = params.Lx / params.effective_bin_edge();
    // Invalid geometry keeps 0 here; validate() then names the bad parameter.
    if (balance.slabs == 0 && std::isfinite(columns) && columns >= 1.0 && columns < 1e15)
        balance.slabs = static_cast<std::int64_t>(std::floor(columns + 1e-9));
    return balance;
}

std::unique_ptr<controller::Policy> make_checked_policy(const SemParams& params,
                                                        const BalanceOptions& balance, int ranks) {
    validate(params);
    if (balance.slabs < 0)
        throw std::invalid_argument("slabs must be >= 0 (0: one per bin column)");
    validate_slabs(params, balance.slabs);
    if (balance.w_min < 1)
        throw std::invalid_argument("w-min must be >= 1");
    if (ranks < 1 || balance.w_min > balance.slabs / ranks) { // P * w_min > S, no overflow
        throw std::invalid_argument(
            std::to_string(ranks) + " ranks need P * w_min <= S slabs, got " +
            std::to_string(ranks) + " * " + std::to_string(balance.w_min) + " > " +
            std::to_string(balance.slabs) + " (use fewer ranks, more slabs or a lower w-min)");
    }
    controller::validate(controller::Layout{balance.slabs, ranks, balance.w_min});
    if (balance.rebalance_every < 0)
        throw std::invalid_argument("rebalance-every must be >= 0");
    check_cost("cost-pair", balance.cost.per_pair);
    check_cost("cost-element", balance.cost.per_element);
    check_cost("cost-ghost", balance.cost.per_ghost);
    check_cost("cost-migrated", balance.cost.per_migrated_element);
    const controller::PolicyStyle& style = controller::policy_style(balance.policy);
    if (style.clairvoyant)
        throw std::invalid_argument("policy '" + balance.policy +
                                    "' reads the future workload, which a simulation cannot "
                                    "know (use it in cellshift-eval)");
    controller::PolicySettings settings;
    settings.controller_file = balance.controller_file;
    for (const std::string& text : balance.params) {
        if (text.empty())
            continue; // an empty `param` key of a written config file
        const controller::ParameterOverride param = controller::parse_parameter_override(text);
        if (param.policy != balance.policy)
            throw std::invalid_argument("param '" + text + "' sets a parameter of '" +
                                        param.policy + "', but the policy is '" + balance.policy +
                                        "'");
        settings.overrides[param.name] = param.value;
    }
    return controller::make_policy(balance.policy, settings);
}

std::int64_t rebalance_intervals_left(std::int64_t step, std::int64_t last_step,
                                      std::int64_t rebalance_every) {
    if (last_step <= 0 || rebalance_every <= 0)
        return 0;
    const std::int64_t steps_left = last_step - step;
    return std::max<std::int64_t>(1, (steps_left + rebalance_every - 1) / rebalance_every);
}

} // namespace cellshift::sim
