#include "cellshift/eval/sweep.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace cellshift::eval {

std::vector<SweepPoint> sweep_policy(const std::string& policy, const std::vector<SweepAxis>& grid,
                                     const controller::PolicySettings& base,
                                     const ScenarioComparison& options) {
    if (grid.empty()) {
        throw std::invalid_argument("sweep: give at least one --grid NAME=V1,V2,...");
    }
    std::vector<SweepPoint> points(1);
    for (const auto& axis : grid) {
        if (axis.values.empty()) {
            throw std::invalid_argument("sweep: --grid " + axis.name + " has no values");
        }
        std::vector<SweepPoint> next;
        for (const auto& p : points) {
            for (double v : axis.values) {
                SweepPoint q = p;
                q.parameters[axis.name] = v;
                next.push_back(q);
            }
        }
        points = next;
    }
    std::vector<PolicySpec> specs;
    for (auto& p : points) {
        std::ostringstream label;
        label << policy << "[";
        bool first = true;
        for (const auto& axis : grid) {
            label << (first ? "" : ",") << axis.name << "=" << p.parameters[axis.name];
            first = false;
        }
        label << "]";
        p.label = label.str();
        PolicySpec spec{p.label, policy, base};
        for (const auto& [k, v] : p.parameters) {
            spec.settings.overrides[k] = v;
        }
        specs.push_back(spec);
    }
    ComparisonResult result = compare_on_scenarios(specs, options);
    for (const auto& row : result.rows) {
        for (auto& p : points) {
            if (p.label == row.policy) {
                p.rows.push_back(row);
            }
        }
    }
    for (auto& p : points) {
        for (const auto& r : p.rows) {
            p.runtime_vs_static += r.runtime_vs_static;
            p.imbalance_pct += r.imbalance_pct;
            p.migrated_slices += r.migrated_slices;
            p.objective += r.objective;
        }
        const double n = static_cast<double>(p.rows.size());
        p.runtime_vs_static /= n;
        p.imbalance_pct /= n;
        p.migrated_slices /= n;
        p.objective /= n;
    }
    return points;
}

std::vector<SweepPoint> sweep_over_families(const std::string& policy,
                                            const std::vector<SweepAxis>& grid,
                                            const controller::PolicySettings& base,
                                            const ScenarioComparison& options,
                                            const std::vector<std::string>& families) {
    if (families.empty()) {
        throw std::invalid_argument("sweep: no scenario family");
    }
    std::vector<SweepPoint> merged;
    for (const std::string& family : families) {
        ScenarioComparison o = options;
        o.base.family = family;
        std::vector<SweepPoint> points = sweep_policy(policy, grid, base, o);
        if (merged.empty()) {
            merged = points;
            continue;
        }
        for (std::size_t i = 0; i < points.size(); ++i) {
            SweepPoint& m = merged[i];
            m.runtime_vs_static += points[i].runtime_vs_static;
            m.imbalance_pct += points[i].imbalance_pct;
            m.migrated_slices += points[i].migrated_slices;
            m.objective += points[i].objective;
            m.rows.insert(m.rows.end(), points[i].rows.begin(), points[i].rows.end());
        }
    }
    const auto n = static_cast<double>(families.size());
    for (SweepPoint& m : merged) {
        m.runtime_vs_static /= n;
        m.imbalance_pct /= n;
        m.migrated_slices /= n;
        m.objective /= n;
    }
    return merged;
}

std::size_t best_point(const std::vector<SweepPoint>& points, SweepCriterion criterion) {
    const auto value = [criterion](const SweepPoint& p) {
        return criterion == SweepCriterion::Runtime ? p.runtime_vs_static : p.objective;
    };
    std::size_t best = 0;
    for (std::size_t i = 1; i < points.size(); ++i) {
        if (value(points[i]) < value(points[best])) {
            best = i;
        }
    }
    return best;
}

std::string format_sweep(const std::vector<SweepPoint>& points, const std::string& caption,
                         SweepCriterion criterion) {
    std::ostringstream out;
    out << caption << "\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-44s %12s %12s %16s %10s\n", "point", "runtime/stat",
                  "imbalance %", "migrated slices", "objective");
    out << line;
    const std::size_t best = best_point(points, criterion);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        std::snprintf(line, sizeof line, "  %-44s %12.4f %12.2f %16.1f %10.4f%s\n", p.label.c_str(),
                      p.runtime_vs_static, p.imbalance_pct, p.migrated_slices, p.objective,
                      i == best ? "  <- best" : "");
        out << line;
    }
    return out.str();
}

std::string sweep_to_csv(const std::vector<SweepPoint>& points) {
    std::ostringstream out;
    out.precision(10);
    out << "point,ranks,runtime_vs_static,imbalance_pct,spread,migrated_slices,objective\n";
    for (const auto& p : points) {
        for (const auto& r : p.rows) {
            out << '"' << p.label << "\"," << r.ranks << "," << r.runtime_vs_static << ","
                << r.imbalance_pct << "," << r.spread << "," << r.migrated_slices << ","
                << r.objective << "\n";
        }
    }
    return out.str();
}

} // namespace cellshift::eval
