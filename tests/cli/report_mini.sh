#!/usr/bin/env bash
# A report from a small controller-level evaluation: the HTML page embeds its
# figures (no external files), and the parts whose inputs are missing are
# listed as missing, not faked. Usage: report_mini.sh EVAL OUT_DIR
set -euo pipefail
eval_tool=$1; out=$2
rm -rf "$out"
"$eval_tool" scenarios -q --count 2 --events 10 --ranks 4,16 --records --out "$out/eval" > /dev/null
# Benchmark lines as cellshift-bench-sem prints them, fit and ratio rows included.
mkdir -p "$out/bench"
cat > "$out/bench/sem_scaling.jsonl" <<'JSON'
{"section": "machine", "openmp_threads": 2, "cuda": "no CUDA device"}
{"section": "scaling", "backend": "cpu-binned", "elements": 864, "threads": 2, "seconds_per_step": 0.0005, "element_steps_per_s": 1.6e+06, "interactions_per_element": 40.0}
{"section": "scaling", "backend": "cpu-binned", "elements": 4000, "threads": 2, "seconds_per_step": 0.0028, "element_steps_per_s": 1.4e+06, "interactions_per_element": 45.2}
{"section": "scaling", "backend": "cpu-binned", "fitted_exponent": 1.1, "fit_range": [864, 4000]}
{"section": "scaling", "ratio": "cpu-binned speed / cpu-allpairs speed", "elements": 4000, "value": 20.9}
JSON
"$eval_tool" report --out "$out/report" --scenarios "$out/eval" \
    --bench "$out/bench/sem_scaling.jsonl" > "$out.log"
page="$out/report/index.html"
figures=$(grep -o 'data:image/png;base64' "$page" | wc -l)
[[ $figures -ge 3 ]] || { echo "only $figures embedded figures"; exit 1; }
for part in "Controller level" "Imbalance over events" "Force kernels" "Not in this report" "end-to-end summary"; do
    grep -q "$part" "$page" || { echo "the page lacks '$part'"; exit 1; }
done
[[ -s "$out/report/report.md" && -s "$out/report/controller_table.csv" ]] || { echo "no Markdown or CSV"; exit 1; }
# The scenarios folder's manifest lists what the command wrote: every run record
# (2 ranks x the default policies) exists, and the options it ran with.
/usr/bin/python3 - "$out/eval" <<'PY' || exit 1
import json, os, sys
folder = sys.argv[1]
m = json.load(open(os.path.join(folder, "manifest.json")))
assert m["format"] == "cellshift.manifest" and m["command"] == "scenarios", m
records = m["files"]["records"]
policies = m["options"]["policies"][0].split(",")
assert len(records) == 2 * len(policies), (len(records), policies)
assert all(os.path.isfile(os.path.join(folder, r)) for r in records), records
assert m["options"]["ranks"] == ["4", "16"] and m["options"]["events"] == ["10"], m["options"]
PY
# An input is what its manifest says: a scenarios folder given as a sweep, or a
# folder without a manifest, is one line and exit 1, with no report written.
if "$eval_tool" report --out "$out/bad" --sweep "$out/eval" 2> "$out.err"; then
    echo "a scenarios folder was accepted as --sweep"; exit 1
fi
grep -q "manifest.json: written by cellshift-eval scenarios, expected sweep" "$out.err" ||
    { echo "unexpected error: $(cat "$out.err")"; exit 1; }
if "$eval_tool" report --out "$out/bad" --bound "$out/bench" 2> "$out.err"; then
    echo "a folder without a manifest was accepted"; exit 1
fi
grep -q "bench/manifest.json: missing" "$out.err" || { echo "unexpected error: $(cat "$out.err")"; exit 1; }
[[ ! -e "$out/bad" ]] || { echo "a refused report left $out/bad behind"; exit 1; }
echo "report: $figures embedded figures, missing parts listed"
