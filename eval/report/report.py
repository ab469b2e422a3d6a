#!/usr/bin/python3
"""cellshift report: one self-contained HTML page (plus Markdown and CSV beside it)
from explicit inputs: the controller table per rank count, imbalance over events,
per-rank time curves, the imbalance-vs-migration trade-off, runtime against the
migration cost, the force-kernel scaling, the end-to-end summary and the grown
tissue coloured by owning rank. Plots are matplotlib reading the HDF5 files with h5py.

Every input is a folder a cellshift-eval command wrote with --out: its manifest.json
says which command wrote it, with which options, and which file plays which role,
so nothing here depends on a folder layout (the main job's call is in
scripts/main.sh). Benchmark inputs are cellshift-bench-sem's JSON lines.

Usage: report.py --out DIR [--scenarios DIR] [--runtime-mu DIR ...] [--sweep DIR ...]
                 [--lambda DIR ...] [--bound DIR] [--e2e DIR] [--tissue DIR]
                 [--bench FILE ...] [--machine TEXT]
Every part is optional: a part whose inputs are missing is listed as missing.
"""
import argparse
import base64
import csv
import glob
import html
import io
import json
import os
import platform
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

CORE = ["static", "reactive", "rnn"]


def machine_line():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.node()}"


class Report:
    def __init__(self, out, machine):
        self.out = out
        self.machine = machine
        self.html = []
        self.md = []
        self.missing = []
        os.makedirs(os.path.join(out, "figures"), exist_ok=True)

    def section(self, title, text):
        self.html.append(f"<h2>{html.escape(title)}</h2>\n<p>{html.escape(text)}</p>")
        self.md.append(f"## {title}\n\n{text}\n")

    def figure(self, fig, name, caption):
        path = os.path.join(self.out, "figures", name + ".png")
        fig.savefig(path, dpi=110, bbox_inches="tight")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        data = base64.b64encode(buf.getvalue()).decode()
        self.html.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(name)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")
        self.md.append(f"![{name}](figures/{name}.png)\n\n*{caption}*\n")

    def table(self, header, rows, name):
        with open(os.path.join(self.out, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
        cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                       for r in rows)
        self.html.append(f'<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>'
                         f'<p class="note">CSV: {html.escape(name)}.csv</p>')
        self.md.append("| " + " | ".join(map(str, header)) + " |\n|" + " --- |" * len(header) +
                       "\n" + "".join("| " + " | ".join(map(str, r)) + " |\n" for r in rows))

    def lack(self, what, why):
        self.missing.append(f"{what}: {why}")

    def write(self, title):
        style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
                 "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #bbb;"
                 "padding:3px 8px;text-align:right}th{background:#eee}figure{margin:1em 0}"
                 "img{max-width:100%}figcaption{font-size:0.9em;color:#444}"
                 ".note{font-size:0.85em;color:#666}")
        missing = "".join(f"<li>{html.escape(m)}</li>" for m in self.missing)
        page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>"
                f"<style>{style}</style></head><body><h1>{title}</h1>"
                f"<p class='note'>Machine: {html.escape(self.machine)}</p>"
                + "\n".join(self.html)
                + (f"<h2>Not in this report</h2><ul>{missing}</ul>" if missing else "")
                + "</body></html>")
        tmp = os.path.join(self.out, ".index.html.tmp")
        with open(tmp, "w") as f:
            f.write(page)
        os.replace(tmp, os.path.join(self.out, "index.html"))
        md = f"# {title}\n\nMachine: {self.machine}\n\n" + "\n".join(self.md)
        if self.missing:
            md += "\n## Not in this report\n\n" + "".join(f"- {m}\n" for m in self.missing)
        with open(os.path.join(self.out, "report.md"), "w") as f:
            f.write(md)


class InputError(Exception):
    """A given input that is not what its option says: one line, exit 1."""


