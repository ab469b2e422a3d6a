#!/usr/bin/env bash
# The README's main command: set up, build, and run the main job.
#
#   scripts/main.sh [--count N] [--train STEPS] [--shipped] [--no-lambda-sweep]
#
# 1. scripts/setup.sh (Debian packages, build into build/)
# 2. train a small controller from scratch with the default controller's recipe
#    (data/configs/train_default.toml, --train STEPS, default 40; progress bar) into
#    out/train/default.h5 and show it; the evaluations below use the shipped
#    data/controllers/default.h5 (the README's figures); --shipped skips the training
# 3. controller-level evaluation on held-out scenarios, P = 2..32, every policy
#    (the trained rnn, the clairvoyant oracle, and rnn-zero, which must equal reactive)
# 4. the 400-event stability rollout at P = 16, and the reactive, seam and lazy-holt
#    parameter sweeps at P = 16 (their imbalance-vs-migration curves), and the
#    migration bound at P = 16 (the least imbalance any policy can have per budget)
# 5. the same table on the example workload trace (CSV -> HDF5 -> evaluation)
# 6. a short end-to-end run of the SEM simulator on 4 MPI ranks under static,
#    reactive and rnn (model clock), plus one on the measured clock
# 7. the rnn's lambda sweep (three small controllers at lambda 1e-4, 2e-3, 5e-2,
#    evaluated at P = 16; --no-lambda-sweep skips it), a short force-kernel
#    scaling benchmark, then the report (out/report/index.html)
# Outputs (CSV, Markdown, JSON, run records, snapshots) go to out/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
count=20
train=40
lambda_sweep=1
while [ $# -gt 0 ]; do
    case $1 in
        --count) count=$2; shift 2 ;;
        --train) train=$2; shift 2 ;;
        --shipped) train=0; shift ;;
        --no-lambda-sweep) lambda_sweep=0; shift ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "main.sh: error: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
E=build/eval/cellshift-eval

bash scripts/setup.sh
say "versions and devices"
$E --version
build/sim/cellshift-sim --version
[ -x build/trainer/cellshift-train ] && build/trainer/cellshift-train --build-info
build/sim/cellshift-sim devices

controller=data/controllers/default.h5
if [ "$train" -gt 0 ] && [ ! -x build/trainer/cellshift-train ]; then
    echo "main.sh: no trainer in this build (LibTorch off): using the shipped controller"
    train=0
fi
if [ "$train" -gt 0 ]; then
    say "training a small controller from scratch with the default recipe: $train steps"
    build/trainer/cellshift-train --config data/configs/train_default.toml --steps "$train" \
        --validate-every 10 --out out/train/default.h5
    $E inspect out/train/default.h5
fi

say "held-out scenarios: every policy, P = 2..32, $count scenarios x 100 events (rnn: $controller)"
$E scenarios --count "$count" --events 100 --ranks 2,4,8,16,32 --out out/eval \
    --json out/eval/scenarios.json --records --controller "$controller"

say "time to solution against the migration cost mu at P = 16 (docs/runtime.md)"
for mu in 0.001 0.01 0.1 1 10; do
    $E scenarios -q --count "$count" --events 100 --ranks 16 --migration-cost "$mu" \
        --policies static,reactive,persistence,holt,seam,lammps-shift,oracle --out "out/runtime_mu/mu$mu" \
        | awk -v mu="$mu" '/^  (static|reactive|holt|seam|oracle) / {printf "mu %-6s %-14s runtime/static %s\n", mu, $1, $2}'
done

say "a held-out simulator trace (data/traces/evaluation/e2e.h5, docs/traces.md)"
$E trace data/traces/evaluation/e2e.h5 --ranks 4,8,16,32 --jitter 0.02 --out out/sim_trace \
    --controller "$controller" | awk '/^P = /{print} /^  (static|reactive|holt|oracle|rnn) /{print}'

say "stability: 400-event rollouts at P = 16"
$E scenarios --count 5 --events 400 --ranks 16 --out out/stability -q --controller "$controller"

