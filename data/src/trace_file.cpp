#include "cellshift/data/trace.hpp"

#include "cellshift/data/error.hpp"
#include "checks.hpp"
#include "guarded_read.hpp"
#include "hdf5_io.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cellshift::data {

void validate(const Trace& t, const std::string& where) {
    if (t.events() == 0 || t.slices() == 0) {
        fail(where, "empty trace (workload has shape " + checks::shape(t.events(), t.slices()) +
                        "; it needs at least one event and one slice)");
    }
    checks::finite(where, "workload", t.workload, /*nonnegative=*/true);
    if (t.growth_events) {
        checks::matrix_shape(where, "growth_events", t.growth_events->rows, t.growth_events->cols,
                             t.events(), t.slices());
        checks::finite(where, "growth_events", *t.growth_events, /*nonnegative=*/true);
    }
    if (t.cycle_phase) {
        checks::vector_size(where, "cycle_phase", t.cycle_phase->size(), t.events());
        checks::finite(where, "cycle_phase", *t.cycle_phase);
    }
    if (t.initial_load) {
        checks::vector_size(where, "initial_load", t.initial_load->size(), t.slices());
        checks::finite(where, "initial_load", *t.initial_load, /*nonnegative=*/true);
    }
    if (t.estimate) {
        checks::matrix_shape(where, "estimate", t.estimate->rows, t.estimate->cols, t.events(),
                             t.slices());
        checks::finite(where, "estimate", *t.estimate, /*nonnegative=*/true);
    }
    if (t.slice_width && !(std::isfinite(*t.slice_width) && *t.slice_width > 0.0)) {
        fail(where, "slice_width must be finite and > 0");
    }
}

static Trace read_trace_hdf5_in_process(const std::string& path) {
    h5::Reader in(path, kTraceFormat, kTraceFormatVersion);
    Trace t;
    t.workload = in.matrix("workload");
    if (in.has_object("growth_events")) {
        t.growth_events = in.matrix("growth_events");
    }
    if (in.has_object("cycle_phase")) {
        t.cycle_phase = in.vector("cycle_phase");
    }
    if (in.has_object("initial_load")) {
        t.initial_load = in.vector("initial_load");
    }
    if (in.has_object("estimate")) {
        t.estimate = in.matrix("estimate");
    }
    if (in.has_attribute("/", "source")) {
        t.source = in.string_attribute("/", "source");
    }
    if (in.has_attribute("/", "slice_width")) {
        t.slice_width = in.double_attribute("/", "slice_width");
    }
    validate(t, path);
    return t;
}

Trace read_trace(const std::string& path) {
    std::string ext;
    auto dot = path.find_last_of('.');
    if (dot != std::string::npos) {
        ext = path.substr(dot);
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    }
    return ext == ".csv" ? read_trace_csv(path) : read_trace_hdf5(path);
}

void write_trace(const std::string& path, const Trace& t) {
    validate(t, path);
    h5::write_atomically(path, kTraceFormat, kTraceFormatVersion, [&](h5::Writer& out) {
        out.attribute("/", "source", t.source);
        if (t.slice_width) {
            out.attribute("/", "slice_width", *t.slice_width);
        }
        out.matrix("workload", t.workload);
        if (t.growth_events) {
            out.matrix("growth_events", *t.growth_events);
        }
        if (t.cycle_phase) {
            out.vector("cycle_phase", *t.cycle_phase);
        }
        if (t.initial_load) {
            out.vector("initial_load", *t.initial_load);
        }
        if (t.estimate) {
            out.matrix("estimate", *t.estimate);
        }
    });
}

// The HDF5 library first reads the file in a child (guarded_read.hpp).
Trace read_trace_hdf5(const std::string& path) {
    return detail::guarded_read(path, [&] { return read_trace_hdf5_in_process(path); });
}

} // namespace cellshift::data