def manifest(folder, *commands):
    """The manifest.json of a cellshift-eval output folder, checked against the
    commands whose output the option expects."""
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: no such folder")
    path = os.path.join(folder, "manifest.json")
    if not os.path.exists(path):
        raise InputError(f"{path}: missing (a folder written by cellshift-eval "
                         f"{' or '.join(commands)} --out)")
    with open(path) as f:
        try:
            m = json.load(f)
        except json.JSONDecodeError as error:
            raise InputError(f"{path}: not JSON ({error.msg}, line {error.lineno})")
    if not isinstance(m, dict) or m.get("format") != "cellshift.manifest":
        raise InputError(f"{path}: not a cellshift manifest")
    if m.get("command") not in commands:
        raise InputError(f"{path}: written by cellshift-eval {m.get('command')}, expected "
                         f"{' or '.join(commands)}")
    m["folder"] = folder
    return m


def files(m, role):
    """The paths of a manifest's files in `role` (relative ones lie in its folder)."""
    return [os.path.join(m["folder"], p) for p in m.get("files", {}).get(role, [])]


def option(m, name):
    """The value a manifest's command ran with for option `name` (None: none)."""
    values = m.get("options", {}).get(name, [])
    return values[0] if values else None


def text_attr(f, name):
    v = f.attrs.get(name, "")
    return v.decode() if isinstance(v, bytes) else str(v)


def records_by_policy(paths, ranks=None):
    """policy -> run record path, the first of each policy (at `ranks` ranks, on the
    model or workload clock when both ran)."""
    out = {}
    for path in paths:
        with h5py.File(path, "r") as f:
            if ranks is not None and f["rank_time"].shape[1] != ranks:
                continue
            if text_attr(f, "clock") == "measured":
                continue
            out.setdefault(text_attr(f, "policy"), path)
    return out


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def controller_table(r, scenarios):
    if scenarios is None:
        return r.lack("controller table", "no --scenarios (cellshift-eval scenarios --out DIR)")
    rows = read_csv(files(scenarios, "table")[0])
    r.section("Controller level: held-out scenarios",
              "Every policy on the same held-out scenarios (evaluation seeds), per rank count P: "
              "mean global imbalance (max/mean - 1 of the noise-free rank times), migrated slices "
              "per 100-event rollout, events limited by w_min. Clock: workload (the scenario's "
              "per-slice cost).")
    # The paper's layout: one row per policy, imbalance % / migrated slices per P.
    ranks_seen = sorted({int(x["ranks"]) for x in rows})
    by = {(x["policy"], int(x["ranks"])): x for x in rows}
    policies_seen = list(dict.fromkeys(x["policy"] for x in rows))
    r.table(["policy"] + [f"P = {P}: imbalance % / migrated" for P in ranks_seen],
            [[p] + [(f'{float(by[p, P]["imbalance_pct"]):.2f} / '
                     f'{float(by[p, P]["migrated_slices"]):.1f}') if (p, P) in by else "-"
                    for P in ranks_seen] for p in policies_seen], "controller_table")
    # The trade-off: every policy's imbalance against its migration, one panel per P.
    ranks = sorted({int(x["ranks"]) for x in rows})
    policies = list(dict.fromkeys(x["policy"] for x in rows))
    colours = {p: plt.cm.tab10(k % 10) for k, p in enumerate(policies)}
    markers = {"rnn": "*", "rnn-zero": "x", "oracle": "D"}
    fig, axes = plt.subplots(1, len(ranks), figsize=(3.2 * len(ranks), 3.4), squeeze=False)
    for ax, P in zip(axes[0], ranks):
        for x in (x for x in rows if int(x["ranks"]) == P):
            m, i = float(x["migrated_slices"]), float(x["imbalance_pct"])
            ax.scatter([max(m, 0.5)], [i], s=60 if x["policy"] == "rnn" else 28,
                       marker=markers.get(x["policy"], "o"), color=colours[x["policy"]],
                       label=x["policy"])
        ax.set_xscale("log")
        ax.set_title(f"P = {P}")
        ax.set_xlabel("migrated slices per rollout")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8,
               bbox_to_anchor=(0.5, -0.08))
    axes[0][0].set_ylabel("mean imbalance [%]")
    fig.tight_layout()
    r.figure(fig, "tradeoff", "Imbalance against migration per policy and rank count "
             f"(controller level, workload clock; {r.machine}). Lower left is better; policies "
             "with no migration are drawn at 0.5.")


