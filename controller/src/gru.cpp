#include "cellshift/controller/gru.hpp"

namespace cellshift::controller {
namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::MatrixXf to_eigen(const data::Matrix& m) {
    return Eigen::Map<const RowMajor>(m.values.data(), static_cast<Eigen::Index>(m.rows),
                                      static_cast<Eigen::Index>(m.cols))
        .cast<float>();
}

Eigen::VectorXf to_eigen(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()))
        .cast<float>();
}

} // namespace

GruCell::GruCell(const data::Controller& c)
    : w_ih_(to_eigen(c.weight_ih)), w_hh_(to_eigen(c.weight_hh)), b_ih_(to_eigen(c.bias_ih)),
      b_hh_(to_eigen(c.bias_hh)), head_w_(to_eigen(c.head_weight)), head_b_(to_eigen(c.head_bias)) {
    if (!c.head_input_weight.values.empty()) {
        head_x_ = to_eigen(c.head_input_weight);
    }
}

void GruCell::step(const Eigen::MatrixXd& x, Eigen::MatrixXf& h) const {
    const Eigen::Index n = hidden_size();
    xf_ = x.cast<float>();
    gi_.noalias() = w_ih_ * xf_;
    gi_.colwise() += b_ih_;
    gh_.noalias() = w_hh_ * h;
    gh_.colwise() += b_hh_;
    // Whole-block array expressions, so that Eigen vectorises exp and tanh (SIMD
    // on every x86-64), where std::exp/std::tanh would be a call per element.
    rz_ = (-(gi_.topRows(2 * n) + gh_.topRows(2 * n))).array().exp();
    rz_ = 1.0f / (1.0f + rz_);
    cand_ = gi_.bottomRows(n).array() + rz_.topRows(n) * gh_.bottomRows(n).array();
    cand_ = cand_.tanh(); // Eigen vectorises float tanh
    h.array() = (1.0f - rz_.bottomRows(n)) * cand_ + rz_.bottomRows(n) * h.array();
}

Eigen::MatrixXd GruCell::heads(const Eigen::MatrixXf& h) const {
    Eigen::MatrixXf r = head_w_ * h;
    r.colwise() += head_b_;
    return r.cast<double>();
}

Eigen::MatrixXd GruCell::heads(const Eigen::MatrixXf& h, const Eigen::MatrixXd& x) const {
    Eigen::MatrixXf r = head_w_ * h;
    if (head_x_.size() != 0) {
        r.noalias() += head_x_ * x.cast<float>();
    }
    r.colwise() += head_b_;
    return r.cast<double>();
}

Eigen::VectorXd GruCell::head(const Eigen::MatrixXf& h) const {
    return heads(h).row(0).transpose();
}

} // namespace cellshift::controller
