// The C API of controller.h over the policy registry. Every entry point catches
// everything: no exception crosses into C.

#include "cellshift/controller.h"

#include "cellshift/controller/registry.hpp"
#include "cellshift/data/controller_file.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <sstream>

struct cellshift_controller {
    std::unique_ptr<cellshift::controller::Policy> policy;
    cellshift::controller::Layout layout;
    double migration_cost = cellshift::controller::kDefaultMigrationCost;
    double rebalance_cost = 0.0;
    std::int64_t intervals_left = 0; // counted down by every step; 0: not known
};

namespace {

using namespace cellshift::controller;

void set_error(char* error, size_t size, const char* message) {
    if (error != nullptr && size > 0) {
        std::snprintf(error, size, "%s", message);
    }
}

template <typename F>
int guarded(char* error, size_t size, F&& body) {
    try {
        body();
        set_error(error, size, "");
        return 0;
    } catch (const std::exception& e) {
        set_error(error, size, e.what());
    } catch (...) {
        set_error(error, size, "unknown error");
    }
    return -1;
}

std::map<std::string, double> parse_params(const char* text) {
    std::map<std::string, double> out;
    if (text == nullptr) {
        return out;
    }
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty()) {
            continue;
        }
        auto eq = item.find('=');
        if (eq == std::string::npos) {
            throw std::invalid_argument("parameter '" + item + "' is not name=value");
        }
        std::size_t used = 0;
        std::string value = item.substr(eq + 1);
        double v = 0.0;
        try {
            v = std::stod(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != value.size()) {
            throw std::invalid_argument("parameter '" + item + "': '" + value +
                                        "' is not a number");
        }
        out[item.substr(0, eq)] = v;
    }
    return out;
}

Boundaries boundaries_from(const Layout& l, const int64_t* b) {
    if (b == nullptr) {
        return uniform_boundaries(l);
    }
    return Boundaries(b, b + l.ranks + 1);
}

std::vector<double> optional_array(const double* values, std::int64_t n) {
    return values == nullptr ? std::vector<double>{} : std::vector<double>(values, values + n);
}

} // namespace

extern "C" {

cellshift_controller* cellshift_controller_create(const char* policy, const char* controller_file,
                                                  const char* params, int64_t slices, int64_t ranks,
                                                  int64_t w_min, const int64_t* initial,
                                                  char* error, size_t error_size) {
    cellshift_controller* result = nullptr;
    guarded(error, error_size, [&] {
        if (policy == nullptr) {
            throw std::invalid_argument("no policy name given");
        }
        auto c = std::make_unique<cellshift_controller>();
        c->layout = Layout{slices, ranks, w_min};
        validate(c->layout);
        PolicySettings settings;
        settings.overrides = parse_params(params);
        // The library never forks (it runs inside the host's MPI ranks): the
        // controller file is read in this process, without the tools' child guard.
        cellshift::data::Controller weights;
        if (controller_file != nullptr && std::string(policy) == "rnn") {
            weights = cellshift::data::read_controller(controller_file,
                                                       cellshift::data::ReadGuard::in_process);
            settings.controller = &weights;
        } else {
            settings.controller_file = controller_file == nullptr ? "" : controller_file;
        }
        c->policy = make_policy(policy, settings);
        c->policy->reset(c->layout, boundaries_from(c->layout, initial));
        result = c.release();
    });
    return result;
}

int cellshift_controller_step(cellshift_controller* c, const double* rank_times,
                              const double* slice_workload, const double* growth_events,
                              double cycle_phase, int64_t* boundaries_out, char* error,
                              size_t error_size) {
    return guarded(error, error_size, [&] {
        if (c == nullptr || rank_times == nullptr || boundaries_out == nullptr) {
            throw std::invalid_argument("null controller, rank_times or boundaries_out");
        }
        Observation o;
        o.rank_times.assign(rank_times, rank_times + c->layout.ranks);
        o.slice_workload = optional_array(slice_workload, c->layout.slices);
        o.growth_events = optional_array(growth_events, c->layout.slices);
        o.cycle_phase = cycle_phase;
        o.migration_cost = c->migration_cost;
        o.rebalance_cost = c->rebalance_cost;
        o.intervals_left = c->intervals_left;
        const Boundaries& b = c->policy->decide(o);
        std::copy(b.begin(), b.end(), boundaries_out);
        if (c->intervals_left > 1)
            --c->intervals_left; // the last interval stays the last one
    });
}

int cellshift_controller_reset(cellshift_controller* c, const int64_t* boundaries, char* error,
                               size_t error_size) {
    return guarded(error, error_size, [&] {
        if (c == nullptr) {
            throw std::invalid_argument("null controller");
        }
        c->policy->reset(c->layout, boundaries_from(c->layout, boundaries));
    });
}

int cellshift_controller_set_costs(cellshift_controller* c, double migration_cost,
                                   double rebalance_cost, char* error, size_t error_size) {
    return guarded(error, error_size, [&] {
        if (c == nullptr) {
            throw std::invalid_argument("null controller");
        }
        if (!(std::isfinite(migration_cost) && migration_cost >= 0.0) ||
            !(std::isfinite(rebalance_cost) && rebalance_cost >= 0.0)) {
            throw std::invalid_argument("migration and rebalance costs must be finite and >= 0");
        }
        c->migration_cost = migration_cost;
        c->rebalance_cost = rebalance_cost;
    });
}

int cellshift_controller_set_intervals_left(cellshift_controller* c, int64_t intervals, char* error,
                                            size_t error_size) {
    return guarded(error, error_size, [&] {
        if (c == nullptr) {
            throw std::invalid_argument("null controller");
        }
        if (intervals < 0) {
            throw std::invalid_argument("intervals left must be >= 0 (0: not known)");
        }
        c->intervals_left = intervals;
    });
}

int64_t cellshift_controller_limited(const cellshift_controller* c) {
    return c == nullptr ? 0 : c->policy->last_limited();
}

void cellshift_controller_destroy(cellshift_controller* c) {
    delete c;
}

} // extern "C"
