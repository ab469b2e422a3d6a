#include "cellshift/scenarios/scenario.hpp"

#include "cellshift/scenarios/counter_rng.hpp"
#include "draws.hpp"
#include "scenario_families.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cellshift::scenarios {
namespace {

// Streams of the counter-based generator, one per use, so that adding a draw in
// one place never shifts the numbers drawn in another.
enum Stream : std::uint64_t {
    kParameters = 1,
    kClusters = 2,
    kDivisions = 3,
    kBursts = 4,
    kJitter = 5,
};

struct Cluster {
    double centre;
    double sd;
    double mass;
    double growth; // per event
    double drift;  // per event
    double spread; // relative growth of sd per event
    std::int64_t born;
};

struct Burst {
    double centre;
    double sd;
    double amplitude;
    double decay; // events
    std::int64_t born;
};

// Smooth top-hat of the tissue sheet: 1 inside [c - h, c + h], logistic edges.
double sheet(double x, double centre, double half, double edge) {
    double d = std::abs(x - centre) - half;
    return 1.0 / (1.0 + std::exp(d / edge));
}

} // namespace

std::vector<double> Scenario::row(std::int64_t t) const {
    const double* r = workload.row(static_cast<std::size_t>(t));
    return {r, r + workload.cols};
}

std::vector<double> Scenario::growth_row(std::int64_t t) const {
    const double* r = growth_events.row(static_cast<std::size_t>(t));
    return {r, r + growth_events.cols};
}

namespace {

// The one list of named ranges: validate, set_range and get_range all use it.
std::vector<std::pair<const char*, Range ScenarioConfig::*>> named_ranges() {
    return {{"slices", &ScenarioConfig::slices},
            {"w_min", &ScenarioConfig::w_min},
            {"jitter", &ScenarioConfig::jitter},
            {"base", &ScenarioConfig::base},
            {"sheet_half_width", &ScenarioConfig::sheet_half_width},
            {"sheet_spread", &ScenarioConfig::sheet_spread},
            {"cluster_count", &ScenarioConfig::cluster_count},
            {"cluster_growth", &ScenarioConfig::cluster_growth},
            {"growth_variation", &ScenarioConfig::growth_variation},
            {"cluster_drift", &ScenarioConfig::cluster_drift},
            {"division_rate", &ScenarioConfig::division_rate},
            {"burst_rate", &ScenarioConfig::burst_rate},
            {"cycle_amplitude", &ScenarioConfig::cycle_amplitude},
            {"cycle_period", &ScenarioConfig::cycle_period},
            {"slices_per_rank", &ScenarioConfig::slices_per_rank}};
}

// Family names and what each models (docs/scenarios.md has their figures).
const std::vector<std::pair<std::string, std::string>>& families() {
    static const std::vector<std::pair<std::string, std::string>> list{
        {"paper", "the paper-calibrated tissue sheet with growing, drifting clusters (default)"},
        {"broad", "the paper model over far wider ranges: few or many clusters, fast growth, "
                  "strong drift, narrow or wide sheets, 4-64 slices per rank"},
        {"front", "a front sweeping the domain with a dense proliferating rim, empty ahead"},
        {"point", "growth from one to three points, expanding radially, the rest empty"},
        {"shift", "load in bumps that jump elsewhere or change weight several-fold at random "
                  "events"},
        {"colonies", "two to six colonies separated by empty gaps, own growth rates, a closing "
                     "wound"}};
    return list;
}

Range ScenarioConfig::*range_member(const std::string& name) {
    std::string known;
    for (const auto& [n, member] : named_ranges()) {
        if (name == n) {
            return member;
        }
        known += (known.empty() ? "" : ", ") + std::string(n);
    }
    throw std::invalid_argument("unknown scenario range '" + name + "' (known: " + known + ")");
}

} // namespace

std::vector<std::string> family_names() {
    std::vector<std::string> names;
    for (const auto& f : families())
        names.push_back(f.first);
    return names;
}

std::string family_summary(const std::string& family) {
    for (const auto& f : families())
        if (f.first == family)
            return f.second;
    std::string known;
    for (const auto& f : families())
        known += (known.empty() ? "" : ", ") + f.first;
    throw std::invalid_argument("unknown scenario family '" + family + "' (known: " + known + ")");
}

