#pragma once
// Small, valid instances of every file format, with deterministic contents, and
// exact field-by-field comparisons for round-trip tests.

#include "cellshift/data/checkpoint.hpp"
#include "cellshift/data/controller_file.hpp"
#include "cellshift/data/run_record.hpp"
#include "cellshift/data/snapshot.hpp"
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

// Three cells (ids 1, 4, 7) with 2, 1 and 3 elements, owned by ranks 0, 1, 1.
data::Checkpoint sample_checkpoint();
// Four elements of two cells on two ranks.
data::Snapshot sample_snapshot();

bool same(const data::Controller& a, const data::Controller& b);
bool same(const data::Trace& a, const data::Trace& b);
bool same(const data::RunRecord& a, const data::RunRecord& b);
bool same(const data::Checkpoint& a, const data::Checkpoint& b);
bool same(const data::Snapshot& a, const data::Snapshot& b);

} // namespace cellshift::test
