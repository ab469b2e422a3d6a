#!/usr/bin/env bash
# The rnn's imbalance-vs-migration curve: controllers trained at several
# migration weights lambda, each evaluated on the held-out scenarios at P = 16;
# the report draws them with the baselines. Usage:
#   scripts/lambda_sweep.sh [--steps N] [--count N] [--lambdas "a b c"] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
steps=150
count=20
lambdas="0.0001 0.0005 0.002 0.01 0.05"
out="$root/out/lambda"
while [[ $# -gt 0 ]]; do
    case $1 in
        --steps) steps=$2; shift 2 ;;
        --count) count=$2; shift 2 ;;
        --lambdas) lambdas=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        *) echo "lambda_sweep.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
train="$root/build/trainer/cellshift-train"
eval_tool="$root/build/eval/cellshift-eval"
[[ -x $train ]] || { echo "lambda_sweep.sh: no trainer in build/ (LibTorch off?)" >&2; exit 1; }
mkdir -p "$out"
for lambda in $lambdas; do
    echo "[lambda] $lambda: training $steps steps"
    "$train" -q --steps "$steps" --lambda "$lambda" --out "$out/lambda_$lambda/gru24.h5" > /dev/null
    "$eval_tool" scenarios -q --policies rnn --controller "$out/lambda_$lambda/gru24.h5" \
        --ranks 16 --count "$count" --events 100 --out "$out/lambda_$lambda" > /dev/null
    tail -1 "$out/lambda_$lambda/scenarios.csv"
done
