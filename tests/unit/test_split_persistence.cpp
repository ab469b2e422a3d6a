// Whether the cost gate's moves keep paying (split_persistence.hpp): the savings it
// banks per half window, hand-computed, the lapse it reads where a split's advantage
// reverses, and its checkpoint state.
#include "cellshift/controller/split_persistence.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace cellshift::controller;

namespace {

// Four slices, two ranks: a cut after the first slice and one after the third.
const Boundaries kSplitLeft{0, 1, 4};
const Boundaries kSplitRight{0, 3, 4};

} // namespace

TEST_CASE("split persistence: a lasting saving is banked per half window and keeps the horizon",
          "[controller][gate]") {
    // Load A = {5, 1, 1, 1}: the split {0,1,4} has bottleneck max(5, 3) = 5, the split
    // {0,3,4} max(7, 1) = 7. A move from {0,3,4} to {0,1,4} saves 2 per interval.
    const std::vector<double> a{5.0, 1.0, 1.0, 1.0};
    SplitPersistence p;
    CHECK_FALSE(p.known());
    CHECK(persistent_horizon(8.0, p) == 8.0);
    p.follow(kSplitRight, kSplitLeft, 1.5); // predicted 1.5 per interval
    for (std::size_t t = 0; t < kPersistenceWindow; ++t)
        p.observe(a);
    // One window done: the prior is the predicted saving over a half window (1.5 x 4),
    // then each half's realised saving (2 x 4) enters with weight 1 - keep.
    const double prior = 1.5 * 4.0, realised = 2.0 * 4.0;
    CHECK(p.early() == Approx(kPersistenceKeep * prior + (1.0 - kPersistenceKeep) * realised));
    CHECK(p.late() == Approx(p.early()));
    CHECK_FALSE(p.known()); // one window is not yet trusted
    for (int m = 1; m < 5; ++m) {
        p.follow(kSplitRight, kSplitLeft, 1.5);
        for (std::size_t t = 0; t < kPersistenceWindow; ++t)
            p.observe(a);
    }
    CHECK(p.known());
    CHECK_FALSE(p.lapsed());
    CHECK(persistent_horizon(24.0, p) == 24.0);
}

TEST_CASE("split persistence: a saving reversed in the second half lapses the horizon to one",
          "[controller][gate]") {
    // Profile A for four intervals after each move, then B = {1, 1, 1, 5}: under B the
    // split moved to ({0,1,4}: max(1, 7) = 7) is worse than the one left ({0,3,4}: max(3,
    // 5) = 5), so the second half loses 2 per interval where the first saved 2.
    const std::vector<double> a{5.0, 1.0, 1.0, 1.0}, b{1.0, 1.0, 1.0, 5.0};
    SplitPersistence p;
    double early = 0.0, late = 0.0;
    for (int m = 0; m < 5; ++m) {
        p.follow(kSplitRight, kSplitLeft, 2.0);
        for (std::size_t t = 0; t < kPersistenceWindow; ++t)
            p.observe(t < kPersistenceWindow / 2 ? a : b);
        if (m == 0)
            early = late = 2.0 * 4.0; // the prior
        early = kPersistenceKeep * early + (1.0 - kPersistenceKeep) * 8.0;
        late = kPersistenceKeep * late + (1.0 - kPersistenceKeep) * -8.0;
        CHECK(p.early() == Approx(early));
        CHECK(p.late() == Approx(late));
    }
    // After five windows: late = 8 (0.8^5 - (1 - 0.8^5)) < 0.
    REQUIRE(p.known());
    CHECK(p.late() < 0.0);
    CHECK(p.lapsed());
    CHECK(persistent_horizon(24.0, p) == 1.0);
    // Moves whose saving lasts again bring the horizon back.
    for (int m = 0; m < 5; ++m) {
        p.follow(kSplitRight, kSplitLeft, 2.0);
        for (std::size_t t = 0; t < kPersistenceWindow; ++t)
            p.observe(a);
    }
    CHECK_FALSE(p.lapsed());
    CHECK(persistent_horizon(24.0, p) == 24.0);
}

