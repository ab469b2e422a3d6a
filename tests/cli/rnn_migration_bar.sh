#!/usr/bin/env bash
# rnn_migration_bar.sh EVAL CONTROLLER OUTDIR
# Issue 4's migration bar where the shipped low-migration controller meets it
# (docs/training.md): on 64 held-out scenarios x 100 events at P = 8, imbalance
# within 0.2 points of the tuned reactive rule (or below it) with at most a fifth
# of its migrated slices; at P = 2 and 4 never more imbalance than static.
# Deterministic evaluation, so the margins are exact, not statistical.
set -euo pipefail
eval_tool=$1; controller=$2; out=$3
"$eval_tool" scenarios -q --count 64 --events 100 --ranks 2,4,8 \
    --policies static,reactive,rnn --controller "$controller" --out "$out" >/dev/null
awk -F, 'NR > 1 { g[$1 " " $2] = $3; m[$1 " " $2] = $5 }
  END {
    ok = (g["8 rnn"] <= g["8 reactive"] + 0.2) && (m["8 rnn"] <= m["8 reactive"] / 5) &&
         (g["8 rnn"] <= g["8 static"]) &&
         (g["2 rnn"] <= g["2 static"]) && (g["4 rnn"] <= g["4 static"])
    printf "%s: P=8 rnn %.2f%% / %.1f slices, reactive %.2f%% / %.1f; P=2 rnn %.2f%% static %.2f%%; P=4 rnn %.2f%% static %.2f%%\n",
           ok ? "migration bar met" : "migration bar NOT met",
           g["8 rnn"], m["8 rnn"], g["8 reactive"], m["8 reactive"],
           g["2 rnn"], g["2 static"], g["4 rnn"], g["4 static"]
    exit ok ? 0 : 1
  }' "$out/scenarios.csv"
