#include "cellshift/controller/median_forecast.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace cellshift::controller {

void MedianForecaster::observe(const std::vector<double>& workload) {
    if (history_.size() == kWindow)
        history_.erase(history_.begin());
    history_.push_back(workload);
}

std::vector<double> MedianForecaster::forecast() const {
    if (!ready())
        return history_.empty() ? std::vector<double>{} : history_.back();
    // The last five observations, or the last three while fewer than five are kept.
    const std::size_t window = history_.size() == kWindow ? kWindow : kStartWindow;
    const std::size_t first = history_.size() - window;
    std::vector<double> median(history_.back().size()), column(window);
    for (std::size_t s = 0; s < median.size(); ++s) {
        for (std::size_t k = 0; k < window; ++k)
            column[k] = history_[first + k][s];
        std::nth_element(column.begin(), column.begin() + window / 2, column.end());
        median[s] = column[window / 2];
    }
    return median;
}

std::vector<double> MedianForecaster::state() const {
    std::vector<double> flat;
    for (const auto& row : history_)
        flat.insert(flat.end(), row.begin(), row.end());
    return flat;
}

void MedianForecaster::restore(const std::vector<double>& state, std::size_t slices) {
    if (slices == 0 || state.size() % slices != 0 || state.size() / slices > kWindow)
        throw std::invalid_argument("policy state 'rnn/median/history' does not hold 0 to 5 rows "
                                    "of S values");
    history_.clear();
    for (std::size_t at = 0; at < state.size(); at += slices) {
        const auto first = state.begin() + static_cast<std::ptrdiff_t>(at);
        history_.emplace_back(first, first + static_cast<std::ptrdiff_t>(slices));
    }
}

} // namespace cellshift::controller
