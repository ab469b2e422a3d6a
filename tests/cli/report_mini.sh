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
"$eval_tool" report --in "$out" > "$out.log"
page="$out/report/index.html"
figures=$(grep -o 'data:image/png;base64' "$page" | wc -l)
[[ $figures -ge 3 ]] || { echo "only $figures embedded figures"; exit 1; }
for part in "Controller level" "Imbalance over events" "Force kernels" "Not in this report" "end-to-end summary"; do
    grep -q "$part" "$page" || { echo "the page lacks '$part'"; exit 1; }
done
[[ -s "$out/report/report.md" && -s "$out/report/controller_table.csv" ]] || { echo "no Markdown or CSV"; exit 1; }
echo "report: $figures embedded figures, missing parts listed"