say "parameter sweeps at P = 16: reactive (alpha x tau), seam (rho x delta), lazy-holt (smoothing x threshold in slices)"
$E sweep -q --policy reactive --grid alpha=0.1,0.2,0.4,0.6,1.0,1.5 --grid tau=0.05,0.1,0.15,0.3 \
    --ranks 16 --events 100 --count "$count" --seeds evaluation --out out/sweep/reactive | tail -1
$E sweep -q --policy seam --grid rho=0.05,0.1,0.2,0.4 --grid delta=1,2,4 \
    --ranks 16 --events 100 --count "$count" --seeds evaluation --out out/sweep/seam | tail -1
$E sweep -q --policy lazy-holt --grid level_alpha=0.1,0.15 --grid threshold=0 \
    --grid threshold_slices=1,1.5,2,2.5,3,4 --grid step=1 \
    --ranks 16 --events 100 --count "$count" --seeds evaluation --out out/sweep/lazy-holt | tail -1

say "migration bound at P = 16: the least imbalance any policy can reach per migration budget"
$E bound -q --ranks 16 --count "$count" --fractions 0,0.05,0.1,0.2,0.3,0.5,1,2 --out out/bound \
    | tail -1

say "a user trace: data/examples/spreading_cluster.csv"
$E convert-trace data/examples/spreading_cluster.csv out/spreading_cluster.h5 \
    --source "data/examples/spreading_cluster.csv"
$E inspect out/spreading_cluster.h5
$E trace out/spreading_cluster.h5 --ranks 2,4 --out out/trace --controller "$controller"

# The strongest forecast baselines run too, so the headline shows whether one beats rnn here.
say "end to end: the SEM simulator on 4 MPI ranks, 1500 steps, static / reactive / forecasts / rnn"
bash scripts/e2e.sh --ranks 4 --steps 1500 \
    --policies "static reactive persistence holt lammps-shift rnn" --out out/e2e \
    --controller "$controller"

say "force kernels: element-steps/s against N (short benchmark)"
mkdir -p out/bench
build/sim/cellshift-bench-sem --section scaling --max-n 3e4 --repeats 1 > out/bench/sem_scaling.jsonl
grep -c '"elements"' out/bench/sem_scaling.jsonl | sed 's/$/ scaling points in out\/bench\/sem_scaling.jsonl/'
# Beside LAMMPS' morse and morse/opt at 32,000 atoms, one thread each (skipped without lmp).
build/sim/cellshift-bench-sem --section lammps --max-n 3.3e4 --repeats 1 > out/bench/sem_lammps.jsonl
grep '"lammps"' out/bench/sem_lammps.jsonl | head -1

if [ "$lambda_sweep" = 1 ] && [ -x build/trainer/cellshift-train ]; then
    say "the rnn's lambda sweep (scripts/lambda_sweep.sh)"
    bash scripts/lambda_sweep.sh --count "$count" --steps 150 \
        --lambdas "0.0001 0.002 0.05"
fi

say "the report"
# Each input is named: the report reads what each folder's manifest.json says it holds.
report_inputs=(--scenarios out/eval --bound out/bound --e2e out/e2e --tissue out/e2e/tissue
               --bench out/bench/sem_scaling.jsonl --bench out/bench/sem_lammps.jsonl)
for mu in 0.001 0.01 0.1 1 10; do report_inputs+=(--runtime-mu "out/runtime_mu/mu$mu"); done
for policy in reactive seam lazy-holt; do report_inputs+=(--sweep "out/sweep/$policy"); done
for dir in out/lambda/lambda_*/; do
    [ -f "$dir/manifest.json" ] && report_inputs+=(--lambda "$dir")
done
$E report --out out/report "${report_inputs[@]}"

say "headline: held-out scenarios at P = 16 (controller level) and the end-to-end runs"
awk '/^### P = 16/{on=1} /^### P/&&!/P = 16/{on=0} on' out/eval/scenarios.md
echo
cat out/e2e/runs.md

say "done"
echo "report: out/report/index.html (and report.md, CSV, figures/)"
echo "tables: out/eval/scenarios.md, out/stability/scenarios.md, out/trace/trace.md"
echo "end to end: out/e2e/runs.md; tissue: out/e2e/tissue/tissue.xdmf (ParaView, coloured by rank)"
echo "run records: out/eval/runs/ (cellshift-eval inspect FILE, h5dump -H FILE)"
