// Simulator checkpoints: exact round trip, the writer's and the reader's checks,
// and policy state that survives a checkpoint.

#include "../support/expect_error.hpp"
#include "../support/hdf5_edit.hpp"
#include "../support/samples.hpp"
#include "../support/temp_dir.hpp"
#include "cellshift/controller/features.hpp"
#include "cellshift/controller/registry.hpp"
#include "cellshift/controller/rnn_policy.hpp"
#include "cellshift/data/checkpoint.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <utility>

using namespace cellshift;
using cellshift::test::same;
using cellshift::test::sample_checkpoint;
using cellshift::test::TempDir;

namespace {} // namespace

TEST_CASE("checkpoint: round trip is exact", "[data][checkpoint]") {
    TempDir dir;
    const auto path = dir.file("run.ckpt.h5");
    const data::Checkpoint written = sample_checkpoint();
    data::write_checkpoint(path, written);
    CHECK(same(written, data::read_checkpoint(path)));
}

TEST_CASE("checkpoint: inconsistent states are refused, the old file kept", "[data][checkpoint]") {
    TempDir dir;
    const auto path = dir.file("run.ckpt.h5");
    data::write_checkpoint(path, sample_checkpoint());
    const auto size = std::filesystem::file_size(path);
    const auto refused = [&](auto edit, const char* fragment) {
        data::Checkpoint c = sample_checkpoint();
        edit(c);
        CHECK_DATA_ERROR(data::write_checkpoint(path, c), path, fragment);
        CHECK(std::filesystem::file_size(path) == size);
        CHECK(dir.entries() == std::vector<std::string>{"run.ckpt.h5"});
    };
    refused([](data::Checkpoint& c) { c.element_cell[2] = 5; }, "belongs to cell 5");
    refused([](data::Checkpoint& c) { c.cell_elements[0] = 3; }, "lists 3 elements");
    refused([](data::Checkpoint& c) { c.cell_owner[1] = 2; }, "owner must be in [0, ranks)");
    refused([](data::Checkpoint& c) { std::swap(c.element_id[0], c.element_id[1]); },
            "elements/id is not sorted");
    refused([](data::Checkpoint& c) { c.positions.values[4] = std::nan(""); }, "positions");
    refused([](data::Checkpoint& c) { c.next_cell_id = 7; }, "next_cell_id");
    refused([](data::Checkpoint& c) { c.cell_age.pop_back(); }, "cells/age");
}

TEST_CASE("checkpoint: reader rejections", "[data][checkpoint]") {
    TempDir dir;
    const auto path = dir.file("run.ckpt.h5");
    SECTION("truncated file") {
        data::write_checkpoint(path, sample_checkpoint());
        std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
        CHECK_DATA_ERROR(data::read_checkpoint(path), path, "truncated or corrupt");
    }
    SECTION("missing dataset") {
        data::write_checkpoint(path, sample_checkpoint());
        test::delete_object(path, "cells/owner");
        CHECK_DATA_ERROR(data::read_checkpoint(path), path, "missing dataset 'cells/owner'");
    }
    SECTION("an owner out of range") {
        data::write_checkpoint(path, sample_checkpoint());
        test::replace_with_ints(path, "cells/owner", {3}, 9);
        CHECK_DATA_ERROR(data::read_checkpoint(path), path, "owner must be in [0, ranks)");
    }
    SECTION("a non-finite policy state") {
        data::write_checkpoint(path, sample_checkpoint());
        test::set_double_element(path, "policy_state/a1", 0, std::nan(""));
        CHECK_DATA_ERROR(data::read_checkpoint(path), path, "policy_state/holt/level");
    }
    SECTION("another format") {
        data::write_checkpoint(path, sample_checkpoint());
        test::set_string_attribute(path, "/", "format", "cellshift.trace");
        CHECK_DATA_ERROR(data::read_checkpoint(path), path, "expected 'cellshift.checkpoint'");
    }
}