def rank_time_panels(records, suffix):
    """static / reactive / rnn side by side: each rank's time over the mean, per event
    (the paper's dynamic-balancing figure), from the run records {policy: path}."""
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4), sharey=True)
    for ax, name in zip(axes, CORE):
        path = records.get(name)
        if path is None:
            ax.set_title(f"{name}: missing")
            continue
        with h5py.File(path, "r") as f:
            t = f["rank_time"][:]
        ax.plot(t / t.mean(axis=1, keepdims=True), lw=0.9)
        ax.set_title(name + suffix)
        ax.set_xlabel("rebalancing event")
    axes[0].set_ylabel("rank time / mean rank time")
    return fig


def sweep_figure(r, scenarios, sweep_list, lambda_list, bound_m):
    """Every policy at P = 16 against the whole curves of the swept baselines."""
    sweeps = {option(m, "policy"): files(m, "table")[0] for m in sweep_list}
    if not sweeps or scenarios is None:
        return r.lack("baseline sweep curves",
                      "needs --sweep (cellshift-eval sweep --out DIR) and --scenarios")
    table = files(scenarios, "table")[0]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, (name, path) in enumerate(sorted(sweeps.items())):
        pts = [x for x in read_csv(path) if int(x["ranks"]) == 16]
        ax.scatter([max(float(x["migrated_slices"]), 0.5) for x in pts],
                   [float(x["imbalance_pct"]) for x in pts], s=16, alpha=0.7,
                   marker="v^s"[k % 3], color=["#f4a261", "#9575cd", "#2a9d8f"][k % 3],
                   label=f"{name} sweep ({len(pts)} settings)")
    rows = [x for x in read_csv(table) if int(x["ranks"]) == 16]
    for k, x in enumerate(rows):
        ax.scatter([max(float(x["migrated_slices"]), 0.5)], [float(x["imbalance_pct"])],
                   s=90 if x["policy"] == "rnn" else 35, color=plt.cm.tab10(k % 10),
                   marker="*" if x["policy"] == "rnn" else "o", label=x["policy"])
    lambdas = []
    for m in lambda_list:
        # The migration weight the controller was trained with, from its file.
        with h5py.File(option(m, "controller"), "r") as f:
            lam = float(f["training"].attrs["lambda"])
        for x in read_csv(files(m, "table")[0]):
            if int(x["ranks"]) == 16 and x["policy"] == "rnn":
                lambdas.append((lam, float(x["migrated_slices"]), float(x["imbalance_pct"])))
    if lambdas:
        lambdas.sort()
        # Points shaded from light (small lambda) to dark; the values are in the table
        # below the figure (labels on clustered points would overlap).
        ax.plot([max(m, 0.5) for _, m, _ in lambdas], [i for _, _, i in lambdas], "-",
                color="#17becf", alpha=0.5, label="rnn, lambda sweep (light to dark: small to large)")
        ax.scatter([max(m, 0.5) for _, m, _ in lambdas], [i for _, _, i in lambdas], s=30,
                   c=np.linspace(0.3, 1.0, len(lambdas)), cmap="GnBu", vmin=0, vmax=1,
                   edgecolor="#0e7c86", zorder=3)
    bound = files(bound_m, "table")[0] if bound_m is not None else None
    if bound is not None:
        pts = sorted((max(float(x["budget"]), 0.5), float(x["least_imbalance_pct"]))
                     for x in read_csv(bound) if int(x["ranks"]) == 16)
        if pts:
            # Below this line no policy can go, clairvoyant or not (cellshift-eval bound).
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            # More migration never helps past the floor: carry it to the right edge.
            right = 1.3 * max(ax.get_xlim()[1], xs[-1])
            xs.append(right)
            ys.append(ys[-1])
            ax.fill_between(xs, 0, ys, color="#bbbbbb", alpha=0.35, step="pre", zorder=0,
                            label="unreachable: least imbalance for that migration (bound)")
    ax.set_xscale("log")
    if bound is not None and pts:
        ax.set_xlim(right=right)
    ax.set_xlabel("migrated slices per 100-event rollout")
    ax.set_ylabel("mean imbalance [%]")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    r.section("Imbalance against migration at P = 16",
              "The default of every policy, and every setting of the swept baselines (reactive: "
              "alpha x tau; seam: rho x delta; lazy-holt: smoothing x threshold) on the same "
              "held-out scenarios, so the rnn is "
              "compared with the best each baseline can do; with scripts/lambda_sweep.sh, also "
              "rnn controllers trained at several migration weights lambda (labels). The grey area "
              "is out of reach of every policy, clairvoyant ones included: at each migration "
              "budget, the least imbalance any partition sequence within that budget can have "
              "(`cellshift-eval bound`).")
    r.figure(fig, "tradeoff_P16", "Imbalance-vs-migration trade-off at P = 16 (controller "
             f"level, workload clock; {r.machine}); lower left is better.")
    if lambdas:
        r.table(["lambda", "migrated slices", "imbalance %"],
                [[f"{lam:g}", f"{m:.1f}", f"{i:.2f}"] for lam, m, i in lambdas], "lambda_sweep")
    if not lambdas:
        r.lack("lambda sweep", "no --lambda (scripts/lambda_sweep.sh)")


