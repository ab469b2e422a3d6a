#pragma once
// One GRU cell with PyTorch's GRUCell layout and formula, in Eigen, batched over
// boundaries (one column per boundary):
//   r  = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
//   z  = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
//   n  = tanh(W_in x + b_in + r * (W_hn h + b_hn))
//   h' = (1 - z) * n + z * h
// Gate blocks are stacked r, z, n in weight_ih [3H, F] and weight_hh [3H, H].
// A linear head maps h' to O outputs W h' + b: O = 1 (the reactive base's
// residual) or 2 (the forecast base's gain and correction).
//
// The arithmetic is single precision, like the LibTorch training: twice the SIMD
// width of double, and the step is GEMM-bound (2,592 multiply-adds per boundary).
// Inputs and outputs stay double; the hidden state is kept in float.

#include "cellshift/data/controller_file.hpp"

#include <Eigen/Core>

namespace cellshift::controller {

class GruCell {
public:
    explicit GruCell(const data::Controller& weights);

    Eigen::Index hidden_size() const { return w_hh_.cols(); }
    Eigen::Index input_size() const { return w_ih_.cols(); }

    // x: [F, B] inputs, h: [H, B] hidden states, updated in place.
    void step(const Eigen::MatrixXd& x, Eigen::MatrixXf& h) const;
    // The head's outputs per column of h: [O, B].
    Eigen::MatrixXd heads(const Eigen::MatrixXf& h) const;
    // The same plus the head's linear read of the inputs x [F, B] (the file's
    // head/input_weight; nothing when the file has none).
    Eigen::MatrixXd heads(const Eigen::MatrixXf& h, const Eigen::MatrixXd& x) const;
    // Its first output per column of h: [B] (the reactive base's residual).
    Eigen::VectorXd head(const Eigen::MatrixXf& h) const;

private:
    Eigen::MatrixXf w_ih_, w_hh_;
    Eigen::VectorXf b_ih_, b_hh_;
    Eigen::MatrixXf head_w_; // [O, H]
    Eigen::VectorXf head_b_; // [O]
    Eigen::MatrixXf head_x_; // [O, F], or empty
    // Work buffers, reused between steps (the policy is used by one thread).
    mutable Eigen::MatrixXf xf_, gi_, gh_;
    mutable Eigen::ArrayXXf rz_, cand_;
};

} // namespace cellshift::controller