TEST_CASE("policy state: a restored policy continues exactly", "[controller][checkpoint]") {
    const controller::Layout layout{64, 8, 2};
    controller::PolicySettings settings;
    settings.controller_file = CELLSHIFT_PAPER_CONTROLLER; // 12 rank-time features
    const auto observation = [&](int t, const controller::Boundaries& b) {
        controller::Observation o;
        o.slice_workload.resize(64);
        for (std::size_t s = 0; s < 64; ++s)
            o.slice_workload[s] = 1.0 + 0.02 * t * static_cast<double>(s) + (s % 7 == 0 ? 2 : 0);
        o.rank_times = controller::rank_sums(o.slice_workload, b);
        o.cycle_phase = 0.2 * t;
        return o;
    };
    for (const std::string name : {"holt", "rnn", "rnn-forecast", "rnn-default", "reactive",
                                   "persistence", "seam", "lazy-holt"}) {
        INFO("policy " << name);
        controller::PolicySettings s = settings;
        if (name == "rnn-forecast") // 16 features: the per-slice forecast is state too
            s.controller_file = CELLSHIFT_FORECAST_CONTROLLER;
        if (name == "rnn-default") // the forecast base: holt's forecast is its state
            s.controller_file = CELLSHIFT_SHIPPED_CONTROLLER;
        if (name == "lazy-holt") // its thrifty end: the slow forecast's state matters
            s.overrides = {{"level_alpha", 0.1}, {"threshold", 0.03}, {"step", 1.0}};
        const bool rnn_file = name == "rnn-forecast" || name == "rnn-default";
        const std::string style = rnn_file ? "rnn" : name;
        auto straight = controller::make_policy(style, s);
        auto first = controller::make_policy(style, s);
        auto second = controller::make_policy(style, s);
        const auto start = controller::uniform_boundaries(layout);
        straight->reset(layout, start);
        first->reset(layout, start);
        for (int t = 0; t < 6; ++t) {
            straight->decide(observation(t, straight->boundaries()));
            first->decide(observation(t, first->boundaries()));
        }
        second->reset(layout, start);
        second->restore_state(first->save_state());
        for (int t = 6; t < 14; ++t) {
            const auto& a = straight->decide(observation(t, straight->boundaries()));
            const auto& b = second->decide(observation(t, second->boundaries()));
            CHECK(a == b);
        }
        CHECK(second->save_state() == straight->save_state()); // every array, not only b
        if (style == "rnn") // the hidden state matters: a fresh one diverges
            CHECK(first->save_state().at("rnn/hidden") != std::vector<double>(24 * 7, 0.0));
        if (name == "rnn-default") { // the gate's choice of forecast and horizon: state too
            CHECK(first->save_state().at("rnn/forecast_error").at(0) > 0.0);   // errors seen
            CHECK(first->save_state().at("rnn/total_volatility").at(3) > 0.0); // changes seen
            CHECK(first->save_state().at("rnn/median/history").size() == 5 * 64);
            CHECK(first->save_state().at("rnn/shift/state").size() == 64 + 2);
            CHECK(first->save_state().at("rnn/forecast_error").at(3) >= 0.0); // judged
            CHECK(first->save_state().at("rnn/steady/level").size() == 64);
            CHECK(first->save_state().at("rnn/forecast_error").at(4) >= 0.0);
            CHECK(first->save_state().at("rnn/forecast_error").at(5) >= 0.0);
            CHECK(first->save_state().at("rnn/trend/level").size() == 64);
            CHECK(first->save_state().at("rnn/trend/trend").size() == 64);
            CHECK(first->save_state().at("rnn/forecast_error").at(6) >= 0.0);
            // The moves the gate follows (split_persistence.hpp): some by now, each with
            // its two splits of P + 1 = 8 cuts.
            CHECK(first->save_state().at("rnn/persistence/state").size() > 4 + 5 + 2 * 8);
            // A checkpoint written before the median was judged (two errors, no
            // history) still restores; a history of a wrong size is a one-line error.
            controller::PolicyState old = first->save_state();
            old["rnn/forecast_error"].resize(2);
            old.erase("rnn/median/history");
            old.erase("rnn/shift/state");
            old.erase("rnn/steady/level");
            old.erase("rnn/trend/level");
            old.erase("rnn/trend/trend");
            old.erase("rnn/persistence/state");
            CHECK_NOTHROW(second->restore_state(old));
            // ... and the median's and the shift forecast's errors and state start
            // afresh, even on a policy that has run (second has: its own must not
            // survive).
            CHECK(second->save_state().at("rnn/forecast_error").at(2) == -1.0);
            CHECK(second->save_state().at("rnn/forecast_error").at(3) == -1.0);
            CHECK(second->save_state().at("rnn/median/history").empty());
            CHECK(second->save_state().at("rnn/shift/state").empty());
            CHECK(second->save_state().at("rnn/forecast_error").at(4) == -1.0);
            CHECK(second->save_state().at("rnn/steady/level").empty());
            CHECK(second->save_state().at("rnn/forecast_error").at(5) == -1.0);
            CHECK(second->save_state().at("rnn/forecast_error").at(6) == -1.0);
            CHECK(second->save_state().at("rnn/trend/level").empty());
            CHECK(second->save_state().at("rnn/persistence/state") ==
                  std::vector<double>{0.0, 0.0, 0.0, 0.0}); // nothing followed
            // One written before the shift forecast was judged (three errors) keeps the
            // median's, one written before the steady forecast was (four) the shift
            // forecast's, one written before the last observation was (five) the steady
            // forecast's, one written before the trend forecast was (six) the last
            // observation's: judged ones, so the checks can tell them from a fresh start.
            CHECK(first->save_state().at("rnn/forecast_error").at(2) >= 0.0);
            const std::pair<std::size_t, const char*> older[] = {{3, "rnn/shift/state"},
                                                                 {4, "rnn/steady/level"},
                                                                 {5, ""}, // "": no own state
                                                                 {6, "rnn/trend/level"}};
            for (const auto& [errors, absent] : older) {
                INFO(errors << " errors, no " << absent);
                old = first->save_state();
                old["rnn/forecast_error"].resize(errors);
                if (*absent != '\0')
                    old.erase(absent);
                second->restore_state(old);
                CHECK(second->save_state().at("rnn/forecast_error").at(errors - 1) ==
                      first->save_state().at("rnn/forecast_error").at(errors - 1));
                CHECK(second->save_state().at("rnn/forecast_error").at(errors) == -1.0);
            }
            // A forecast state of a wrong size is a one-line error naming it.
            const std::pair<const char*, std::size_t> wrong[] = {
                {"rnn/median/history", 64 * 5 + 1}, {"rnn/shift/state", 64 + 1},
                {"rnn/steady/level", 64 + 1},       {"rnn/trend/level", 64 + 1},
                {"rnn/trend/trend", 64 + 1},        {"rnn/persistence/state", 3}};
            for (const auto& [key, size] : wrong) {
                controller::PolicyState bad = first->save_state();
                bad[key].resize(size);
                CHECK_THROWS_WITH(second->restore_state(bad), Catch::Contains(key));
            }
        }
        // Only the forecast-reading rnn files ask callers for per-slice workload beyond
        // their style.
        CHECK(first->reads_slice_workload() == rnn_file);
        if (rnn_file) // and so does the forecast: S values of level and trend
            CHECK(first->save_state().at("rnn/forecast/level").size() == 64);
    }
    auto holt = controller::make_policy("holt");
    holt->reset(layout, controller::uniform_boundaries(layout));
    controller::PolicyState bad = holt->save_state();
    bad["boundaries"] = {0, 1, 2, 3, 4, 5, 6, 7, 64}; // widths below w_min
    CHECK_THROWS_WITH(holt->restore_state(bad), Catch::Contains("w_min"));
    bad.erase("boundaries");
    CHECK_THROWS_WITH(holt->restore_state(bad), Catch::Contains("no 'boundaries'"));
}