TEST_CASE("split persistence: holds, no gain and a non-finite gain are not followed",
          "[controller][gate]") {
    const std::vector<double> a{5.0, 1.0, 1.0, 1.0};
    SplitPersistence p;
    p.follow(kSplitRight, kSplitRight, 2.0); // a hold
    p.follow(kSplitRight, kSplitLeft, 0.0);  // no predicted gain
    p.follow(kSplitRight, kSplitLeft, -1.0); // a loss
    p.follow(kSplitRight, kSplitLeft, std::numeric_limits<double>::quiet_NaN());
    CHECK(p.state().size() == 4); // nothing followed
    for (std::size_t t = 0; t < 2 * kPersistenceWindow; ++t)
        p.observe(a);
    CHECK(p.early() == 0.0);
    CHECK(p.late() == 0.0);
}

TEST_CASE("split persistence: the state round-trips mid-window and malformed states are refused",
          "[controller][gate]") {
    const std::vector<double> a{5.0, 1.0, 1.0, 1.0}, b{1.0, 1.0, 1.0, 5.0};
    SplitPersistence p;
    for (int m = 0; m < 7; ++m) {
        p.follow(m % 2 == 0 ? kSplitRight : kSplitLeft, m % 2 == 0 ? kSplitLeft : kSplitRight,
                 1.0 + m);
        p.observe(m % 3 == 0 ? a : b);
        p.observe(b);
    }
    const Layout two{4, 2, 1};
    SplitPersistence q;
    q.restore(p.state(), two);
    CHECK(q.state() == p.state());
    for (int t = 0; t < 12; ++t) {
        p.observe(t % 2 == 0 ? a : b);
        q.observe(t % 2 == 0 ? a : b);
    }
    CHECK(q.state() == p.state());
    CHECK(q.early() == p.early());
    CHECK(q.late() == p.late());

    const std::vector<double> good = SplitPersistence{}.state();
    CHECK_NOTHROW(q.restore(good, two));
    const auto refused = [&](const std::vector<double>& state) {
        CHECK_THROWS_WITH(q.restore(state, two), Catch::Contains("rnn/persistence/state"));
    };
    refused({1.0, 2.0});                     // short header
    refused({0.0, 0.0, 0.0, 1.5});           // a move count that is not whole
    refused({0.0, 0.0, 0.0, 99.0});          // more moves than the window holds
    refused({0.0, 0.0, 0.0, 1.0, 0.0, 1.0}); // a move cut short
    // One move on two ranks: 4 + 5 + 2 x 3 values.
    std::vector<double> one{0.0, 0.0, 0.0, 1.0, 2.0, 1.0, 0.5, 0.5, 3.0, 0, 3, 4, 0, 1, 4};
    CHECK_NOTHROW(q.restore(one, two));
    CHECK(q.state() == one);
    CHECK_THROWS(q.restore(one, Layout{6, 3, 1})); // three ranks need four cuts
    std::vector<double> longer = one;
    longer.push_back(0.0);
    refused(longer);
    std::vector<double> outside = one;
    outside[10] = 5.0; // a cut past S = 4: reading it would run off the slices
    refused(outside);
    std::vector<double> late = one;
    late[4] = static_cast<double>(kPersistenceWindow); // a move older than its window
    refused(late);
    // Values that are not finite, or not whole where a count or a cut is meant: each
    // would otherwise be restored (a NaN average reads as lapsed for ever; a NaN cut has
    // no integer to convert to).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (const auto& [index, value] :
         std::vector<std::pair<std::size_t, double>>{{0, nan},  // early average
                                                     {1, inf},  // late average
                                                     {2, -1.0}, // window count
                                                     {2, 2.5},  // window count
                                                     {5, 0.0},  // gain (follow keeps > 0)
                                                     {5, nan},  // gain
                                                     {6, inf},  // early saving so far
                                                     {7, nan},  // late saving so far
                                                     {10, nan}, // a cut
                                                     {12, 1.5}, // a cut
                                                     {13, -inf}}) {
        std::vector<double> broken = one;
        broken[index] = value;
        INFO("value " << value << " at " << index);
        refused(broken);
    }
}