std::vector<std::string> range_names() {
    std::vector<std::string> names;
    for (const auto& entry : named_ranges()) {
        names.emplace_back(entry.first);
    }
    return names;
}

void set_range(ScenarioConfig& config, const std::string& name, Range range) {
    config.*range_member(name) = range;
}

Range get_range(const ScenarioConfig& config, const std::string& name) {
    return config.*range_member(name);
}

void validate(const ScenarioConfig& c) {
    auto check = [](const Range& r, const char* name) {
        if (!(std::isfinite(r.lo) && std::isfinite(r.hi) && r.lo <= r.hi)) {
            throw std::invalid_argument(std::string("scenario range ") + name +
                                        " is empty or not finite");
        }
    };
    for (const auto& [name, member] : named_ranges()) {
        check(c.*member, name);
    }
    if (c.events < 1) {
        throw std::invalid_argument("scenario events must be >= 1");
    }
    if (c.ranks < 0 || (c.ranks == 0 && (c.min_ranks < 1 || c.max_ranks < c.min_ranks))) {
        throw std::invalid_argument("scenario rank count must be >= 1 (or a valid range)");
    }
    if (c.slices.lo < 1.0 || c.min_width < 1) {
        throw std::invalid_argument("scenario slices and min_width must be >= 1");
    }
    if (c.w_min.lo < 1.0) {
        throw std::invalid_argument("scenario w_min must be >= 1");
    }
    if (!(c.slices_per_rank.lo >= 4.0)) {
        throw std::invalid_argument("scenario slices_per_rank must be >= 4");
    }
    (void)family_summary(c.family); // unknown families fail here
}

namespace {

// `broad`: the paper model with its ranges widened and S drawn per rank.
ScenarioConfig broad_config(const ScenarioConfig& config, std::uint64_t seed) {
    Draws lay(seed, 100);
    ScenarioConfig wide = config;
    wide.family = "paper";
    std::int64_t ranks = config.ranks;
    if (ranks == 0)
        ranks = lay.integer(config.min_ranks, std::max(config.min_ranks, config.max_ranks));
    wide.ranks = ranks;
    const double per_rank = lay.log_uniform(config.slices_per_rank);
    const double slices = std::max(4.0 * static_cast<double>(ranks),
                                   std::round(per_rank * static_cast<double>(ranks)));
    wide.slices = {slices, slices};
    wide.min_width = 1;
    wide.base = {0.005, 0.1};
    wide.sheet_half_width = {0.05, 0.45};
    wide.sheet_spread = {0.0, 0.002};
    wide.cluster_count = {5, 140};
    wide.cluster_growth = {0.0, 0.03};
    wide.growth_variation = {0.05, 0.5};
    wide.cluster_drift = {0.00003, 0.001};
    wide.division_rate = {0.2, 3.0};
    wide.burst_rate = {0.0, 1.5};
    return wide;
}

} // namespace

