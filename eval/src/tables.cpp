#include "cellshift/eval/tables.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace cellshift::eval {
namespace {

std::string fixed(double v, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

template <typename Block>
void for_each_rank_block(const std::vector<ComparisonRow>& rows, Block&& block) {
    std::size_t i = 0;
    while (i < rows.size()) {
        std::size_t j = i;
        while (j < rows.size() && rows[j].ranks == rows[i].ranks) {
            ++j;
        }
        block(rows[i].ranks, i, j);
        i = j;
    }
}

} // namespace

std::string format_table(const std::vector<ComparisonRow>& rows, const std::string& caption) {
    std::ostringstream out;
    for_each_rank_block(rows, [&](std::int64_t ranks, std::size_t b, std::size_t e) {
        out << "P = " << ranks << "  (" << rows[b].scenarios << " scenario(s) x " << rows[b].events
            << " events; " << caption << ")\n";
        char line[160];
        std::snprintf(line, sizeof line, "  %-14s %12s %12s %10s %16s %14s %10s\n", "policy",
                      "runtime/stat", "imbalance %", "spread", "migrated slices", "w_min-limited",
                      "objective");
        out << line;
        for (std::size_t i = b; i < e; ++i) {
            const auto& r = rows[i];
            std::snprintf(line, sizeof line, "  %-14s %12.4f %12.2f %10.4f %16.1f %14.1f %10.4f\n",
                          r.policy.c_str(), r.runtime_vs_static, r.imbalance_pct, r.spread,
                          r.migrated_slices, r.limited_events, r.objective);
            out << line;
        }
        out << "\n";
    });
    return out.str();
}

std::string to_markdown(const std::vector<ComparisonRow>& rows, const std::string& caption) {
    std::ostringstream out;
    for_each_rank_block(rows, [&](std::int64_t ranks, std::size_t b, std::size_t e) {
        out << "### P = " << ranks << "\n\n"
            << rows[b].scenarios << " scenario(s) x " << rows[b].events << " events; " << caption
            << ".\n\n"
            << "| policy | runtime vs static | imbalance % | spread | migrated slices | "
               "w_min-limited events | objective |\n"
            << "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
        for (std::size_t i = b; i < e; ++i) {
            const auto& r = rows[i];
            out << "| " << r.policy << " | " << fixed(r.runtime_vs_static, 4) << " | "
                << fixed(r.imbalance_pct, 2) << " | " << fixed(r.spread, 4) << " | "
                << fixed(r.migrated_slices, 1) << " | " << fixed(r.limited_events, 1) << " | "
                << fixed(r.objective, 4) << " |\n";
        }
        out << "\n";
    });
    return out.str();
}

std::string to_csv(const std::vector<ComparisonRow>& rows) {
    std::ostringstream out;
    out << "ranks,policy,runtime_vs_static,runtime,imbalance_pct,spread,migrated_slices,"
           "limited_events,objective,scenarios,events\n";
    out.precision(10);
    for (const auto& r : rows) {
        out << r.ranks << "," << r.policy << "," << r.runtime_vs_static << "," << r.runtime << ","
            << r.imbalance_pct << "," << r.spread << "," << r.migrated_slices << ","
            << r.limited_events << "," << r.objective << "," << r.scenarios << "," << r.events
            << "\n";
    }
    return out.str();
}

std::string to_json(const std::vector<ComparisonRow>& rows) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& r : rows) {
        array.push_back({{"ranks", r.ranks},
                         {"policy", r.policy},
                         {"runtime_vs_static", r.runtime_vs_static},
                         {"runtime", r.runtime},
                         {"imbalance_pct", r.imbalance_pct},
                         {"spread", r.spread},
                         {"migrated_slices", r.migrated_slices},
                         {"limited_events", r.limited_events},
                         {"objective", r.objective},
                         {"scenarios", r.scenarios},
                         {"events", r.events}});
    }
    return array.dump(2) + "\n";
}

} // namespace cellshift::eval
