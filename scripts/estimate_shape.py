#!/usr/bin/python3
"""How well a trace's live estimate predicts the next interval's modelled cost (issue 22).

For each trace that carries an estimate (`cellshift-sim run --trace-out`), prints
  - slope: the fitted slope of log cost against log estimate over every slice and event
    (1 if the estimate were proportional to the cost);
  - shape error: the mean over events of the largest gap between the cumulative load
    shares of estimate(t)^gamma and cost(t + 1), for gamma = 1 and each --gamma;
  - bottleneck: the mean over events of the heaviest rank's cost(t + 1), over the mean
    rank's, when the slices are cut at the equal-load points of estimate(t)^gamma, and of
    the true cost(t) (a perfect estimate of the last interval), at P = 8, 16, 32.
A research benchmark: it asserts nothing. By default it reads the training and
validation traces only (the held-out ones are for the final tables).

  scripts/estimate_shape.py [--gamma 0.77] [TRACE.h5 ...]
"""
import argparse
import glob
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # the Debian packages scripts/setup.sh installs
    sys.exit(f"estimate_shape.py: {e.name} is missing (apt install python3-h5py python3-numpy)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shares(load):
    return np.cumsum(load) / load.sum()


def equal_load_cuts(load, ranks):
    """Whole-slice cuts nearest above each k / P share of the load."""
    c = shares(load)
    return [0] + [int(np.searchsorted(c, k / ranks)) + 1 for k in range(1, ranks)] + [len(load)]


def bottleneck(cuts, cost):
    ranks = len(cuts) - 1
    return max(cost[cuts[i]:cuts[i + 1]].sum() for i in range(ranks)) / (cost.sum() / ranks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("traces", nargs="*", help="trace files (default: training and validation)")
    parser.add_argument("--gamma", type=float, action="append",
                        help="exponent(s) to compare with 1 (default 0.77)")
    a = parser.parse_args()
    gammas = [1.0] + (a.gamma or [0.77])
    paths = a.traces or sorted(glob.glob(f"{ROOT}/data/traces/train/*.h5") +
                               glob.glob(f"{ROOT}/data/traces/validation/*.h5"))
    header = ("trace | slope | shape error, gamma " + " / ".join(map(str, gammas)) +
              " | bottleneck P = 8, 16, 32: gamma " + " / ".join(map(str, gammas)) +
              " / last cost")
    for path in paths:
        try:
            with h5py.File(path, "r") as f:
                if "estimate" not in f:
                    print(f"{os.path.basename(path)} | no estimate")
                    continue
                estimate, cost = f["estimate"][:], f["workload"][:]
        except (OSError, KeyError) as e:
            sys.exit(f"estimate_shape.py: {path}: not a readable trace ({e})")
        if estimate.shape != cost.shape or len(cost) < 2:
            sys.exit(f"estimate_shape.py: {path}: estimate and workload differ in shape or "
                     "hold fewer than 2 events")
        if header:  # after the first file read, so a bad first file prints nothing else
            print(header)
            header = None
        both = (estimate > 0) & (cost > 0)
        slope = np.polyfit(np.log(estimate[both]), np.log(cost[both]), 1)[0]
        events = range(len(cost) - 1)
        shape = [np.mean([np.abs(shares(estimate[t] ** g) - shares(cost[t + 1])).max()
                          for t in events]) for g in gammas]
        bottlenecks = []
        for ranks in (8, 16, 32):
            row = [np.mean([bottleneck(equal_load_cuts(estimate[t] ** g, ranks), cost[t + 1])
                            for t in events]) for g in gammas]
            row.append(np.mean([bottleneck(equal_load_cuts(cost[t], ranks), cost[t + 1])
                                for t in events]))
            bottlenecks.append(" / ".join(f"{b:.3f}" for b in row))
        print(f"{os.path.basename(path)} | {slope:.2f} | " +
              " / ".join(f"{s:.4f}" for s in shape) + " | " + ", ".join(bottlenecks))


if __name__ == "__main__":
    main()
