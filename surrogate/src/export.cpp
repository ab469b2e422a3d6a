#include "cellshift/surrogate/export.hpp"

#include "cellshift/controller/features.hpp"

#include <stdexcept>

namespace cellshift::surrogate {
namespace {

data::Matrix to_matrix(const torch::Tensor& t) {
    torch::Tensor c = t.detach().to(torch::kFloat64).contiguous();
    data::Matrix m(static_cast<std::size_t>(c.size(0)), static_cast<std::size_t>(c.size(1)));
    std::copy(c.data_ptr<double>(), c.data_ptr<double>() + c.numel(), m.values.begin());
    return m;
}

std::vector<double> to_vector(const torch::Tensor& t) {
    torch::Tensor c = t.detach().to(torch::kFloat64).contiguous();
    return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

void copy_into(torch::Tensor& dst, const std::vector<double>& values, const char* name) {
    if (static_cast<std::int64_t>(values.size()) != dst.numel()) {
        throw std::invalid_argument(std::string("controller weights '") + name +
                                    "' do not match the model's size");
    }
    torch::Tensor src = torch::tensor(values, torch::kFloat64).view(dst.sizes());
    dst.copy_(src.to(dst.dtype()));
}

} // namespace

data::Controller to_controller(ResidualGru& model, const controller::ReactiveParams& params,
                               const data::TrainingProvenance& provenance) {
    data::Controller c;
    const auto f = static_cast<std::size_t>(model->feature_count);
    c.feature_names = controller::feature_names(f);
    c.clamp_min = controller::feature_clamp_min(f);
    c.clamp_max = controller::feature_clamp_max(f);
    c.alpha = params.alpha;
    c.tau = params.tau;
    c.ds_max_fraction = params.ds_max_fraction;
    c.base = model->base.forecast ? data::kForecastBase : data::kReactiveBase;
    c.forecast_level_alpha = model->base.level_alpha;
    c.forecast_trend_beta = model->base.trend_beta;
    c.weight_ih = to_matrix(model->cell->weight_ih);
    c.weight_hh = to_matrix(model->cell->weight_hh);
    c.bias_ih = to_vector(model->cell->bias_ih);
    c.bias_hh = to_vector(model->cell->bias_hh);
    c.head_weight = to_matrix(model->head->weight);
    c.head_bias = to_vector(model->head->bias);
    c.training = provenance;
    return c;
}

void load_weights(ResidualGru& model, const data::Controller& c) {
    torch::NoGradGuard no_grad;
    copy_into(model->cell->weight_ih, c.weight_ih.values, "gru/weight_ih");
    copy_into(model->cell->weight_hh, c.weight_hh.values, "gru/weight_hh");
    copy_into(model->cell->bias_ih, c.bias_ih, "gru/bias_ih");
    copy_into(model->cell->bias_hh, c.bias_hh, "gru/bias_hh");
    copy_into(model->head->weight, c.head_weight.values, "head/weight");
    copy_into(model->head->bias, c.head_bias, "head/bias");
}

} // namespace cellshift::surrogate