Scenario generate_scenario(const ScenarioConfig& config, std::uint64_t seed) {
    validate(config);
    if (config.family == "broad") {
        return generate_scenario(broad_config(config, seed), seed);
    }
    if (config.family != "paper") {
        return generate_family_scenario(config, seed);
    }
    Draws par(seed, kParameters);
    Scenario sc;
    sc.seed = seed;
    std::int64_t ranks = config.ranks;
    if (ranks == 0) {
        double span = static_cast<double>(config.max_ranks - config.min_ranks + 1);
        ranks = config.min_ranks + std::min(static_cast<std::int64_t>(par.uniform() * span),
                                            config.max_ranks - config.min_ranks);
    } else {
        par.uniform(); // keep the later draws independent of how P was chosen
    }
    std::int64_t slices =
        std::max<std::int64_t>(ranks * config.min_width,
                               static_cast<std::int64_t>(std::llround(par.uniform(config.slices))));
    std::int64_t w_min = static_cast<std::int64_t>(std::llround(par.uniform(config.w_min)));
    w_min = std::clamp<std::int64_t>(w_min, 1, std::max<std::int64_t>(1, slices / (4 * ranks)));
    sc.layout = controller::Layout{slices, ranks, w_min};
    controller::validate(sc.layout);
    sc.jitter = par.uniform(config.jitter);

    const double base = par.uniform(config.base);
    const double sheet_centre = 0.5 + 0.02 * (par.uniform() - 0.5);
    const double half0 = par.uniform(config.sheet_half_width);
    const double spread = par.uniform(config.sheet_spread);
    const double edge = 0.01 + 0.02 * par.uniform();
    const double growth = par.uniform(config.cluster_growth);
    const double growth_variation = par.uniform(config.growth_variation);
    const double drift = par.uniform(config.cluster_drift);
    const double divisions = par.uniform(config.division_rate);
    const double bursts_per_event = par.uniform(config.burst_rate);
    const double cycle_amplitude = par.uniform(config.cycle_amplitude);
    const double cycle_period = par.uniform(config.cycle_period);
    const double cycle_phase0 = kTwoPi * par.uniform();

    const std::int64_t rows = config.events + 1;
    // A cluster's size in domain units: a few slices at the typical resolution.
    const double slice = 1.0 / static_cast<double>(slices);

    Draws cl(seed, kClusters);
    auto new_cluster = [&](Draws& d, double centre, std::int64_t born) {
        Cluster c;
        c.centre = centre;
        c.sd = (0.004 + 0.01 * d.uniform());
        c.mass = 0.5 + d.uniform();
        c.growth = growth * (1.0 + growth_variation * d.normal());
        c.drift = drift * d.normal();
        c.spread = 0.002 * d.uniform();
        c.born = born;
        return c;
    };
    std::vector<Cluster> clusters;
    const auto initial = static_cast<std::int64_t>(std::llround(par.uniform(config.cluster_count)));
    for (std::int64_t i = 0; i < initial; ++i) {
        double centre = sheet_centre + half0 * (2.0 * cl.uniform() - 1.0);
        clusters.push_back(new_cluster(cl, centre, 0));
    }
    std::vector<Burst> bursts;
    Draws dv(seed, kDivisions);
    Draws bu(seed, kBursts);

    sc.workload = data::Matrix(static_cast<std::size_t>(rows), static_cast<std::size_t>(slices));
    sc.growth_events =
        data::Matrix(static_cast<std::size_t>(rows), static_cast<std::size_t>(slices));
    sc.cycle_phase.resize(static_cast<std::size_t>(rows));
    std::vector<double> tissue(static_cast<std::size_t>(slices));
    for (std::int64_t t = 0; t < rows; ++t) {
        const double tt = static_cast<double>(t);
        const double phase = std::fmod(cycle_phase0 + kTwoPi * tt / cycle_period, kTwoPi);
        sc.cycle_phase[static_cast<std::size_t>(t)] = phase;
        const double cycle = 1.0 + cycle_amplitude * std::sin(phase);
        const double half = half0 + spread * tt;

        // Division events of this interval: new clusters where tissue is dense.
        if (t > 0) {
            for (std::int64_t n = dv.poisson(divisions); n > 0; --n) {
                double total = 0.0;
                for (double v : tissue) {
                    total += v;
                }
                double pick = dv.uniform() * total;
                std::int64_t s = 0;
                while (s + 1 < slices && pick > tissue[static_cast<std::size_t>(s)]) {
                    pick -= tissue[static_cast<std::size_t>(s)];
                    ++s;
                }
                double centre = (static_cast<double>(s) + dv.uniform()) * slice;
                Cluster c = new_cluster(dv, centre, t);
                c.mass *= 0.15; // a daughter colony starts small
                clusters.push_back(c);
                sc.growth_events(static_cast<std::size_t>(t), static_cast<std::size_t>(s)) += 1.0;
            }
            for (std::int64_t n = bu.poisson(bursts_per_event); n > 0; --n) {
                bursts.push_back({bu.uniform(), 0.005 + 0.01 * bu.uniform(),
                                  0.5 + 1.5 * bu.uniform(), 1.5 + 4.0 * bu.uniform(), t});
            }
        }

        for (std::int64_t s = 0; s < slices; ++s) {
            const double x = (static_cast<double>(s) + 0.5) * slice;
            // The sheet thickens at the clusters' mean rate (the tissue grows as a whole).
            double w = std::exp(growth * tt) * sheet(x, sheet_centre, half, edge);
            for (const auto& c : clusters) {
                const double age = tt - static_cast<double>(c.born);
                const double mu = c.centre + c.drift * age;
                const double sd = c.sd * (1.0 + c.spread * age);
                if (std::abs(x - mu) < 6.0 * sd) {
                    w += c.mass * std::exp(c.growth * age) * gaussian(x, mu, sd);
                }
            }
            double burst = 0.0;
            for (const auto& b : bursts) {
                const double age = tt - static_cast<double>(b.born);
                if (age >= 0.0 && std::abs(x - b.centre) < 6.0 * b.sd) {
                    burst += b.amplitude * std::exp(-age / b.decay) * gaussian(x, b.centre, b.sd);
                }
            }
            tissue[static_cast<std::size_t>(s)] = w;
            sc.workload(static_cast<std::size_t>(t), static_cast<std::size_t>(s)) =
                base + cycle * w + burst;
        }
    }
    return sc;
}

