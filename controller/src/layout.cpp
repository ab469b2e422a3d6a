#include "cellshift/controller/layout.hpp"

#include <cstdlib>
#include <stdexcept>

namespace cellshift::controller {

void validate(const Layout& l) {
    if (l.ranks < 1) {
        throw std::invalid_argument("rank count P must be >= 1 (got " + std::to_string(l.ranks) +
                                    ")");
    }
    if (l.w_min < 1) {
        throw std::invalid_argument("w_min must be >= 1 (got " + std::to_string(l.w_min) + ")");
    }
    if (l.w_min > l.slices / l.ranks) { // P * w_min > S, without overflow
        throw std::invalid_argument("P * w_min > S (" + std::to_string(l.ranks) + " * " +
                                    std::to_string(l.w_min) + " > " + std::to_string(l.slices) +
                                    ")");
    }
}

void validate(const Layout& l, const Boundaries& b) {
    validate(l);
    if (b.size() != static_cast<std::size_t>(l.ranks + 1)) {
        throw std::invalid_argument("boundaries hold " + std::to_string(b.size()) +
                                    " values, expected P + 1 = " + std::to_string(l.ranks + 1));
    }
    if (b.front() != 0 || b.back() != l.slices) {
        throw std::invalid_argument("boundaries must run from 0 to S = " +
                                    std::to_string(l.slices));
    }
    for (std::size_t p = 0; p + 1 < b.size(); ++p) {
        if (b[p + 1] - b[p] < l.w_min) {
            throw std::invalid_argument("rank " + std::to_string(p) + " owns " +
                                        std::to_string(b[p + 1] - b[p]) +
                                        " slices, fewer than w_min = " + std::to_string(l.w_min));
        }
    }
}

Boundaries uniform_boundaries(const Layout& l) {
    validate(l);
    Boundaries b(static_cast<std::size_t>(l.ranks + 1));
    for (std::int64_t p = 0; p <= l.ranks; ++p) {
        b[static_cast<std::size_t>(p)] = p * l.slices / l.ranks;
    }
    return b;
}

std::vector<std::int64_t> widths(const Boundaries& b) {
    std::vector<std::int64_t> w(b.size() - 1);
    for (std::size_t p = 0; p < w.size(); ++p) {
        w[p] = b[p + 1] - b[p];
    }
    return w;
}

std::vector<double> rank_sums(const std::vector<double>& per_slice, const Boundaries& b) {
    std::vector<double> sums(b.size() - 1, 0.0);
    for (std::size_t p = 0; p < sums.size(); ++p) {
        for (std::int64_t s = b[p]; s < b[p + 1]; ++s) {
            sums[p] += per_slice[static_cast<std::size_t>(s)];
        }
    }
    return sums;
}

std::int64_t migrated_slices(const Boundaries& before, const Boundaries& after) {
    std::int64_t total = 0;
    for (std::size_t k = 1; k + 1 < before.size(); ++k) {
        total += std::llabs(after[k] - before[k]);
    }
    return total;
}

} // namespace cellshift::controller
