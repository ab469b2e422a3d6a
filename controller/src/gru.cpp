#include "cellshift/controller/gru.hpp"

namespace cellshift::controller {
namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::MatrixXd to_eigen(const data::Matrix& m) {
    return Eigen::Map<const RowMajor>(m.values.data(), static_cast<Eigen::Index>(m.rows),
                                      static_cast<Eigen::Index>(m.cols));
}

Eigen::VectorXd to_eigen(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

} // namespace

GruCell::GruCell(const data::Controller& c)
    : w_ih_(to_eigen(c.weight_ih)), w_hh_(to_eigen(c.weight_hh)), b_ih_(to_eigen(c.bias_ih)),
      b_hh_(to_eigen(c.bias_hh)), head_w_(to_eigen(c.head_weight)), head_b_(c.head_bias.at(0)) {}

void GruCell::step(const Eigen::MatrixXd& x, Eigen::MatrixXd& h) const {
    const Eigen::Index n = hidden_size();
    gi_.noalias() = w_ih_ * x;
    gi_.colwise() += b_ih_;
    gh_.noalias() = w_hh_ * h;
    gh_.colwise() += b_hh_;
    auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    // Fused per-element gate update, column by column (cache friendly: col-major).
    for (Eigen::Index col = 0; col < h.cols(); ++col) {
        for (Eigen::Index i = 0; i < n; ++i) {
            double r = sigmoid(gi_(i, col) + gh_(i, col));
            double z = sigmoid(gi_(n + i, col) + gh_(n + i, col));
            double cand = std::tanh(gi_(2 * n + i, col) + r * gh_(2 * n + i, col));
            h(i, col) = (1.0 - z) * cand + z * h(i, col);
        }
    }
}

Eigen::VectorXd GruCell::head(const Eigen::MatrixXd& h) const {
    Eigen::VectorXd r = (head_w_ * h).transpose();
    r.array() += head_b_;
    return r;
}

} // namespace cellshift::controller
