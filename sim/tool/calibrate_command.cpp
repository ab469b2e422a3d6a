#include "calibrate_command.hpp"

#include "cellshift/sim/cost_model.hpp"
#include "cellshift/sim/element_parcel.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace cellshift::sim::tool {

namespace {

using clock_type = std::chrono::steady_clock;

template <typename Body>
double median_seconds(int repeats, Body&& body) {
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = clock_type::now();
        body();
        t.push_back(std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct Sample {
    double interactions = 0.0; // per step
    double elements = 0.0;
    double seconds = 0.0; // per step
};

} // namespace

double migration_cost_mu(double per_pair, double per_element, double per_migrated,
                         double pairs_per_element, std::int64_t rebalance_every) {
    return per_migrated /
           (static_cast<double>(rebalance_every) * (per_pair * pairs_per_element + per_element));
}

int calibrate(const SemParams& base, const CalibrateOptions& o) {
    validate(base);
    if (o.steps < 1 || o.repeats < 1)
        throw std::invalid_argument("--steps and --repeats must be >= 1");
    std::cout << "calibrating the model clock with " << o.backend << " (median of " << o.repeats
              << " runs of " << o.steps << " steps per tissue)\n"
              << std::setw(10) << "elements" << std::setw(14) << "pairs/step" << std::setw(12)
              << "us/step\n";
    // Tissues of several sizes and densities: the basal patch over growing
    // fractions of the domain, as laid out and after some growth.
    std::vector<Sample> samples;
    for (double fraction : {0.25, 0.5, 1.0}) {
        for (std::int64_t grow : {0, 600}) {
            SemParams p = base;
            p.patch_fraction = fraction;
            Simulation sim(p, make_backend("cpu-binned", p));
            sim.run(grow);
            Elements e = sim.tissue().elements;
            auto backend = make_backend(o.backend, p);
            ForceStats stats;
            const double seconds = median_seconds(o.repeats, [&] {
                Elements copy = e;
                stats = backend->advance(copy, 0, static_cast<int>(o.steps));
            });
            Sample s{static_cast<double>(stats.interactions) / static_cast<double>(o.steps),
                     static_cast<double>(e.size()), seconds / static_cast<double>(o.steps)};
            samples.push_back(s);
            std::cout << std::setw(10) << e.size() << std::setw(14)
                      << static_cast<long long>(s.interactions) << std::setw(11) << std::fixed
                      << std::setprecision(1) << 1e6 * s.seconds << "\n"
                      << std::defaultfloat;
        }
    }
    // seconds = a * pairs + b * elements, least squares through the origin.
    double sxx = 0, sxy = 0, syy = 0, sxt = 0, syt = 0;
    for (const Sample& s : samples) {
        sxx += s.interactions * s.interactions;
        sxy += s.interactions * s.elements;
        syy += s.elements * s.elements;
        sxt += s.interactions * s.seconds;
        syt += s.elements * s.seconds;
    }
    const double det = sxx * syy - sxy * sxy;
    double per_pair = det > 0 ? (sxt * syy - syt * sxy) / det : 0.0;
    double per_element = det > 0 ? (syt * sxx - sxt * sxy) / det : 0.0;
    if (per_element < 0.0) { // pairs alone explain the times
        per_element = 0.0;
        per_pair = sxt / sxx;
    }
    double worst = 0.0;
    for (const Sample& s : samples)
        worst = std::max(
            worst,
            std::abs(per_pair * s.interactions + per_element * s.elements - s.seconds) / s.seconds);

    // Ghosts: the marginal cost of merging G ghost records into the local view,
    // plus packing them (the sender's work) and sorting them.
    SemParams p = base;
    p.patch_fraction = 1.0;
    Simulation sim(p, make_backend("cpu-binned", p));
    sim.run(600);
    const Tissue whole = sim.tissue();
    Tissue owned = whole;
    std::vector<int> owner(owned.cells.size());
    for (std::size_t c = 0; c < owner.size(); ++c)
        owner[c] = c % 5 == 0 ? 1 : 0; // every fifth cell leaves
    std::vector<ElementRecord> ghosts;
    for (std::size_t i = 0; i < whole.elements.size(); i += 5)
        append_element(ghosts, whole.elements, i);
    for (auto& g : ghosts)
        g.id += std::int64_t{1} << 60; // distinct from every owned id
    LocalView view;
    const int reps = std::max(o.repeats, 5) * 20;
    const double with = median_seconds(o.repeats, [&] {
        for (int r = 0; r < reps; ++r) {
            std::vector<ElementRecord> packed;
            for (const ElementRecord& g : ghosts)
                packed.push_back(g);
            std::sort(packed.begin(), packed.end(),
                      [](const ElementRecord& a, const ElementRecord& b) { return a.id < b.id; });
            merge_with_ghosts(owned.elements, packed, view);
        }
    });
    const double without = median_seconds(o.repeats, [&] {
        for (int r = 0; r < reps; ++r)
            merge_with_ghosts(owned.elements, {}, view);
    });
    const double per_ghost =
        std::max(0.0, (with - without) / reps / static_cast<double>(ghosts.size()));

    // Migration: packing every fifth cell and unpacking it elsewhere.
    std::int64_t moved = 0;
    const double migrate = median_seconds(o.repeats, [&] {
        Tissue from = whole;
        Tissue to;
        const auto before = from.elements.size();
        const auto out = pack_cells(from, owner, 0, 2);
        unpack_cells(to, out[1].data(), out[1].size());
        moved = static_cast<std::int64_t>(before - from.elements.size());
    });
    const double per_migrated = migrate / static_cast<double>(std::max<std::int64_t>(moved, 1));

    std::cout << std::scientific << std::setprecision(3) << "fit: " << per_pair
              << " s per pair interaction, " << per_element << " s per element per step"
              << " (worst relative error " << std::fixed << std::setprecision(1) << 100.0 * worst
              << " % over " << samples.size() << " tissues)\n"
              << std::scientific << std::setprecision(3) << "ghosts: " << per_ghost
              << " s per ghost element per step; migration: " << per_migrated
              << " s per migrated element (" << moved << " elements)\n"
              << "use: --cost-pair " << per_pair << " --cost-element " << per_element
              << " --cost-ghost " << per_ghost << " --cost-migrated " << per_migrated << "\n"
              << std::defaultfloat;
    // mu: the grown, full-width tissue sets the pairs per element.
    const Sample& grown = samples.back();
    const double pairs = grown.interactions / std::max(1.0, grown.elements);
    const CostModel defaults;
    std::cout << std::setprecision(3) << "migration cost at --rebalance-every " << o.rebalance_every
              << " (" << pairs << " pairs per element): mu = "
              << migration_cost_mu(per_pair, per_element, per_migrated, pairs, o.rebalance_every)
              << " with this fit, mu = "
              << migration_cost_mu(defaults.per_pair, defaults.per_element,
                                   defaults.per_migrated_element, pairs, o.rebalance_every)
              << " with the model clock's defaults (cellshift-eval --migration-cost)\n"
              << std::defaultfloat;
    return 0;
}

} // namespace cellshift::sim::tool
