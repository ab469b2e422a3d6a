#!/usr/bin/env bash
# The learned controller against the best causal baseline, cell by cell (issue 22's
# bars 1 and 2). A benchmark: it prints figures and writes out/bars/bars.md; it
# asserts nothing.
#
#   1. Sweeps, on TRAINING seeds of every family (P = 2..64): each parametric causal
#      policy's grid at each mu; the point with the lowest mean runtime is its tuned
#      setting at that mu.
#   2. Held-out generator scenarios (evaluation seeds), every family, P = 2..64, and
#      the held-out simulator traces (data/traces/evaluation, P = 4..32), at each mu:
#      every causal policy at its default and at its tuned setting, the controller,
#      and the clairvoyant oracle (the floor).
#   3. Stability: 100- and 400-event rollouts of the controller and holt (its base) at
#      P = 8..64 on 16 held-out scenarios of the broad family (bar 5): the imbalance
#      and migration per 100 events over events 1-100 and 101-400.
#   4. Per cell: the controller's runtime relative to static, the best causal
#      baseline's (the lowest of every default and tuned policy) and its name, the
#      margin (controller / best - 1; <= 0 meets the bar), the oracle.
#
#   5. out/bars/headline.md: the README's table (P = 16, the middle mu, every workload).
#   6. Bar 3: traces from codes other than cellshift (data/traces/external, made by
#      scripts/external_traces.sh; never trained or selected on), P = 4..32, each mu:
#      within 2% of the best causal baseline and never above static.
#
#   scripts/controller_bars.sh [--build DIR] [--out DIR] [--count N] [--sweep-count N]
#                              [--events N] [--mu LIST] [--controller FILE] [--tables-only]
#                              [--keep-sweeps] (reuse OUT/sweeps of an earlier run)
#                              [--keep-baselines] (reuse the sweeps and the tuned baselines'
#                              cells of an earlier run of the same size: neither depends on
#                              the controller; a new controller file needs only its own runs;
#                              OUT/size records the size, and another size is refused)
#                              [--external-only] (only the bar-3 cells, then the tables)
#                              [--traces-only] (only the trace cells of bars 2 and 3, then
#                              the tables; the generator cells and sweeps are reused)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out="$root/out/bars"
count=64
sweep_count=8
events=100
mus="0.0075 0.1 1"
controller="$root/data/controllers/default.h5"
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --count) count=$2; shift 2 ;;
        --sweep-count) sweep_count=$2; shift 2 ;;
        --events) events=$2; shift 2 ;;
        --mu) mus=${2//,/ }; shift 2 ;;
        --controller) controller=$2; shift 2 ;;
        --tables-only) tables_only=1; shift ;;
        --keep-sweeps) keep_sweeps=1; shift ;;
        --keep-baselines) keep_baselines=1; keep_sweeps=1; shift ;;
        --external-only) external_only=1; keep_sweeps=1; shift ;;
        --traces-only) traces_only=1; keep_sweeps=1; shift ;;
        -h|--help) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "controller_bars.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
