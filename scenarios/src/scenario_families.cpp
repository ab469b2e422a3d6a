// The scenario families beyond the paper-calibrated one (docs/scenarios.md,
// "Families"). Each family draws its own layout (4 to 64 slices per rank) and
// paints a noise-free tissue density per event; the common tail adds the empty
// slice cost, the growth cycle, transient bursts and the measurement jitter's
// sigma, exactly as the paper family does.

#include "scenario_families.hpp"

#include "draws.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>

namespace cellshift::scenarios {
namespace {

// Streams of the family generators (disjoint from the paper family's 1..5 and
// from the jitter's 5 + 16 k).
enum FamilyStream : std::uint64_t {
    kFamilyLayout = 101,
    kFamilyShape = 102,
    kFamilyEvents = 103,
    kFamilyBursts = 104,
};

double logistic(double z) {
    return 1.0 / (1.0 + std::exp(-z));
}

// Static heterogeneity of a tissue: a sum of fixed random bumps around 1, so
// that equal-width pieces of tissue never cost exactly the same.
struct Texture {
    std::vector<double> centre, sd, amplitude;
    explicit Texture(Draws& d, int bumps = 24) {
        for (int i = 0; i < bumps; ++i) {
            centre.push_back(d.uniform());
            sd.push_back(0.005 + 0.03 * d.uniform());
            amplitude.push_back(0.6 * (d.uniform() - 0.3));
        }
    }
    double operator()(double x) const {
        double v = 1.0;
        for (std::size_t i = 0; i < centre.size(); ++i)
            v += amplitude[i] * gaussian(x, centre[i], sd[i]);
        return std::max(0.2, v);
    }
};

// What every family's painter gets: the slice centres and where to record
// growth events of the current row.
struct Canvas {
    std::int64_t slices;
    double slice;                // 1 / S
    std::vector<double>* growth; // this row's growth events, one per slice
    double x(std::int64_t s) const { return (static_cast<double>(s) + 0.5) * slice; }
    void growth_at(double position) const {
        const auto s =
            std::clamp<std::int64_t>(static_cast<std::int64_t>(position / slice), 0, slices - 1);
        (*growth)[static_cast<std::size_t>(s)] += 1.0;
    }
};

// Paints the tissue density of row t (t = 0..E) into `tissue`.
using Painter = std::function<void(std::int64_t t, const Canvas&, std::vector<double>& tissue)>;

// A front that sweeps the domain (invasion, wound closure): dense proliferating
// rim, tissue behind, empty ahead.
Painter front_family(Draws& d, Draws& ev) {
    const bool mirrored = d.uniform() < 0.5;
    const double start = d.uniform({0.05, 0.5});
    const double speed = d.uniform({0.001, 0.008}); // domain per event
    const double rim = d.uniform({0.5, 4.0});
    const double rim_width = d.uniform({0.01, 0.06});
    const double edge = d.uniform({0.002, 0.01});
    const double growth = d.uniform({0.0, 0.01});
    const double divisions = d.uniform({0.5, 3.0});
    const Texture texture(d);
    return [=, &ev](std::int64_t t, const Canvas& c, std::vector<double>& tissue) {
        const double tt = static_cast<double>(t);
        const double f = std::min(0.985, start + speed * tt);
        for (std::int64_t s = 0; s < c.slices; ++s) {
            const double x = mirrored ? 1.0 - c.x(s) : c.x(s);
            const double behind = f - x;
            tissue[static_cast<std::size_t>(s)] =
                std::exp(growth * tt) * texture(x) * logistic(behind / edge) *
                (1.0 + rim * std::exp(-std::max(0.0, behind) / rim_width));
        }
        if (t > 0) {
            for (auto n = ev.poisson(divisions); n > 0; --n) {
                const double x = f - std::abs(ev.normal()) * rim_width;
                c.growth_at(mirrored ? 1.0 - x : x);
            }
        }
    };
}

// Growth from one to three points: colonies that expand radially from a seed,
// the later ones seeded part-way through; everything else is empty.
Painter point_family(Draws& d, Draws& ev, std::int64_t events) {
    struct Seed {
        double x0, r0, speed, rim, rim_width, growth;
        std::int64_t born;
    };
    std::vector<Seed> seeds;
    const auto count = d.integer(1, 3);
    for (std::int64_t i = 0; i < count; ++i) {
        seeds.push_back({d.uniform({0.05, 0.95}), d.uniform({0.005, 0.02}),
                         d.uniform({0.0005, 0.005}), d.uniform({0.0, 3.0}),
                         d.uniform({0.005, 0.03}), d.uniform({0.0, 0.015}),
                         i == 0 ? 0 : d.integer(0, events / 2)});
    }
    const double divisions = d.uniform({0.3, 2.0});
    const Texture texture(d);
    return [=, &ev](std::int64_t t, const Canvas& c, std::vector<double>& tissue) {
        std::fill(tissue.begin(), tissue.end(), 0.0);
        for (const Seed& p : seeds) {
            if (t < p.born)
                continue;
            const double age = static_cast<double>(t - p.born);
            const double r = p.r0 + p.speed * age;
            for (std::int64_t s = 0; s < c.slices; ++s) {
                const double inside = r - std::abs(c.x(s) - p.x0);
                tissue[static_cast<std::size_t>(s)] +=
                    std::exp(p.growth * age) * texture(c.x(s)) * logistic(inside / 0.004) *
                    (1.0 + p.rim * std::exp(-std::max(0.0, inside) / p.rim_width));
            }
            if (t > p.born) {
                for (auto n = ev.poisson(divisions); n > 0; --n)
                    c.growth_at(p.x0 + (ev.uniform() < 0.5 ? -r : r));
            }
        }
    };
}

// Sudden shifts: load concentrated in bumps that jump to a new place or change
// their weight several-fold at random events (remeshing, migration waves).
Painter shift_family(Draws& d, Draws& ev) {
    struct Bump {
        double centre, sd, amplitude, growth;
    };
    auto bumps = std::make_shared<std::vector<Bump>>();
    const auto count = d.integer(3, 12);
    for (std::int64_t i = 0; i < count; ++i) {
        bumps->push_back({d.uniform(), d.uniform({0.01, 0.08}), d.uniform({0.3, 3.0}),
                          d.uniform({-0.005, 0.015})});
    }
    const double jumps = d.uniform({0.02, 0.15});
    const double sheet = d.uniform({0.0, 0.5});
    return [=, &ev](std::int64_t t, const Canvas& c, std::vector<double>& tissue) {
        if (t > 0) {
            for (auto n = ev.poisson(jumps); n > 0; --n) {
                Bump& b = (*bumps)[static_cast<std::size_t>(ev.integer(0, count - 1))];
                if (ev.uniform() < 0.5) {
                    b.centre = ev.uniform();
                } else {
                    b.amplitude *= std::exp(ev.uniform({std::log(0.2), std::log(5.0)}));
                }
                c.growth_at(b.centre);
            }
        }
        for (std::int64_t s = 0; s < c.slices; ++s) {
            const double x = c.x(s);
            double w = sheet * logistic((x - 0.1) / 0.01) * logistic((0.9 - x) / 0.01);
            for (Bump& b : *bumps)
                w += b.amplitude * gaussian(x, b.centre, b.sd);
            tissue[static_cast<std::size_t>(s)] = w;
        }
        for (Bump& b : *bumps)
            b.amplitude *= std::exp(b.growth);
    };
}

// Several colonies separated by empty gaps; each grows at its own rate (some
// shrink), spreads, and one may hold a wound-like gap that closes.
Painter colonies_family(Draws& d, Draws& ev) {
    struct Colony {
        double centre, half, spread, density, growth, wound, closing;
    };
    std::vector<Colony> colonies;
    const auto count = d.integer(2, 6);
    for (std::int64_t i = 0; i < count; ++i) {
        const double slot =
            (static_cast<double>(i) + 0.2 + 0.6 * d.uniform()) / static_cast<double>(count);
        colonies.push_back({slot, d.uniform({0.01, 0.35 / static_cast<double>(count)}),
                            d.uniform({0.0, 0.001}), d.uniform({0.5, 2.0}),
                            d.uniform({-0.005, 0.02}), 0.0, 0.0});
    }
    Colony& wounded = colonies[static_cast<std::size_t>(d.integer(0, count - 1))];
    if (d.uniform() < 0.5) {
        wounded.wound = 0.6 * wounded.half;
        wounded.closing = d.uniform({0.0002, 0.002});
    }
    const double divisions = d.uniform({0.2, 2.0});
    const Texture texture(d);
    return [=, &ev](std::int64_t t, const Canvas& c, std::vector<double>& tissue) {
        const double tt = static_cast<double>(t);
        for (std::int64_t s = 0; s < c.slices; ++s) {
            const double x = c.x(s);
            double w = 0.0;
            for (const Colony& k : colonies) {
                const double half = k.half + k.spread * tt;
                const double d_edge = half - std::abs(x - k.centre);
                const double hole = std::max(0.0, k.wound - k.closing * tt);
                double v = k.density * std::exp(k.growth * tt) * logistic(d_edge / 0.004);
                if (hole > 0.0)
                    v *= logistic((std::abs(x - k.centre) - hole) / 0.004);
                w += v;
            }
            tissue[static_cast<std::size_t>(s)] = w * texture(x);
        }
        if (t > 0) {
            for (auto n = ev.poisson(divisions); n > 0; --n) {
                const Colony& k = colonies[static_cast<std::size_t>(ev.integer(0, count - 1))];
                c.growth_at(k.centre + (2.0 * ev.uniform() - 1.0) * (k.half + k.spread * tt));
            }
        }
    };
}

} // namespace

Scenario generate_family_scenario(const ScenarioConfig& config, std::uint64_t seed) {
    Draws lay(seed, kFamilyLayout);
    Scenario sc;
    sc.seed = seed;
    std::int64_t ranks = config.ranks;
    const std::int64_t drawn =
        lay.integer(config.min_ranks, std::max(config.min_ranks, config.max_ranks));
    if (ranks == 0)
        ranks = drawn;
    const double per_rank = lay.log_uniform(config.slices_per_rank);
    const std::int64_t slices =
        std::max<std::int64_t>(4 * ranks, std::llround(per_rank * static_cast<double>(ranks)));
    std::int64_t w_min = std::llround(lay.uniform(config.w_min));
    w_min = std::clamp<std::int64_t>(w_min, 1, std::max<std::int64_t>(1, slices / (4 * ranks)));
    sc.layout = controller::Layout{slices, ranks, w_min};
    controller::validate(sc.layout);
    sc.jitter = lay.uniform(config.jitter);
    const double base = lay.log_uniform({0.005, 0.1});
    const double cycle_amplitude = lay.uniform(config.cycle_amplitude);
    const double cycle_period = lay.uniform(config.cycle_period);
    const double cycle_phase0 = kTwoPi * lay.uniform();
    const double bursts_per_event = lay.uniform(config.burst_rate);

    Draws shape(seed, kFamilyShape);
    Draws ev(seed, kFamilyEvents);
    Draws bu(seed, kFamilyBursts);
    Painter paint;
    if (config.family == "front") {
        paint = front_family(shape, ev);
    } else if (config.family == "point") {
        paint = point_family(shape, ev, config.events);
    } else if (config.family == "shift") {
        paint = shift_family(shape, ev);
    } else if (config.family == "colonies") {
        paint = colonies_family(shape, ev);
    } else {
        throw std::invalid_argument("no painter for scenario family '" + config.family + "'");
    }

    const std::int64_t rows = config.events + 1;
    const auto S = static_cast<std::size_t>(slices);
    sc.workload = data::Matrix(static_cast<std::size_t>(rows), S);
    sc.growth_events = data::Matrix(static_cast<std::size_t>(rows), S);
    sc.cycle_phase.resize(static_cast<std::size_t>(rows));
    struct Burst {
        double centre, sd, amplitude, decay;
        std::int64_t born;
    };
    std::vector<Burst> bursts;
    std::vector<double> tissue(S), growth(S);
    Canvas canvas{slices, 1.0 / static_cast<double>(slices), &growth};
    for (std::int64_t t = 0; t < rows; ++t) {
        const double tt = static_cast<double>(t);
        const double phase = std::fmod(cycle_phase0 + kTwoPi * tt / cycle_period, kTwoPi);
        sc.cycle_phase[static_cast<std::size_t>(t)] = phase;
        const double cycle = 1.0 + cycle_amplitude * std::sin(phase);
        std::fill(growth.begin(), growth.end(), 0.0);
        paint(t, canvas, tissue);
        if (t > 0) {
            for (auto n = bu.poisson(bursts_per_event); n > 0; --n)
                bursts.push_back({bu.uniform(), 0.005 + 0.01 * bu.uniform(),
                                  0.5 + 1.5 * bu.uniform(), 1.5 + 4.0 * bu.uniform(), t});
        }
        // Scale: the tissue's mean density, so that bursts keep their paper-family
        // size relative to the tissue whatever a family's absolute density.
        double mean = 0.0;
        for (double v : tissue)
            mean += v;
        mean = std::max(1e-12, mean / static_cast<double>(S));
        for (std::size_t s = 0; s < S; ++s) {
            const double x = canvas.x(static_cast<std::int64_t>(s));
            double burst = 0.0;
            for (const Burst& b : bursts) {
                const double age = tt - static_cast<double>(b.born);
                if (std::abs(x - b.centre) < 6.0 * b.sd)
                    burst += b.amplitude * std::exp(-age / b.decay) * gaussian(x, b.centre, b.sd);
            }
            sc.workload(static_cast<std::size_t>(t), s) =
                base * mean + cycle * tissue[s] + mean * burst;
            sc.growth_events(static_cast<std::size_t>(t), s) = growth[s];
        }
    }
    return sc;
}

} // namespace cellshift::scenarios
