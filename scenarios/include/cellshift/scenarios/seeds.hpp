#pragma once
// The one place that names the seed ranges. Training draws scenarios from the
// training range only; every evaluation uses the evaluation range; validation
// during training uses its own range. The ranges are disjoint by construction.

#include <cstdint>
#include <stdexcept>

namespace cellshift::scenarios {

inline constexpr std::uint64_t kTrainingSeedBase = 0;                   // [0, 1e12)
inline constexpr std::uint64_t kValidationSeedBase = 1'000'000'000'000; // [1e12, 2e12)
inline constexpr std::uint64_t kEvaluationSeedBase = 2'000'000'000'000; // [2e12, 3e12)
inline constexpr std::uint64_t kSeedRangeSize = 1'000'000'000'000;

inline std::uint64_t seed_in_range(std::uint64_t base, std::uint64_t index) {
    if (index >= kSeedRangeSize) {
        throw std::out_of_range("scenario index beyond its seed range");
    }
    return base + index;
}
inline std::uint64_t training_seed(std::uint64_t i) {
    return seed_in_range(kTrainingSeedBase, i);
}
inline std::uint64_t validation_seed(std::uint64_t i) {
    return seed_in_range(kValidationSeedBase, i);
}
inline std::uint64_t evaluation_seed(std::uint64_t i) {
    return seed_in_range(kEvaluationSeedBase, i);
}
inline bool is_evaluation_seed(std::uint64_t seed) {
    return seed >= kEvaluationSeedBase && seed < kEvaluationSeedBase + kSeedRangeSize;
}

} // namespace cellshift::scenarios
