// A C++ consumer of the installed library: the policy registry by name.
#include <cellshift/controller/registry.hpp>

#include <iostream>

int main() {
    using namespace cellshift::controller;
    Layout layout{32, 4, 2};
    auto policy = make_policy("holt");
    policy->reset(layout, uniform_boundaries(layout));
    Observation o;
    o.slice_workload.assign(32, 1.0);
    for (int s = 0; s < 8; ++s) {
        o.slice_workload[s] = 5.0; // rank 0 is heavy
    }
    o.rank_times = rank_sums(o.slice_workload, policy->boundaries());
    const Boundaries& b = policy->decide(o);
    if (!(b[1] < 8)) {
        std::cerr << "holt did not shrink the heavy rank\n";
        return 1;
    }
    std::cout << "consumer_cpp: ok, " << policy_styles().size() << " policies registered\n";
    return 0;
}
