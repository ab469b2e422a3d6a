#!/usr/bin/env bash
# rnn_stability.sh EVAL CONTROLLER OUTDIR [RANKS]
# Issue 4's 400-event stability rollout at the rank counts RANKS (comma-separated,
# default 8,16) where a shipped controller holds it (docs/research_log.md): on 20 held-out
# scenarios, the rnn's imbalance over events 101-400 (from the 100- and 400-event time
# averages) stays within 0.2 points of reactive's over the same events (or below it),
# and its migration there stays under half of reactive's rate. Deterministic
# evaluation, so the margins are exact, not statistical.
set -euo pipefail
# The paper's reactive rule, the baseline these research controllers were built against
# (the registry's reactive defaults are now tuned for runtime: docs/baselines.md).
paper_reactive="--param reactive.alpha=0.6 --param reactive.tau=0.15 --param reactive.ds_max_fraction=0.05"
eval_tool=$1; controller=$2; out=$3; ranks=${4:-8,16}
for events in 100 400; do
    "$eval_tool" scenarios -q --count 20 --events "$events" --ranks "$ranks" \
        --policies reactive,rnn --controller "$controller" \
        $paper_reactive --out "$out/e$events" >/dev/null
done
awk -F, -v ranks="$ranks" '
  FNR == 1 { ++file; next }
  { key = $1 " " $2; if (file == 1) { g1[key] = $5; m1[key] = $7 } else { g4[key] = $5; m4[key] = $7 } }
  END {
    ok = 1; line = ""
    n = split(ranks, r, ",")
    for (i = 1; i <= n; ++i) {
      p = r[i]
      if (!((p " rnn") in g4) || !((p " reactive") in g4)) { ok = 0; line = line "; P=" p " missing"; continue }
      # Events 101-400: imbalance from the two time averages, migration per 100 events.
      for (j = 1; j <= 2; ++j) {
        k = p " " (j == 1 ? "rnn" : "reactive")
        late[j] = (400 * g4[k] - 100 * g1[k]) / 300
        rate[j] = (m4[k] - m1[k]) / 3
      }
      met = (late[1] <= late[2] + 0.2) && (rate[1] <= rate[2] / 2)
      ok = ok && met
      line = line sprintf("; P=%s events 101-400 rnn %.2f%% / %.1f slices per 100, reactive %.2f%% / %.1f%s",
                          p, late[1], rate[1], late[2], rate[2], met ? "" : " (missed)")
    }
    printf "%s%s\n", ok ? "stable over 400 events" : "NOT stable over 400 events", line
    exit ok ? 0 : 1
  }' "$out/e100/scenarios.csv" "$out/e400/scenarios.csv"
