#pragma once
// One GRU cell with PyTorch's GRUCell layout and formula, in Eigen, batched over
// boundaries (one column per boundary):
//   r  = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
//   z  = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
//   n  = tanh(W_in x + b_in + r * (W_hn h + b_hn))
//   h' = (1 - z) * n + z * h
// Gate blocks are stacked r, z, n in weight_ih [3H, F] and weight_hh [3H, H].
// A linear head maps h' to the scalar residual r = w . h' + b.

#include "cellshift/data/controller_file.hpp"

#include <Eigen/Core>

namespace cellshift::controller {

class GruCell {
public:
    explicit GruCell(const data::Controller& weights);

    Eigen::Index hidden_size() const { return w_hh_.cols(); }
    Eigen::Index input_size() const { return w_ih_.cols(); }

    // x: [F, B] inputs, h: [H, B] hidden states, updated in place.
    void step(const Eigen::MatrixXd& x, Eigen::MatrixXd& h) const;
    // The head's residual per column of h: [B].
    Eigen::VectorXd head(const Eigen::MatrixXd& h) const;

private:
    Eigen::MatrixXd w_ih_, w_hh_;
    Eigen::VectorXd b_ih_, b_hh_;
    Eigen::RowVectorXd head_w_;
    double head_b_ = 0.0;
    // Work buffers, reused between steps (the policy is used by one thread).
    mutable Eigen::MatrixXd gi_, gh_;
};

} // namespace cellshift::controller
