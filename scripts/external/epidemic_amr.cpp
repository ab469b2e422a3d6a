// A second code that is not cellshift, for workload traces (scripts/external_traces.sh):
// a 2-D SIR reaction-diffusion solver with a two-level refinement cost model, the
// kind of adaptive-mesh code whose work follows moving fronts. Self-contained (no
// cellshift headers); build: g++ -O2 -std=c++17 epidemic_amr.cpp -o epidemic_amr.
//
// Model: I_t = D lap(I) + beta S I - gamma I, S_t = -beta S I on an nx x ny grid
// (explicit Euler, zero-flux walls). Epidemic waves start from a few random sparks,
// travel, collide and annihilate; new sparks appear at random (bursts of work).
// Cost of a coarse cell per step: 1, plus 3 where the infection is present
// (I > 1e-2: level 1, 4 subcells), plus 12 where the front is steep
// (|grad I| > 0.02: level 2, 16 subcells). One trace row per event: the cost of
// each slice (a group of columns along x), summed over y and over the event's steps.
//
// Usage: epidemic_amr SEED EVENTS SLICES > trace.csv
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: epidemic_amr SEED EVENTS SLICES > trace.csv\n");
        return 2;
    }
    const unsigned seed = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
    const int events = std::atoi(argv[2]);
    const int slices = std::atoi(argv[3]);
    const int nx = 3 * slices, ny = 96;
    const double D = 1.0, beta = 0.6, gamma = 0.25, dt = 0.2;
    const int steps_per_event = 20;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> S(nx * ny, 1.0), I(nx * ny, 0.0), next(nx * ny);
    auto at = [&](int x, int y) { return x * ny + y; };
    auto spark = [&] {
        const int cx = static_cast<int>(unit(rng) * nx), cy = static_cast<int>(unit(rng) * ny);
        for (int x = std::max(cx - 2, 0); x <= std::min(cx + 2, nx - 1); ++x)
            for (int y = std::max(cy - 2, 0); y <= std::min(cy + 2, ny - 1); ++y)
                I[at(x, y)] = 0.5 * S[at(x, y)];
    };
    for (int k = 0; k < 3; ++k)
        spark();
    // Susceptibles slowly return (waning immunity), so later sparks find fuel.
    const double waning = 0.002;
    for (int e = 0; e <= events; ++e) {
        std::vector<double> cost(slices, 0.0);
        for (int s = 0; s < steps_per_event; ++s) {
            for (int x = 0; x < nx; ++x) {
                for (int y = 0; y < ny; ++y) {
                    const double c = I[at(x, y)];
                    const double l = I[at(x > 0 ? x - 1 : x, y)] + I[at(x < nx - 1 ? x + 1 : x, y)] +
                                     I[at(x, y > 0 ? y - 1 : y)] + I[at(x, y < ny - 1 ? y + 1 : y)] -
                                     4.0 * c;
                    const double gx = 0.5 * (I[at(x < nx - 1 ? x + 1 : x, y)] -
                                             I[at(x > 0 ? x - 1 : x, y)]);
                    const double gy = 0.5 * (I[at(x, y < ny - 1 ? y + 1 : y)] -
                                             I[at(x, y > 0 ? y - 1 : y)]);
                    double work = 1.0;
                    if (c > 1e-2)
                        work += 3.0;
                    if (std::sqrt(gx * gx + gy * gy) > 0.02)
                        work += 12.0;
                    cost[x / 3] += work;
                    const double infect = beta * S[at(x, y)] * c;
                    next[at(x, y)] = c + dt * (D * l + infect - gamma * c);
                    S[at(x, y)] += dt * (-infect + waning * (1.0 - S[at(x, y)] - c));
                }
            }
            I.swap(next);
        }
        std::printf("%.6g", cost[0]);
        for (int k = 1; k < slices; ++k)
            std::printf(",%.6g", cost[k]);
        std::printf("\n");
        if (unit(rng) < 0.1)
            spark(); // a new outbreak somewhere
    }
    return 0;
}