def events_figures(r, scenarios):
    records = records_by_policy(files(scenarios, "records"), 16) if scenarios else {}
    if not records:
        return r.lack("imbalance over events",
                      "no P = 16 run records (cellshift-eval scenarios --records --out DIR)")
    # The paper's three plus the best forecast baseline and the clairvoyant bound:
    # all ten lines on one axis would hide each other.
    shown = CORE + ["holt", "oracle"]
    fig, ax = plt.subplots(figsize=(9, 3.6))
    for name, path in sorted(records.items()):
        with h5py.File(path, "r") as f:
            if name in shown:
                ax.plot(100 * f["imbalance"][:], label=name, lw=1.8 if name in CORE else 1.0,
                        color=plt.cm.tab10(shown.index(name)),
                        linestyle="--" if name == "rnn" else "-")  # rnn often traces reactive
    ax.set_xlabel("rebalancing event")
    ax.set_ylabel("global imbalance [%]")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    r.section("Imbalance over events", "One held-out scenario at P = 16: static, reactive, "
              "rnn, holt and the clairvoyant oracle (controller level, workload clock; every "
              "policy's run record is in the --scenarios folder's runs/).")
    r.figure(fig, "imbalance_over_events", f"Global imbalance per event, P = 16, one held-out "
             f"scenario (workload clock; {r.machine}).")
    fig = rank_time_panels(records, "")
    r.figure(fig, "rank_times", "Per-rank time relative to the mean, each line one of 16 ranks "
             f"(the paper's dynamic-balancing figure; workload clock; {r.machine}).")


def json_lines(path):
    """The records of a JSON-lines file (cellshift-bench-sem's output); other lines are skipped."""
    with open(path) as f:
        for line in f:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def bench_records(paths):
    """Every record of the --bench files (cellshift-bench-sem's JSON lines)."""
    for path in paths:
        if not os.path.isfile(path):
            raise InputError(f"{path}: no such file")
        yield from json_lines(path)


