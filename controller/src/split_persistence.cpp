#include "cellshift/controller/split_persistence.hpp"

#include "cellshift/controller/partition.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace cellshift::controller {

namespace {

constexpr std::size_t kHalfWindow = kPersistenceWindow / 2;
constexpr std::size_t kStateHeader = 4;    // early, late, windows, moves followed
constexpr std::size_t kFollowedHeader = 5; // age, gain, early, late, cut count (P + 1)

bool whole(double x, double lo, double hi) {
    return x >= lo && x <= hi && x == std::floor(x);
}

} // namespace

void SplitPersistence::observe(const std::vector<double>& slices) {
    for (Followed& f : followed_) {
        const double saved = bottleneck(slices, f.before) - bottleneck(slices, f.after);
        (f.age < kHalfWindow ? f.early : f.late) += saved;
        ++f.age;
    }
    while (!followed_.empty() && followed_.front().age >= kPersistenceWindow) {
        const Followed& done = followed_.front();
        if (windows_ == 0.0) {
            // The prior: one move whose predicted saving came and lasted, so that the
            // first moves followed cannot shorten the horizon on their own.
            early_ = late_ = done.gain * static_cast<double>(kHalfWindow);
        }
        early_ = kPersistenceKeep * early_ + (1.0 - kPersistenceKeep) * done.early;
        late_ = kPersistenceKeep * late_ + (1.0 - kPersistenceKeep) * done.late;
        windows_ += 1.0;
        followed_.erase(followed_.begin());
    }
}

void SplitPersistence::follow(const Boundaries& before, const Boundaries& after, double gain) {
    if (!(gain > 0.0) || !std::isfinite(gain) || before == after) {
        return;
    }
    followed_.push_back(Followed{before, after, gain, 0.0, 0.0, 0});
}

std::vector<double> SplitPersistence::state() const {
    std::vector<double> s{early_, late_, windows_, static_cast<double>(followed_.size())};
    for (const Followed& f : followed_) {
        s.insert(s.end(), {static_cast<double>(f.age), f.gain, f.early, f.late,
                           static_cast<double>(f.before.size())});
        for (const std::int64_t b : f.before)
            s.push_back(static_cast<double>(b));
        for (const std::int64_t b : f.after)
            s.push_back(static_cast<double>(b));
    }
    return s;
}

void SplitPersistence::restore(const std::vector<double>& state, const Layout& layout) {
    const auto bad = [](const std::string& why) {
        return std::invalid_argument("policy state 'rnn/persistence/state': " + why);
    };
    if (state.size() < kStateHeader) {
        throw bad("holds " + std::to_string(state.size()) + " values, expected at least " +
                  std::to_string(kStateHeader));
    }
    // A NaN or infinite average would read as lapsed for ever; a fractional or negative
    // window count is no count.
    if (!std::isfinite(state[0]) || !std::isfinite(state[1]) ||
        !whole(state[2], 0.0, std::numeric_limits<double>::max())) {
        throw bad("an average saving that is not finite or a window count that is not a "
                  "whole number >= 0");
    }
    SplitPersistence r;
    r.early_ = state[0];
    r.late_ = state[1];
    r.windows_ = state[2];
    if (!whole(state[3], 0.0, static_cast<double>(kPersistenceWindow))) {
        throw bad("a followed-move count of " + std::to_string(state[3]));
    }
    const auto cuts = static_cast<std::size_t>(layout.ranks + 1);
    std::size_t at = kStateHeader;
    for (std::size_t m = 0; m < static_cast<std::size_t>(state[3]); ++m) {
        if (at + kFollowedHeader + 2 * cuts > state.size() ||
            !whole(state[at], 0.0, static_cast<double>(kPersistenceWindow) - 1.0) ||
            state[at + 4] != static_cast<double>(cuts)) {
            throw bad("truncated, or a followed move's age or cut count out of range");
        }
        // follow() keeps only finite positive gains; a cut must be a whole slice index
        // before it is converted (a NaN or huge value has no integer).
        bool finite = state[at + 1] > 0.0 && std::isfinite(state[at + 1]) &&
                      std::isfinite(state[at + 2]) && std::isfinite(state[at + 3]);
        for (std::size_t i = 0; i < 2 * cuts; ++i) {
            finite = finite && whole(state[at + kFollowedHeader + i], 0.0,
                                     static_cast<double>(layout.slices));
        }
        if (!finite) {
            throw bad("a followed move's gain, savings or cuts are not finite numbers in range");
        }
        Followed f;
        f.age = static_cast<std::size_t>(state[at]);
        f.gain = state[at + 1];
        f.early = state[at + 2];
        f.late = state[at + 3];
        at += kFollowedHeader;
        for (std::size_t i = 0; i < cuts; ++i) {
            f.before.push_back(static_cast<std::int64_t>(state[at + i]));
            f.after.push_back(static_cast<std::int64_t>(state[at + cuts + i]));
        }
        at += 2 * cuts;
        try {
            validate(layout, f.before);
            validate(layout, f.after);
        } catch (const std::invalid_argument& e) {
            throw bad(std::string("a followed split: ") + e.what());
        }
        r.followed_.push_back(std::move(f));
    }
    if (at != state.size()) {
        throw bad("holds " + std::to_string(state.size() - at) + " values too many");
    }
    *this = std::move(r);
}

double persistent_horizon(double horizon, const SplitPersistence& persistence) {
    return persistence.lapsed() ? 1.0 : horizon;
}

} // namespace cellshift::controller
