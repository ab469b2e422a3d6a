#pragma once
// Whether the gate's moves keep paying, measured (issue 22, session 23). The cost gate
// weighs a move over a horizon of 8-24 intervals (forecast_base.hpp,
// total_volatility.hpp), as if the split it moves to stayed better than the one it
// leaves for that long. Where the load's profile switches back and forth (a code that
// alternates between phases, a load that jumps between two places while its total
// stays level) the advantage is gone or reversed within a few intervals, and the gate
// paid every switch's migration, up to 28% above static at a GPU's mu, for gains that
// did not last. So every move the gate would make is followed on the loads that then
// come, for a window of kPersistenceWindow intervals: the saving of its split over the
// one it left (the bottleneck of the old split minus that of the new), summed over the
// window's first half and over its second half, each in a moving average over the
// moves followed. Where either average is not positive (the saving did not outlast
// half the window, or never came), the gate weighs a move over one interval only
// (persistent_horizon): it moves only where the move repays its migration at once.
// Where both are positive nothing changes: a lasting but decaying saving is what the
// gate's horizon was chosen on (a measured ratio of the halves scaling the horizon
// cost the training traces under observation noise; docs/research_log.md).

#include "cellshift/controller/layout.hpp"

#include <cstddef>
#include <vector>

namespace cellshift::controller {

// Intervals a move is followed (the gate's horizon in the default file).
inline constexpr std::size_t kPersistenceWindow = 8;
// Memory of the two moving averages, per move followed through its window.
inline constexpr double kPersistenceKeep = 0.8;
// Moves followed through their window before the averages are trusted.
inline constexpr double kPersistenceWindowsKnown = 5.0;

class SplitPersistence {
public:
    void reset() { *this = SplitPersistence{}; }
    // The per-slice workload of the interval that just ended: every move followed adds
    // the saving its split made on it.
    void observe(const std::vector<double>& slices);
    // A move the gate would make now, from `before` to `after`, predicted to save
    // `gain` per interval; ignored unless it moves and gain > 0. The gain seeds the
    // averages (a prior of one move whose saving lasted) when it is the first.
    void follow(const Boundaries& before, const Boundaries& after, double gain);
    // Known once kPersistenceWindowsKnown moves have been followed through the window.
    bool known() const { return windows_ >= kPersistenceWindowsKnown; }
    // Known, and the averaged saving of the window's first or second half is not
    // positive.
    bool lapsed() const { return known() && !(early_ > 0.0 && late_ > 0.0); }
    // The averaged savings of the window's first and second half.
    double early() const { return early_; }
    double late() const { return late_; }

    // For checkpoints: {early, late, windows, moves followed, then per move its age,
    // gain, early and late saving so far, its cut count n, the n cuts before and the n
    // after}.
    std::vector<double> state() const;
    // The inverse of state() for a run on `layout`; throws std::invalid_argument, naming
    // the checkpoint key 'rnn/persistence/state', on a malformed state or a followed
    // split that is not one of `layout`.
    void restore(const std::vector<double>& state, const Layout& layout);

private:
    struct Followed {
        Boundaries before, after;
        double gain = 0.0, early = 0.0, late = 0.0;
        std::size_t age = 0;
    };
    std::vector<Followed> followed_; // oldest first, at most kPersistenceWindow
    double early_ = 0.0, late_ = 0.0, windows_ = 0.0;
};

// The gate's horizon: one interval where the saving of its moves has lapsed, else
// `horizon`.
double persistent_horizon(double horizon, const SplitPersistence& persistence);

} // namespace cellshift::controller
