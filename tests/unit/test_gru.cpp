// The Eigen GRU cell against a naive loop transcription of PyTorch's GRUCell.

#include "../support/samples.hpp"
#include "cellshift/controller/gru.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace cellshift;

namespace {

double sigmoid(double v) {
    return 1.0 / (1.0 + std::exp(-v));
}

// h' for one column, written from the formula with plain loops.
std::vector<double> naive_step(const data::Controller& c, const std::vector<double>& x,
                               const std::vector<double>& h) {
    const std::size_t n = c.hidden_size();
    auto gate = [&](std::size_t row, bool hidden_part) {
        double sum = hidden_part ? c.bias_hh[row] : c.bias_ih[row];
        if (hidden_part) {
            for (std::size_t j = 0; j < n; ++j) {
                sum += c.weight_hh(row, j) * h[j];
            }
        } else {
            for (std::size_t j = 0; j < x.size(); ++j) {
                sum += c.weight_ih(row, j) * x[j];
            }
        }
        return sum;
    };
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        double r = sigmoid(gate(i, false) + gate(i, true));
        double z = sigmoid(gate(n + i, false) + gate(n + i, true));
        double cand = std::tanh(gate(2 * n + i, false) + r * gate(2 * n + i, true));
        out[i] = (1.0 - z) * cand + z * h[i];
    }
    return out;
}

} // namespace

// The Eigen cell computes in float (like the LibTorch training); the naive
// reference in double. Over 5 steps the two agree to 2e-6, float's resolution
// at these magnitudes (|h| < 1) after a few dozen roundings.
TEST_CASE("Eigen GRU equals the naive formula over several steps and columns",
          "[controller][gru]") {
    data::Controller c = test::sample_controller(24, 12, 99);
    controller::GruCell cell(c);
    const int columns = 7;
    std::mt19937_64 rng(5);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::MatrixXf h = Eigen::MatrixXf::Zero(24, columns);
    std::vector<std::vector<double>> ref(columns, std::vector<double>(24, 0.0));
    for (int step = 0; step < 5; ++step) {
        Eigen::MatrixXd x(12, columns);
        for (int col = 0; col < columns; ++col) {
            std::vector<double> xc(12);
            for (int f = 0; f < 12; ++f) {
                xc[f] = x(f, col) = normal(rng);
            }
            ref[col] = naive_step(c, xc, ref[col]);
        }
        cell.step(x, h);
        Eigen::VectorXd r = cell.head(h);
        for (int col = 0; col < columns; ++col) {
            double head = c.head_bias[0];
            for (int i = 0; i < 24; ++i) {
                CHECK(h(i, col) == Approx(ref[col][i]).margin(2e-6));
                head += c.head_weight(0, i) * ref[col][i];
            }
            CHECK(r(col) == Approx(head).margin(2e-5));
        }
    }
}

TEST_CASE("Eigen GRU head: the skip connection adds its linear read of the inputs",
          "[controller][gru]") {
    data::Controller c = test::sample_controller(8, 12, 7);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> normal(0.0, 1.0);
    c.head_input_weight = data::Matrix(1, 12, 0.0);
    for (double& v : c.head_input_weight.values) {
        v = normal(rng);
    }
    controller::GruCell with_skip(c);
    data::Controller plain = c;
    plain.head_input_weight = data::Matrix{};
    controller::GruCell without(plain);
    Eigen::MatrixXf h = Eigen::MatrixXf::Random(8, 3);
    Eigen::MatrixXd x(12, 3);
    for (Eigen::Index k = 0; k < x.size(); ++k) {
        x.data()[k] = normal(rng);
    }
    const Eigen::MatrixXd a = with_skip.heads(h, x);
    const Eigen::MatrixXd b = without.heads(h, x);
    CHECK(b == without.heads(h)); // no skip: the inputs do not enter
    for (Eigen::Index col = 0; col < 3; ++col) {
        double skip = 0.0;
        for (std::size_t f = 0; f < 12; ++f) {
            skip += c.head_input_weight(0, f) * x(static_cast<Eigen::Index>(f), col);
        }
        CHECK(a(0, col) - b(0, col) == Approx(skip).margin(1e-5));
    }
}
