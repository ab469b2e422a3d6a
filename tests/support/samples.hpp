#pragma once
// Small, valid instances of every file format, with deterministic contents, and
// exact field-by-field comparisons for round-trip tests.

#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/trace.hpp"

#include <cstdint>

namespace cellshift::test {

// A controller with hidden size `hidden`, `features` features and weights drawn
// from a seeded generator (values that need all 17 digits to round-trip).
data::Controller sample_controller(std::size_t hidden = 24, std::size_t features = 12,
                                   std::uint64_t seed = 1);
data::Trace sample_trace(std::size_t events = 7, std::size_t slices = 10, bool optional = true);
data::RunRecord sample_run_record(std::size_t events = 5, std::size_t ranks = 3,
                                  bool with_elements = true);

bool same(const data::Controller& a, const data::Controller& b);
bool same(const data::Trace& a, const data::Trace& b);
bool same(const data::RunRecord& a, const data::RunRecord& b);

} // namespace cellshift::test
