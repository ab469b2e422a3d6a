#include "cellshift/data/run_record.hpp"

#include "cellshift/data/error.hpp"
#include "checks.hpp"
#include "guarded_read.hpp"
#include "hdf5_io.hpp"

#include <algorithm>
#include <cmath>

namespace cellshift::data {

void validate(const RunRecord& r, const std::string& where) {
    const std::size_t e = r.events();
    const std::size_t p = r.ranks();
    if (e == 0 || p == 0) {
        fail(where, "empty run record (rank_time has shape " + checks::shape(e, p) + ")");
    }
    const auto& clocks = known_clocks();
    if (std::find(clocks.begin(), clocks.end(), r.clock) == clocks.end()) {
        fail(where, "unknown clock '" + r.clock + "' (expected measured, model or workload)");
    }
    if (r.policy.empty()) {
        fail(where, "policy name is empty");
    }
    if (r.w_min < 1) {
        fail(where, "w_min must be >= 1");
    }
    if (r.w_min > r.slices / static_cast<std::int64_t>(p)) { // P * w_min > S, no overflow
        fail(where, "P * w_min > S (" + std::to_string(p) + " * " + std::to_string(r.w_min) +
                        " > " + std::to_string(r.slices) + ")");
    }
    checks::matrix_shape(where, "boundaries", r.boundaries.rows, r.boundaries.cols, e, p + 1);
    checks::vector_size(where, "migrated_slices", r.migrated_slices.size(), e);
    checks::vector_size(where, "imbalance", r.imbalance.size(), e);
    if (r.elements) {
        checks::matrix_shape(where, "elements", r.elements->rows, r.elements->cols, e, p);
    }
    checks::finite(where, "rank_time", r.rank_time, /*nonnegative=*/true);
    checks::finite(where, "imbalance", r.imbalance, /*nonnegative=*/true);
    for (std::size_t t = 0; t < e; ++t) {
        const std::int64_t* b = r.boundaries.row(t);
        if (b[0] != 0 || b[p] != r.slices) {
            fail(where, "boundaries at event " + std::to_string(t) +
                            " must run from 0 to S = " + std::to_string(r.slices));
        }
        for (std::size_t k = 0; k < p; ++k) {
            if (b[k + 1] - b[k] < r.w_min) {
                fail(where, "boundaries at event " + std::to_string(t) + " give rank " +
                                std::to_string(k) + " " + std::to_string(b[k + 1] - b[k]) +
                                " slices, fewer than w_min = " + std::to_string(r.w_min));
            }
        }
        if (r.migrated_slices[t] < 0) {
            fail(where, "migrated_slices[" + std::to_string(t) + "] is negative");
        }
        if (r.elements) {
            for (std::size_t k = 0; k < p; ++k) {
                if ((*r.elements)(t, k) < 0) {
                    fail(where, "elements[" + std::to_string(t) + "," + std::to_string(k) +
                                    "] is negative");
                }
            }
        }
    }
}

static RunRecord read_run_record_in_process(const std::string& path) {
    h5::Reader in(path, kRunRecordFormat, kRunRecordFormatVersion);
    RunRecord r;
    r.rank_time = in.matrix("rank_time");
    r.boundaries = in.int_matrix("boundaries");
    r.migrated_slices = in.int_vector("migrated_slices");
    r.imbalance = in.vector("imbalance");
    if (in.has_object("elements")) {
        r.elements = in.int_matrix("elements");
    }
    r.clock = in.string_attribute("/", "clock");
    r.policy = in.string_attribute("/", "policy");
    r.slices = in.int_attribute("/", "slices");
    r.w_min = in.int_attribute("/", "w_min");
    r.configuration = in.string_attribute("/", "configuration");
    r.source = in.string_attribute("/", "source");
    if (in.has_object("totals")) {
        RunTotals t;
        t.steps = in.int_attribute("totals", "steps");
        t.model_runtime = in.double_attribute("totals", "model_runtime");
        t.model_migration = in.double_attribute("totals", "model_migration");
        t.model_mean = in.double_attribute("totals", "model_mean");
        t.measured_runtime = in.double_attribute("totals", "measured_runtime");
        t.wall_seconds = in.double_attribute("totals", "wall_seconds");
        t.ghosts = in.int_attribute("totals", "ghosts");
        for (double v : {t.model_runtime, t.model_migration, t.model_mean, t.measured_runtime,
                         t.wall_seconds}) {
            if (!std::isfinite(v) || v < 0.0)
                in.fail("totals must be finite and >= 0");
        }
        r.totals = t;
    }
    std::int64_t ranks = in.int_attribute("/", "ranks");
    if (ranks != static_cast<std::int64_t>(r.ranks())) {
        in.fail("attribute ranks = " + std::to_string(ranks) +
                " disagrees with rank_time of shape " + checks::shape(r.events(), r.ranks()));
    }
    validate(r, path);
    return r;
}

void write_run_record(const std::string& path, const RunRecord& r) {
    validate(r, path);
    h5::write_atomically(path, kRunRecordFormat, kRunRecordFormatVersion, [&](h5::Writer& out) {
        out.attribute("/", "clock", r.clock);
        out.attribute("/", "policy", r.policy);
        out.attribute("/", "ranks", static_cast<std::int64_t>(r.ranks()));
        out.attribute("/", "slices", r.slices);
        out.attribute("/", "w_min", r.w_min);
        out.attribute("/", "configuration", r.configuration);
        out.attribute("/", "source", r.source);
        out.matrix("rank_time", r.rank_time);
        out.int_matrix("boundaries", r.boundaries);
        out.int_vector("migrated_slices", r.migrated_slices);
        out.vector("imbalance", r.imbalance);
        if (r.elements) {
            out.int_matrix("elements", *r.elements);
        }
        if (r.totals) {
            const RunTotals& t = *r.totals;
            out.group("totals");
            out.attribute("totals", "steps", t.steps);
            out.attribute("totals", "model_runtime", t.model_runtime);
            out.attribute("totals", "model_migration", t.model_migration);
            out.attribute("totals", "model_mean", t.model_mean);
            out.attribute("totals", "measured_runtime", t.measured_runtime);
            out.attribute("totals", "wall_seconds", t.wall_seconds);
            out.attribute("totals", "ghosts", t.ghosts);
        }
    });
}

// The HDF5 library first reads the file in a child (guarded_read.hpp).
RunRecord read_run_record(const std::string& path) {
    return detail::guarded_read(path, [&] { return read_run_record_in_process(path); });
}

} // namespace cellshift::data