def scaling_figure(r, bench):
    curves = {}
    for x in bench_records(bench):
        # Throughput rows only (the fit and ratio rows have other keys).
        if x.get("section") == "scaling" and "backend" in x and "element_steps_per_s" in x:
            curves.setdefault(x["backend"], []).append((x["elements"], x["element_steps_per_s"]))
    if not curves:
        return r.lack("force-kernel scaling",
                      "no scaling rows in --bench (cellshift-bench-sem --section scaling)")
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, pts in sorted(curves.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("elements N")
    ax.set_ylabel("element-steps per second")
    ax.legend()
    r.section("Force kernels", "Element-steps per second of every backend against N on the fcc "
              "lattice of LAMMPS' bench deck (cellshift-bench-sem --section scaling).")
    r.figure(fig, "scaling", f"Force-kernel throughput, log-log (measured clock; {r.machine}).")


def lammps_table(r, bench):
    """The force kernels beside LAMMPS' Morse, one thread each (cellshift-bench-sem --section lammps)."""
    rows = []
    for x in bench_records(bench):
        if x.get("section") == "lammps" and x.get("threads") == 1:
            rows.append([f"{x['elements']:.0f}", f"{x['lammps_morse_atom_steps_per_s']:.3g}",
                         f"{x['lammps_morse_opt_atom_steps_per_s']:.3g}",
                         f"{x['cpu_verlet_element_steps_per_s']:.3g}",
                         f"{x['ratio_verlet_over_lammps']:.2f}",
                         f"{x['cpu_binned_element_steps_per_s']:.3g}"])
        elif x.get("section") == "lammps" and "skipped" in x:
            return r.lack("LAMMPS side by side", x["skipped"])
    if not rows:
        return r.lack("LAMMPS side by side",
                      "no LAMMPS rows in --bench (cellshift-bench-sem --section lammps)")
    r.section("Beside LAMMPS", "Element-steps (atom-steps) per second, one thread each, the same "
              "fcc lattice and Morse potential, measured in the same run "
              "(cellshift-bench-sem --section lammps).")
    r.table(["elements", "LAMMPS morse", "LAMMPS morse/opt", "cpu-verlet", "cpu-verlet / morse",
             "cpu-binned"], rows, "lammps_side_by_side")


def e2e_parts(r, runs, tissue):
    if runs is None:
        return r.lack("end-to-end summary", "no --e2e (cellshift-eval runs --out DIR; "
                      "scripts/e2e.sh)")
    rows = read_csv(files(runs, "table")[0])
    r.section("End to end: the SEM simulator under MPI",
              "The same tissue on P ranks under each policy (scripts/e2e.sh). Runtime is the sum "
              "over steps of the slowest rank's time plus migration; the model clock is the "
              "calibrated cost model, the measured clock the ranks' steady-clock busy time.")
    r.table(["policy", "clock seen", "ranks", "mean imbalance %", "runtime, model [s]",
             "vs static", "runtime, measured [s]", "wall [s]", "migrated slabs"],
            [[x["policy"], x["clock"], x["ranks"], f'{100 * float(x["mean_imbalance"]):.2f}',
              f'{float(x["model_runtime_s"]):.3f}',
              ("-" if x["runtime_vs_baseline"] in ("nan", "") else
               f'{100 * float(x["runtime_vs_baseline"]):+.1f}%'),
              f'{float(x["measured_runtime_s"]):.3f}', f'{float(x["wall_s"]):.1f}',
              x["migrated_slices"]] for x in rows], "e2e_table")
    fig = rank_time_panels(records_by_policy(files(runs, "records")), " (simulator)")
    r.figure(fig, "e2e_rank_times", "Per-rank time relative to the mean in the simulator, one "
             f"line per rank (model clock; {r.machine}).")
    snaps = sorted(glob.glob(os.path.join(tissue, "snapshot_*.h5"))) if tissue else []
    if not snaps:
        return r.lack("tissue picture", "no snapshots in --tissue (cellshift-sim run "
                      "--snapshot-every N --out DIR)")
    with h5py.File(snaps[-1], "r") as f:
        pos = f["positions"][:]
        rank = f["rank"][:] if "rank" in f else np.zeros(len(pos))
        step = int(f.attrs["step"])
        domain = f.attrs["domain"]
    ranks = int(rank.max()) + 1
    cmap = matplotlib.colors.ListedColormap([plt.cm.tab10(k % 10) for k in range(ranks)])
    fig, axes = plt.subplots(2, 1, figsize=(12, 4.2), sharex=True)
    for ax, (j, label) in zip(axes, [(1, "y"), (2, "z")]):
        sc = ax.scatter(pos[:, 0], pos[:, j], c=rank, s=2, cmap=cmap, vmin=-0.5,
                        vmax=ranks - 0.5)
        ax.set_ylabel(f"{label} [element diameters]")
        ax.set_ylim(0, domain[j] if j == 1 else max(pos[:, 2].max() * 1.1, 1))
    axes[1].set_xlabel("x [element diameters] (the decomposed axis)")
    fig.colorbar(sc, ax=axes, label="owning rank", ticks=range(ranks))
    r.figure(fig, "tissue", f"The grown tissue at step {step} ({len(pos)} elements) seen from "
             f"above (x-y) and from the side (x-z), coloured by owning rank (measured-clock rnn "
             f"run of scripts/e2e.sh; {r.machine}).")


def runtime_mu_figure(r, runs_at_mu):
    """Runtime relative to static against the migration cost mu (one --runtime-mu each)."""
    points = {}
    for m in runs_at_mu:
        mu = float(option(m, "migration-cost"))
        for x in read_csv(files(m, "table")[0]):
            points.setdefault(x["policy"], []).append((mu, float(x["runtime_vs_static"])))
    if not points:
        return r.lack("runtime against mu",
                      "no --runtime-mu (cellshift-eval scenarios --migration-cost MU --out DIR)")
    r.section("Time to solution against the cost of migration",
              "Modelled runtime (migration included) relative to static, at P = 16 on held-out "
              "scenarios, for migration costs mu from 1e-3 to 10 (docs/runtime.md: about "
              "0.0075 for a CPU rank, 0.1 and more for a GPU rank). Where a curve crosses 1, "
              "balancing that way costs more than it saves.")
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for policy, pts in sorted(points.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                ls="--" if policy == "oracle" else "-", label=policy)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("migration cost mu (cost of moving a slice / computing it for one interval)")
    ax.set_ylabel("runtime / static's")
    ax.legend(fontsize=8, ncol=2)
    r.figure(fig, "runtime_mu", f"Runtime relative to static against mu, P = 16 "
             f"(cellshift-eval scenarios --migration-cost MU; {r.machine}).")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="folder for index.html, report.md, CSV, PNG")
    ap.add_argument("--scenarios", help="cellshift-eval scenarios --records output: the "
                    "controller table, imbalance over events")
    ap.add_argument("--runtime-mu", action="append", default=[],
                    help="cellshift-eval scenarios output at one --migration-cost (repeat)")
    ap.add_argument("--sweep", action="append", default=[],
                    help="cellshift-eval sweep output (repeat)")
    ap.add_argument("--lambda", dest="lambdas", action="append", default=[],
                    help="cellshift-eval scenarios output of a controller trained at one "
                    "lambda (repeat; scripts/lambda_sweep.sh)")
    ap.add_argument("--bound", help="cellshift-eval bound output")
    ap.add_argument("--e2e", help="cellshift-eval runs output (scripts/e2e.sh)")
    ap.add_argument("--tissue", help="cellshift-sim run --out folder with snapshots")
    ap.add_argument("--bench", action="append", default=[],
                    help="cellshift-bench-sem JSON lines (repeat)")
    ap.add_argument("--machine", default=machine_line(), help="machine line for the captions")
    a = ap.parse_args()
    # Every input is checked before anything is written.
    scenarios = manifest(a.scenarios, "scenarios", "trace") if a.scenarios else None
    runtime_mu = [manifest(d, "scenarios") for d in a.runtime_mu]
    sweeps = [manifest(d, "sweep") for d in a.sweep]
    lambdas = [manifest(d, "scenarios") for d in a.lambdas]
    bound = manifest(a.bound, "bound") if a.bound else None
    e2e = manifest(a.e2e, "runs") if a.e2e else None
    if a.tissue and not os.path.isdir(a.tissue):
        raise InputError(f"{a.tissue}: no such folder")
    for path in a.bench:
        if not os.path.isfile(path):
            raise InputError(f"{path}: no such file")
    r = Report(a.out, a.machine)
    controller_table(r, scenarios)
    runtime_mu_figure(r, runtime_mu)
    sweep_figure(r, scenarios, sweeps, lambdas, bound)
    events_figures(r, scenarios)
    e2e_parts(r, e2e, a.tissue)
    scaling_figure(r, a.bench)
    lammps_table(r, a.bench)
    r.write("cellshift report")
    print(f"report: {os.path.join(a.out, 'index.html')} (also report.md, *.csv, figures/)")
    for m in r.missing:
        print(f"  not in it: {m}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as error:
        print(f"cellshift-eval report: error: {error}", file=sys.stderr)
        sys.exit(1)
    except Exception as error:  # one line, never a traceback (the tools' error contract)
        text = str(error).splitlines()[0] if str(error) else ""
        print(f"cellshift-eval report: error: {type(error).__name__}: {text}", file=sys.stderr)
        sys.exit(1)