E="$build/eval/cellshift-eval"
[[ -x $E ]] || { echo "controller_bars.sh: build first (missing $E)" >&2; exit 1; }
[[ -f $controller ]] || { echo "controller_bars.sh: no controller file $controller" >&2; exit 1; }
families="paper broad front point shift colonies" # scenarios::family_names()
defaults="static,reactive,reactive-max,persistence,holt,lazy-holt,seam,hoomd,lammps-shift,rnn,oracle"
# The sweep grid of every parametric causal policy (persistence and static have none).
declare -A grid=(
    [holt]="--grid level_alpha=0.2,0.4,0.6,0.8,1 --grid trend_beta=0,0.1,0.3,0.6"
    [lazy-holt]="--grid level_alpha=0.4,0.6,1 --grid trend_beta=0,0.3 --grid threshold=-1,0,0.05,0.2 --grid hysteresis=0,1,2,4"
    [reactive]="--grid alpha=0.3,0.45,0.6,0.9 --grid tau=0.01,0.02,0.05,0.1 --grid ds_max_fraction=0.05,0.25,1"
    [reactive-max]="--grid alpha=0.45,0.9 --grid tau=0.02,0.05 --grid focus=0,0.5"
    [seam]="--grid rho=0.02,0.05,0.1,0.2 --grid delta=1,2,4"
    [hoomd]="--grid tolerance=1.01,1.05,1.1 --grid max_change=0.002,0.02,0.1,0.3"
    [lammps-shift]="--grid threshold=1.01,1.05,1.1,1.2 --grid stop=1.01,1.05"
)
all_families=${families// /,}
# --tables-only redraws bars.md and headline.md from the outputs already in OUT.
if [[ -z ${tables_only:-} ]]; then
mkdir -p "$out"
# What is reused must be of the same size: the sweeps' and cells' counts and events.
size="count=$count sweep_count=$sweep_count events=$events"
if [[ -n ${keep_sweeps:-} && -f $out/size ]]; then
    [[ $(< "$out/size") == "$size" ]] || {
        echo "controller_bars.sh: $out holds a run of $(< "$out/size"), not $size; rerun without --keep-*" >&2
        exit 2
    }
elif [[ -n ${keep_sweeps:-} ]] && compgen -G "$out/sweeps/*" > /dev/null; then
    echo "controller_bars.sh: $out/size is missing (an older run): reusing its outputs as $size" >&2
fi
echo "$size" > "$out/size"
start=$SECONDS
for mu in $mus; do
    for policy in "${!grid[@]}"; do
        if [[ -n ${keep_sweeps:-} && -f $out/sweeps/mu$mu/$policy/sweep.csv ]]; then
            continue # the sweeps depend on the baselines only, not on the controller
        fi
        # shellcheck disable=SC2086 # the grid is a list of options
        "$E" sweep -q --policy "$policy" ${grid[$policy]} --ranks 2,4,8,16,32,64 \
            --count "$sweep_count" --families "$all_families" --migration-cost "$mu" \
            --out "$out/sweeps/mu$mu/$policy" > /dev/null
    done
    echo "[bars] mu $mu: sweeps done ($((SECONDS - start)) s)"
done
# The tuned point of a policy at one mu: "name=value name=value".
tuned() {
    /usr/bin/python3 - "$out/sweeps/mu$1/$2/sweep.csv" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
mean = collections.defaultdict(list)
for r in rows:
    mean[r["point"]].append(float(r["runtime_vs_static"]))
best = min(mean, key=lambda p: sum(mean[p]) / len(mean[p]))
print(" ".join(best[best.index("[") + 1:-1].split(",")))
PY
}
run_cell() { # mu, name, then the eval subcommand's data arguments
    local mu=$1 name=$2
    shift 2
    "$E" "$@" -q --policies "$defaults" --controller "$controller" --migration-cost "$mu" \
        --out "$out/mu$mu/$name/defaults" > /dev/null
    for policy in "${!grid[@]}"; do
        if [[ -n ${keep_baselines:-} ]] && compgen -G "$out/mu$mu/$name/tuned-$policy/*.csv" > /dev/null; then
            continue # a tuned baseline does not depend on the controller
        fi
        local params=()
        for kv in $(tuned "$mu" "$policy"); do params+=(--param "$policy.$kv"); done
        "$E" "$@" -q --policies "$policy" "${params[@]}" --migration-cost "$mu" \
            --out "$out/mu$mu/$name/tuned-$policy" > /dev/null
    done
}
for mu in $mus; do
    for trace in "$root"/data/traces/external/*.h5; do
        name=external-$(basename "$trace" .h5)
        run_cell "$mu" "$name" trace "$trace" --ranks 4,8,16,32 --w-min 1 --jitter 0.02
        echo "[bars] mu $mu, $name ($((SECONDS - start)) s)"
    done
    [[ -n ${external_only:-} ]] && continue
    for family in $families; do
        [[ -n ${traces_only:-} ]] && break
        run_cell "$mu" "$family" scenarios --family "$family" --count "$count" \
            --events "$events" --ranks 2,4,8,16,32,64
        echo "[bars] mu $mu, family $family ($((SECONDS - start)) s)"
    done
    for trace in "$root"/data/traces/evaluation/*.h5; do
        name=trace-$(basename "$trace" .h5)
        run_cell "$mu" "$name" trace "$trace" --ranks 4,8,16,32 --w-min 1 --jitter 0.02
        echo "[bars] mu $mu, $name ($((SECONDS - start)) s)"
    done
done
if [[ -z ${external_only:-}${traces_only:-} ]]; then
    for n in 100 400; do
        "$E" scenarios -q --family broad --count 16 --events "$n" --ranks 8,16,32,64 \
            --policies holt,rnn --controller "$controller" --out "$out/stability/e$n" > /dev/null
    done
    echo "[bars] stability rollouts ($((SECONDS - start)) s)"
fi
fi
/usr/bin/python3 - "$out" "$mus" "$controller" <<'PY'
import csv, glob, os, sys
out, mus, controller = sys.argv[1], sys.argv[2].split(), sys.argv[3]
def rows_of(folder):
    csvs = glob.glob(os.path.join(folder, "*.csv"))
    return list(csv.DictReader(open(csvs[0]))) if csvs else []
lines = ["# The learned controller against the best causal baseline", "",
         f"Controller: `{os.path.relpath(controller)}`. Each value: mean over scenarios of the "
         "modelled runtime / static's (lower is better). Best causal: the lowest of every "
         "registered causal policy at its default and at its tuned sweep point (`*`, chosen on "
         "training seeds at that mu). Margin: controller / best - 1 (<= 0 meets the bar).", ""]
met = total = 0
worst = []
for mu in mus:
    lines += [f"## mu = {mu}", "", "| workload | P | controller | best causal | margin | oracle |",
              "| --- | ---: | ---: | --- | ---: | ---: |"]
    for folder in sorted(glob.glob(os.path.join(out, f"mu{mu}", "*"))):
        name = os.path.basename(folder)
        val = {}
        for r in rows_of(os.path.join(folder, "defaults")):
            val[r["policy"], int(r["ranks"])] = float(r["runtime_vs_static"])
        for tuned in glob.glob(os.path.join(folder, "tuned-*")):
            for r in rows_of(tuned):
                val[r["policy"] + "*", int(r["ranks"])] = float(r["runtime_vs_static"])
        for P in sorted({p for _, p in val}):
            causal = {k: v for (k, p), v in val.items() if p == P and k not in ("rnn", "oracle")}
            best = min(causal, key=causal.get)
            rnn = val["rnn", P]
            margin = rnn / causal[best] - 1
            total += 1
            met += margin <= 0
            worst.append((margin, mu, name, P, best, rnn))
            lines.append(f"| {name} | {P} | {rnn:.4f} | {best} {causal[best]:.4f} | "
                         f"{100 * margin:+.2f}% | {val['oracle', P]:.4f} |")
    lines.append("")
# Stability: events 1-100 and 101-400 from the two time averages.
e1 = {(r["policy"], int(r["ranks"])): r for r in rows_of(os.path.join(out, "stability", "e100"))}
e4 = {(r["policy"], int(r["ranks"])): r for r in rows_of(os.path.join(out, "stability", "e400"))}
lines += ["## Stability: 400-event rollouts (broad family, 16 held-out scenarios)", "",
          "Imbalance (time average, %) and migrated slices per 100 events, over events 1-100 "
          "and 101-400.", "",
          "| P | policy | imbalance 1-100 | imbalance 101-400 | migration 1-100 | migration 101-400 |",
          "| ---: | --- | ---: | ---: | ---: | ---: |"]
for P in sorted({p for _, p in e4}):
    for pol in ("holt", "rnn"):
        a, b = e1[pol, P], e4[pol, P]
        g1, g4 = float(a["imbalance_pct"]), float(b["imbalance_pct"])
        m1, m4 = float(a["migrated_slices"]), float(b["migrated_slices"])
        lines.append(f"| {P} | {pol} | {g1:.2f} | {(400 * g4 - 100 * g1) / 300:.2f} | "
                     f"{m1:.1f} | {(m4 - m1) / 3:.1f} |")
lines.append("")
worst.sort(reverse=True)
external = [w for w in worst if w[2].startswith("external-")]
bar3 = [w for w in external if w[0] > 0.02 or w[5] > 1.0]
summary = [f"**{met} of {total} cells** at or below the best causal baseline."]
if external:
    summary.append(f"Bar 3 (codes other than cellshift): **{len(external) - len(bar3)} of "
                   f"{len(external)} cells** within 2% of the best causal baseline and at or "
                   "below static." + ("" if not bar3 else " Missed: " + "; ".join(
                       f"{n} P={P} mu={mu} {100 * m:+.2f}% vs {b}, {r:.4f} of static"
                       for m, mu, n, P, b, r in bar3[:8]) + "."))
if worst and worst[0][0] > 0:
    summary.append("Worst cells: " + "; ".join(
        f"{n} P={P} mu={mu} {100 * m:+.2f}% vs {b}" for m, mu, n, P, b, _ in worst[:8] if m > 0) + ".")
lines[4:4] = summary + [""]
open(os.path.join(out, "bars.md"), "w").write("\n".join(lines) + "\n")
# The README's headline: P = 16, the middle mu, every workload, the main policies.
mid = mus[len(mus) // 2]
cols = ["reactive", "persistence", "holt", "lammps-shift", "rnn", "oracle"]
head = [f"Runtime relative to static at P = 16, mu = {mid} (lower is better; `best tuned*`: "
        "the best causal policy at its sweep's best point)", "",
        "| workload | " + " | ".join(cols[:-2]) + " | best tuned* | rnn (default) | oracle |",
        "| --- |" + " ---: |" * (len(cols) + 1)]
for folder in sorted(glob.glob(os.path.join(out, f"mu{mid}", "*"))):
    val = {r["policy"]: float(r["runtime_vs_static"])
           for r in rows_of(os.path.join(folder, "defaults")) if int(r["ranks"]) == 16}
    tuned = {r["policy"] + "*": float(r["runtime_vs_static"])
             for t in glob.glob(os.path.join(folder, "tuned-*"))
             for r in rows_of(t) if int(r["ranks"]) == 16}
    if not val or not tuned:
        continue
    best = min(tuned, key=tuned.get)
    head.append(f"| {os.path.basename(folder)} | " +
                " | ".join(f"{val[c]:.3f}" for c in cols[:-2]) +
                f" | {tuned[best]:.3f} ({best[:-1]}) | {val['rnn']:.3f} | {val['oracle']:.3f} |")
open(os.path.join(out, "headline.md"), "w").write("\n".join(head) + "\n")
print("\n".join(summary))
print(f"wrote {os.path.join(out, 'bars.md')}")
PY