double jitter_factor(const Scenario& sc, std::int64_t event, std::int64_t index,
                     std::uint64_t stream) {
    double z = counter_normal(sc.seed, kJitter + 16 * stream, static_cast<std::uint64_t>(event),
                              static_cast<std::uint64_t>(index));
    return std::exp(sc.jitter * z - 0.5 * sc.jitter * sc.jitter);
}

Scenario scenario_from_trace(const data::Trace& trace, std::int64_t start, std::int64_t events,
                             std::int64_t ranks, std::int64_t coarsen, std::int64_t w_min,
                             double jitter, std::uint64_t seed) {
    const auto rows = static_cast<std::int64_t>(trace.events());
    const auto fine = static_cast<std::int64_t>(trace.slices());
    if (events < 1 || start < 0 || start + events >= rows) {
        throw std::invalid_argument("trace window [" + std::to_string(start) + ", " +
                                    std::to_string(start + events) + "] does not fit " +
                                    std::to_string(rows) + " trace rows");
    }
    if (coarsen < 1 || fine / coarsen < 1) {
        throw std::invalid_argument("trace coarsening " + std::to_string(coarsen) +
                                    " leaves no slice of " + std::to_string(fine));
    }
    const std::int64_t slices = fine / coarsen;
    Scenario sc;
    sc.seed = seed;
    sc.layout = controller::Layout{slices, ranks, w_min};
    controller::validate(sc.layout);
    sc.jitter = jitter;
    const auto out_rows = static_cast<std::size_t>(events + 1);
    sc.workload = data::Matrix(out_rows, static_cast<std::size_t>(slices));
    sc.growth_events = data::Matrix(out_rows, static_cast<std::size_t>(slices));
    sc.cycle_phase.assign(out_rows, 0.0);
    if (trace.estimate)
        sc.estimate = data::Matrix(out_rows, static_cast<std::size_t>(slices));
    for (std::size_t r = 0; r < out_rows; ++r) {
        const auto from = static_cast<std::size_t>(start) + r;
        for (std::int64_t s = 0; s < fine; ++s) {
            const auto to = static_cast<std::size_t>(std::min(s / coarsen, slices - 1));
            const auto fine_slice = static_cast<std::size_t>(s);
            sc.workload(r, to) += trace.workload(from, fine_slice);
            if (trace.growth_events) {
                sc.growth_events(r, to) += (*trace.growth_events)(from, fine_slice);
            }
            if (trace.estimate) {
                sc.estimate(r, to) += (*trace.estimate)(from, fine_slice);
            }
        }
        if (trace.cycle_phase) {
            sc.cycle_phase[r] = (*trace.cycle_phase)[from];
        }
    }
    return sc;
}

data::Trace to_trace(const Scenario& sc, const std::string& family) {
    data::Trace t;
    t.workload = sc.workload;
    t.growth_events = sc.growth_events;
    t.cycle_phase = sc.cycle_phase;
    if (sc.estimate.rows > 0) {
        t.estimate = sc.estimate;
    }
    t.source = "cellshift scenario generator, family " + family + ", seed " +
               std::to_string(sc.seed) + ", P = " + std::to_string(sc.layout.ranks) +
               ", w_min = " + std::to_string(sc.layout.w_min) +
               ", jitter = " + std::to_string(sc.jitter);
    return t;
}

} // namespace cellshift::scenarios
