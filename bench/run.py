#!/usr/bin/python3
"""Caldera side-by-side benchmarks (issue 5): every configuration, interleaved, N rounds.

    bench/run.py [--rounds N] [--quick] [--callgrind] [--no-guard] [--builddir build]

Configurations: Caldera/Vulkan on lavapipe, Caldera/GLES on llvmpipe's GLES (CALDERA_BACKEND=gles),
Mesa llvmpipe native GL, Zink on lavapipe; all with LP_NUM_THREADS=0. Workloads: piglit
drawoverhead -fbo (every case), chunks and hud (bench/gl_workloads.cpp). Within a round every job
runs on every configuration back to back, the configuration order rotating each round, so a burst
of load from another process on this shared machine hits all configurations alike.

Writes bench/results/<date>-<host>.{json,md,png}. See docs/PERFORMANCE.md for what each number
means. Caldera's runs also report its draw-delta fast path (CALDERA_STATS "draw_delta": the share of draws
that skipped every context-global step, and the commonest miss reason) beside GL-thread µs per draw. --smoke is the meson test: one short round, Caldera only, and a check of the output's shape.
--pixels measures pixel transfers instead (bench/pixel_bench.py): readback and upload MB/s per format.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRAWOVERHEAD = "/usr/lib/x86_64-linux-gnu/piglit/bin/drawoverhead"
MESA_VENDOR = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
# Cases covering each kind of state change; --quick runs only these.
# drawoverhead numbers its cases per driver (llvmpipe has 39, Caldera 33: cases depend on
# extensions), so cases are matched by name; the first 11 are the same everywhere.
QUICK_CASES = [1, 2, 3, 4, 5, 7, 9, 11]
# Metrics of the GL workloads, and whether bigger is better (for "best").
WORKLOAD_METRICS = {
    "fps": True,
    "gl_thread_ms_per_frame": False,
    "gl_thread_us_per_draw": False,
    "other_threads_ms_per_frame": False,
    "apply_thread_ms_per_frame": False,
    "process_ms_per_frame": False,
}
# Guard counters reported per frame (or per Vulkan draw for drawoverhead).
GUARD_TOTALS = ["calls", "draws", "render_passes", "redundant_binds", "objects_created", "submits"]


def ensure_matplotlib():
    """The chart needs Debian's python3-matplotlib; a pyenv python3 first in PATH lacks it."""
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        system = "/usr/bin/python3"
        if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system) \
                and not os.environ.get("CALDERA_BENCH_REEXEC"):
            probe = subprocess.run([system, "-c", "import matplotlib"], capture_output=True)
            if probe.returncode == 0:
                os.environ["CALDERA_BENCH_REEXEC"] = "1"
                os.execv(system, [system, os.path.abspath(__file__)] + sys.argv[1:])
        return False


# ---------------------------------------------------------------------------------------------
# Configurations


def base_env(tmp):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CALDERA_") and k not in (
               "__EGL_VENDOR_LIBRARY_FILENAMES", "__EGL_VENDOR_LIBRARY_DIRS", "GALLIUM_DRIVER",
               "LIBGL_ALWAYS_SOFTWARE", "MESA_LOADER_DRIVER_OVERRIDE", "VK_INSTANCE_LAYERS",
               "VK_LOADER_LAYERS_ENABLE", "VK_ICD_FILENAMES", "VK_DRIVER_FILES")}
    env.update(LP_NUM_THREADS="0", PIGLIT_PLATFORM="surfaceless_egl", XDG_RUNTIME_DIR=tmp,
               # Timed runs never load the guard layer, whatever the caller's environment says.
               CALDERA_GUARD_DISABLE="1")
    return env


def configurations(builddir, tmp, baseline_json=None):
    """name -> {label, env, vulkan, renderer (expected GL_RENDERER substring), absent (reason)}."""
    base = base_env(tmp)
    caldera_json = os.path.join(builddir, "json", "caldera_dev.json")
    configs = {
        # The pipe mode is named in every Caldera configuration: the default (auto) depends on the CPU count.
        "caldera": {"label": "Caldera/Vulkan (lavapipe)", "vulkan": True, "renderer": "Caldera",
                    "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=caldera_json, CALDERA_PIPE="inline")},
        "caldera-gles": {"label": "Caldera/GLES (llvmpipe)", "vulkan": False, "renderer": "Caldera",
                         "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=caldera_json,
                                     CALDERA_BACKEND="gles", CALDERA_PIPE="inline")},
        # Run-ahead (CALDERA_PIPE=inproc): the GL thread records, an apply thread drives the backend.
        "caldera-inproc": {"label": "Caldera/Vulkan inproc (lavapipe)", "vulkan": True, "renderer": "Caldera",
                           "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=caldera_json, CALDERA_PIPE="inproc")},
        "caldera-gles-inproc": {"label": "Caldera/GLES inproc (llvmpipe)", "vulkan": False, "renderer": "Caldera",
                                "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=caldera_json,
                                            CALDERA_BACKEND="gles", CALDERA_PIPE="inproc")},
        # The draw-delta caches and fast path off (CALDERA_DRAW_DELTA=0, src/frontend/draw_delta.h).
        "caldera-nodelta": {"label": "Caldera/Vulkan CALDERA_DRAW_DELTA=0", "vulkan": True, "renderer": "Caldera",
                            "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=caldera_json, CALDERA_PIPE="inline",
                                        CALDERA_DRAW_DELTA="0")},
        "llvmpipe": {"label": "Mesa llvmpipe (native GL)", "vulkan": False, "renderer": "llvmpipe",
                     "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=MESA_VENDOR, LIBGL_ALWAYS_SOFTWARE="1",
                                 GALLIUM_DRIVER="llvmpipe")},
        "zink": {"label": "Zink (lavapipe)", "vulkan": True, "renderer": "zink",
                 "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=MESA_VENDOR, LIBGL_ALWAYS_SOFTWARE="1",
                             GALLIUM_DRIVER="zink")},
    }
    if not os.path.exists(caldera_json):
        configs["caldera"]["absent"] = f"{caldera_json} not built"
    else:
        with open(caldera_json) as f:
            library = json.load(f)["ICD"]["library_path"]
        if not os.path.exists(library):
            # The shared build tree is rebuilt by others at any time: say so instead of failing every run.
            configs["caldera"]["absent"] = f"{library} missing (not built, or a build is in progress)"
    # The GLES backend is a directory of its own when it exists (docs/ENVIRONMENT.md, CALDERA_BACKEND).
    if not os.path.isdir(os.path.join(REPO, "src", "backend", "gles")):
        configs["caldera-gles"]["absent"] = "Caldera's GLES backend does not exist yet (src/backend/gles)"
    elif "absent" in configs["caldera"]:
        configs["caldera-gles"]["absent"] = configs["caldera"]["absent"]
    if baseline_json:
        # Another Caldera build (an older commit's vendor JSON) in the same run: before/after side by side.
        configs["baseline"] = {"label": "baseline Caldera/Vulkan", "vulkan": True, "renderer": "Caldera",
                               "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=os.path.abspath(baseline_json),
                                           CALDERA_PIPE="inline")}
    if "absent" in configs["caldera"]:
        configs["caldera-nodelta"]["absent"] = configs["caldera"]["absent"]
    for name in ("caldera-inproc", "caldera-gles-inproc"):
        base_name = name.replace("-inproc", "")
        if "absent" in configs[base_name]:
            configs[name]["absent"] = configs[base_name]["absent"]
    if not os.path.exists(MESA_VENDOR):
        configs["llvmpipe"]["absent"] = configs["zink"]["absent"] = f"{MESA_VENDOR} missing"
    return configs


def guard_env(env, builddir, report):
    guarded = {k: v for k, v in env.items() if k != "CALDERA_GUARD_DISABLE"}
    guarded.update(XDG_DATA_DIRS=f"{builddir}/layer/share:/usr/local/share:/usr/share", CALDERA_GUARD="1",
                   CALDERA_GUARD_REPORT=report, CALDERA_GUARD_FRAME_SUBMITS="1")
    return guarded


# ---------------------------------------------------------------------------------------------
# Running things


class RunError(Exception):
    pass


def busy_compilers():
    """Other engineers build on this machine; note it so noisy numbers can be recognised."""
    try:
        out = subprocess.run(["pgrep", "-c", "cc1plus"], capture_output=True, text=True)
        return int(out.stdout.strip() or 0)
    except (OSError, ValueError):
        return 0


def run_process(cmd, env, timeout):
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise RunError(f"timed out after {timeout} s: {' '.join(cmd)}") from e
    if out.returncode != 0:
        tail = "\n".join(out.stderr.strip().splitlines()[-8:])
        raise RunError(f"exit status {out.returncode}: {' '.join(cmd)}\n{tail}")
    return out


ANSI = re.compile(r"\x1b\[[0-9;]*m")
CASE_LINE = re.compile(r"^\s*(\d+),\s*(.+?)\s*,\s*([\d.]+)\s*,\s*([\d.]+)%\s*$")


def parse_drawoverhead(stdout):
    """drawoverhead prints '#, Test name, Thousands draws/s, Difference vs the 1st' rows."""
    cases = {}
    for line in ANSI.sub("", stdout).splitlines():
        match = CASE_LINE.match(line)
        if match:
            cases[int(match.group(1))] = (match.group(2), float(match.group(3)))
    return cases


def with_stats(env, path):
    """`env` with Caldera's counters (CALDERA_STATS) written to `path` (emptied first)."""
    if os.path.exists(path):
        os.remove(path)
    return dict(env, CALDERA_STATS=path)


def fast_path_stats(path):
    """The draw-delta fast path of a Caldera run (its contexts' "draw_delta" lines in CALDERA_STATS): hits,
    draws and misses by reason; None when the run wrote none (another driver, or no draws)."""
    hits = draws = 0
    misses = {}
    try:
        with open(path) as f:
            for line in f:
                if '"draw_delta"' not in line:
                    continue
                d = json.loads(line)
                hits += d.get("fast_path_hits", 0)
                draws += d.get("draws", 0)
                for key, value in d.items():
                    if key.startswith("fast_path_miss_") and value:
                        reason = key[len("fast_path_miss_"):]
                        misses[reason] = misses.get(reason, 0) + value
    except (OSError, ValueError):
        return None
    return {"hits": hits, "draws": draws, "misses": misses} if draws else None


def fast_path_text(fp):
    """'97 % (context_epoch 3 %)': the share of draws on the fast path and the commonest miss reason."""
    if not fp:
        return "—"
    text = f"{100 * fp['hits'] / fp['draws']:.0f} %"
    if fp["misses"]:
        reason, n = max(fp["misses"].items(), key=lambda kv: kv[1])
        text += f" ({reason} {100 * n / fp['draws']:.0f} %)"
    return text


def caldera_warnings(stderr):
    return sorted({line.strip() for line in stderr.splitlines() if line.startswith("caldera warning")})


def run_drawoverhead(case, duration, env, timeout=600):
    """One case (-test N), or every case in one process when case is None. Returns
    {number: (name, thousands of draws/s)} and Caldera's warnings."""
    cmd = [DRAWOVERHEAD, "-fbo", "-duration", str(duration)] + ([] if case is None else ["-test", str(case)])
    out = run_process(cmd, env, timeout)
    cases = parse_drawoverhead(out.stdout)
    if not cases or (case is not None and case not in cases):
        raise RunError(f"{' '.join(cmd)}: no result row in its output")
    return cases, caldera_warnings(out.stderr)


def run_workload(bench_gl, workload, args, env, timeout=180, wrapper=()):
    out = run_process(list(wrapper) + [bench_gl, "--workload", workload] + args, env, timeout)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RunError(f"{workload}: no JSON line in its output")
    result = json.loads(lines[-1])
    result["warnings"] = caldera_warnings(out.stderr)
    return result


def read_guard(report):
    with open(report) as f:
        data = json.load(f)
    totals = dict(data["totals"])
    by_command = {name: entry["total"] for name, entry in data["calls_by_command"].items()}
    # The layer's notion of a redundant bind covers vkCmdBind* and vkCmdSet* (dynamic state).
    totals["bind_calls"] = sum(n for name, n in by_command.items()
                               if name.startswith("vkCmdBind") or (name.startswith("vkCmdSet")
                                                                   and "Event" not in name))
    totals["frames"] = data["frames"]
    return totals, by_command


def guarded_workload(bench_gl, workload, env, builddir, tmp, frames_short, frames_long):
    """Vulkan counters per steady-state frame: two guarded runs differing only in frame count, so
    the difference excludes set-up and warm-up (pipeline creation, uploads) exactly."""
    results = []
    for frames in (frames_short, frames_long):
        report = os.path.join(tmp, f"guard-{workload}-{frames}.json")
        run_workload(bench_gl, workload, ["--warmup", "2", "--frames", str(frames)],
                     guard_env(env, builddir, report))
        results.append(read_guard(report))
    (short, short_cmds), (long, long_cmds) = results
    n = frames_long - frames_short
    per_frame = {k: (long[k] - short[k]) / n for k in GUARD_TOTALS + ["bind_calls"]}
    per_frame["redundant_bind_share"] = (per_frame["redundant_binds"] / per_frame["bind_calls"]
                                         if per_frame["bind_calls"] else 0.0)
    commands = {name: (long_cmds.get(name, 0) - short_cmds.get(name, 0)) / n for name in long_cmds}
    per_frame["top_commands"] = dict(sorted(((k, v) for k, v in commands.items() if v > 0),
                                            key=lambda kv: -kv[1])[:12])
    return per_frame


def guarded_drawoverhead(case, duration, env, builddir, tmp):
    """drawoverhead picks its own iteration count, so its counters are per Vulkan draw."""
    report = os.path.join(tmp, f"guard-drawoverhead-{case}.json")
    run_drawoverhead(case, duration, guard_env(env, builddir, report))
    totals, _ = read_guard(report)
    draws = totals["draws"]
    per_draw = {k: (totals[k] / draws if draws else None) for k in GUARD_TOTALS if k != "draws"}
    per_draw["vk_draws"] = draws
    per_draw["redundant_bind_share"] = totals["redundant_binds"] / totals["bind_calls"] if totals["bind_calls"] else 0.0
    return per_draw


def callgrind_workload(bench_gl, workload, env, tmp, frames):
    """Instructions per draw of the timed loop alone (--instr-atstart=no; the program switches
    instrumentation on around its loop): deterministic on a noisy machine. One file per thread:
    -01 is the GL (main) thread; the rest are driver threads (lavapipe's queue thread)."""
    out_file = os.path.join(tmp, f"callgrind-{workload}.out")
    wrapper = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
               f"--callgrind-out-file={out_file}"]
    result = run_workload(bench_gl, workload, ["--warmup", "2", "--frames", str(frames), "--callgrind"], env,
                          timeout=900, wrapper=wrapper)
    per_thread = {}
    for name in sorted(os.listdir(tmp)):
        if not name.startswith(os.path.basename(out_file) + "-"):
            continue
        count = 0
        with open(os.path.join(tmp, name)) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    count = max(count, int(line.split()[1]))
        per_thread[name.rsplit("-", 1)[1]] = count
        os.remove(os.path.join(tmp, name))
    total = sum(per_thread.values())
    if not total or "01" not in per_thread:
        raise RunError("callgrind wrote no instruction totals")
    draws = result["frames"] * result["draws_per_frame"]
    return {"instructions": total, "draws": draws, "instructions_per_draw": total / draws,
            "gl_thread_instructions_per_draw": per_thread["01"] / draws,
            "other_threads_instructions_per_draw": (total - per_thread["01"]) / draws,
            "instructions_per_frame": total / result["frames"]}


# ---------------------------------------------------------------------------------------------
# Summaries


def summarize(values, higher_is_better):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"best": max(values) if higher_is_better else min(values), "median": statistics.median(values),
            "runs": values}


def ratio(a, b):
    return a / b if a and b else None


def build_summary(results, active):
    """Best/median per metric and Caldera's ratios against llvmpipe and Zink."""
    others = [c for c in ("llvmpipe", "zink") if c in active]
    for case in results["drawoverhead"]["cases"].values():
        for config, entry in case["configs"].items():
            if not entry["runs"]:
                continue
            entry["kdraws_per_s"] = summarize(entry["runs"], True)
        caldera = case["configs"].get("caldera", {}).get("kdraws_per_s")
        case["caldera_ratio"] = {}
        for other in others:
            theirs = case["configs"].get(other, {}).get("kdraws_per_s")
            if caldera and theirs:
                # draws/s: > 1 means Caldera is faster.
                case["caldera_ratio"][other] = ratio(caldera["median"], theirs["median"])
    for workload in ("chunks", "hud"):
        block = results.get(workload)
        if not block:
            continue
        for config, entry in block["configs"].items():
            entry["summary"] = {m: summarize([r.get(m) for r in entry["runs"]], hib)
                                for m, hib in WORKLOAD_METRICS.items()}
        caldera = block["configs"].get("caldera", {}).get("summary", {}).get("gl_thread_ms_per_frame")
        block["caldera_ratio"] = {}
        for other in others:
            theirs = block["configs"].get(other, {}).get("summary", {}).get("gl_thread_ms_per_frame")
            if caldera and theirs:
                # GL-thread ms/frame: > 1 means Caldera costs the application's thread more.
                block["caldera_ratio"][other] = ratio(caldera["median"], theirs["median"])


def case_order(cases, active):
    """Caldera's case order first, then cases only other drivers have, in their order."""
    def key(name):
        numbers = cases[name]["numbers"]
        for rank, config in enumerate(active):
            if config in numbers:
                return (rank, numbers[config])
        return (len(active), 0)
    return sorted(cases, key=key)


def case_label(case, active):
    numbers = case["numbers"]
    first = next((c for c in active if c in numbers), None)
    label = str(numbers[first]) if first else "?"
    others = {n for c, n in numbers.items() if c != first and n != numbers[first]}
    return label + (f" ({'/'.join(str(n) for n in sorted(others))})" if others else "")


def fmt(value, digits=1):
    if value is None:
        return "—"
    if isinstance(value, float) and abs(value) < 10 ** -digits and value != 0:
        return f"{value:.2g}"
    return f"{value:.{digits}f}"


def markdown(results, configs, active):
    lines = [f"# Caldera benchmarks, {results['date']} on {results['host']}", "",
             f"Command: `{results['command']}` (git {results['git_commit']}, {results['rounds']} round(s), "
             f"best and median over rounds; CPU: {results['cpu']}; LP_NUM_THREADS=0).", ""]
    lines.append("| Configuration | Status | GL_RENDERER |")
    lines.append("| --- | --- | --- |")
    for name, config in configs.items():
        status = f"absent: {config['absent']}" if "absent" in config else "measured"
        lines.append(f"| {config['label']} | {status} | {results['renderers'].get(name, '—')} |")
    if results.get("concurrent_compiles_seen"):
        lines += ["", f"Note: other compilations were running during {results['concurrent_compiles_seen']} "
                      "of the runs; treat small differences as noise."]
    cases = results["drawoverhead"]["cases"]
    if cases:
        lines += ["", "## piglit drawoverhead -fbo (thousands of draws/s, median (best); ratio > 1: Caldera faster)",
                  ""]
        header = "| # | Case | " + " | ".join(configs[c]["label"] for c in active)
        header += "".join(f" | Caldera ÷ {o}" for o in ("llvmpipe", "zink")
                          if o in active and "caldera" in active)
        vk = [c for c in active if configs[c]["vulkan"]]
        header += "".join(f" | {configs[c]['label'].split('/')[0].split(' ')[0]} Vk calls per Vk draw" for c in vk)
        # Caldera's draw-delta fast path per case (one process per case only: --quick or --cases).
        fast = [c for c in active if any(case["configs"].get(c, {}).get("fast_path") for case in cases.values())]
        header += "".join(f" | {configs[c]['label']} fast path (main miss)" for c in fast)
        lines.append(header + " |")
        lines.append("|" + " --- |" * (header.count("|")))
        for name in case_order(cases, active):
            case = cases[name]
            row = f"| {case_label(case, active)} | {name} |"
            for c in active:
                s = case["configs"].get(c, {}).get("kdraws_per_s")
                if s:
                    row += f" {fmt(s['median'], 0)} ({fmt(s['best'], 0)}) |"
                else:  # a case this driver does not have (drawoverhead adds cases by extension), or a failure
                    row += " n/a |" if c not in case["numbers"] else " failed |"
            for o in ("llvmpipe", "zink"):
                if o in active and "caldera" in active:
                    row += f" {fmt(case['caldera_ratio'].get(o), 2)} |"
            for c in vk:
                g = case["configs"].get(c, {}).get("guard")
                row += f" {fmt(g['calls'], 1) if g and g.get('calls') is not None else '—'} |"
            for c in fast:
                row += f" {fast_path_text(case['configs'].get(c, {}).get('fast_path'))} |"
            lines.append(row)
        notes = sorted({w for case in cases.values() for e in case["configs"].values() for w in e.get("warnings", [])})
        if notes:
            lines += ["", "Caldera said during drawoverhead: " + "; ".join(f"`{n}`" for n in notes)]
    for workload in ("chunks", "hud"):
        block = results.get(workload)
        if not block:
            continue
        lines += ["", f"## {workload} ({block.get('draws_per_frame', '?')} draws/frame; ms are per frame, "
                      "median (best))", ""]
        lines.append("| Configuration | frames/s | GL thread ms | GL thread µs/draw | other threads ms | "
                     "Vk calls/frame | redundant binds | render passes/frame | objects created/frame | "
                     "submits/frame | instructions/draw GL thread + others | GL errors/frame | "
                     "fast path (main miss) |")
        lines.append("|" + " --- |" * 13)
        for c in active:
            entry = block["configs"].get(c)
            if not entry or not entry.get("summary"):
                lines.append(f"| {configs[c]['label']} | failed |" + " |" * 11)
                continue
            s = entry["summary"]

            def cell(metric, digits):
                v = s.get(metric)
                return f"{fmt(v['median'], digits)} ({fmt(v['best'], digits)})" if v else "—"
            g = entry.get("guard") or {}
            share = f"{g['redundant_binds']:.0f} ({100 * g['redundant_bind_share']:.0f} %)" if g else "—"
            cg = entry.get("callgrind")
            cg_text = (f"{cg['gl_thread_instructions_per_draw']:.0f} + {cg['other_threads_instructions_per_draw']:.0f}"
                       if cg else "—")
            errors = entry["runs"][0].get("gl_errors_per_frame", {}) if entry["runs"] else {}
            err_text = ", ".join(f"{k}: {v}" for k, v in errors.items()) or "0"
            lines.append(f"| {configs[c]['label']} | {cell('fps', 1)} | {cell('gl_thread_ms_per_frame', 2)} | "
                         f"{cell('gl_thread_us_per_draw', 2)} | {cell('other_threads_ms_per_frame', 2)} | "
                         f"{fmt(g.get('calls'), 0)} | {share} | {fmt(g.get('render_passes'), 1)} | "
                         f"{fmt(g.get('objects_created'), 1)} | {fmt(g.get('submits'), 1)} | "
                         f"{cg_text} | {err_text} | "
                         f"{fast_path_text(entry['runs'][-1].get('fast_path') if entry['runs'] else None)} |")
        ratios = block.get("caldera_ratio", {})
        if ratios:
            lines += ["", "Caldera ÷ other, GL-thread ms/frame (median; > 1: Caldera costs more): " +
                      ", ".join(f"{configs[o]['label']} {v:.2f}" for o, v in ratios.items())]
        skipped = {c: e["runs"][0]["gl_errors_per_frame"] for c, e in block["configs"].items()
                   if e.get("runs") and e["runs"][0].get("gl_errors_per_frame")}
        for c, errors in skipped.items():
            lines.append(f"\n{configs[c]['label']} raised GL errors every frame (the calls were made and "
                         f"rejected, so their work was skipped): " +
                         ", ".join(f"{k} × {v}" for k, v in errors.items()))
    failures = results.get("failures", [])
    if failures:
        lines += ["", "## Failures", ""] + [f"- {f}" for f in failures]
    return "\n".join(lines) + "\n"


def chart(results, configs, active, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cases = results["drawoverhead"]["cases"]
    fig, axes = plt.subplots(2, 1, figsize=(14, 10), gridspec_kw={"height_ratios": [3, 2]})
    colors = {"caldera": "#d95f02", "caldera-gles": "#e7298a", "llvmpipe": "#1b9e77", "zink": "#7570b3"}
    width = 0.8 / max(1, len(active))
    numbers = case_order(cases, active)
    ax = axes[0]
    for i, c in enumerate(active):
        values = [(cases[n]["configs"].get(c, {}).get("kdraws_per_s") or {}).get("median", 0) for n in numbers]
        ax.bar([k + i * width for k in range(len(numbers))], values, width, label=configs[c]["label"],
               color=colors.get(c))
    ax.set_xticks([k + width * (len(active) - 1) / 2 for k in range(len(numbers))],
                  [case_label(cases[n], active) for n in numbers], fontsize=7)
    ax.set_yscale("log")
    ax.set_xlabel("drawoverhead -fbo case, Caldera's numbering (see the table for names)")
    ax.set_ylabel("thousands of draws/s (median, log)")
    ax.set_title(f"piglit drawoverhead, {results['date']} {results['host']}")
    ax.legend()
    ax = axes[1]
    groups = [w for w in ("chunks", "hud") if results.get(w)]
    for gi, workload in enumerate(groups):
        for i, c in enumerate(active):
            s = results[workload]["configs"].get(c, {}).get("summary") or {}
            gl = (s.get("gl_thread_ms_per_frame") or {}).get("median", 0)
            other = max(0.0, (s.get("other_threads_ms_per_frame") or {}).get("median", 0))
            x = gi + i * width
            ax.bar(x, gl, width, color=colors.get(c), label=configs[c]["label"] if gi == 0 else None)
            ax.bar(x, other, width, bottom=gl, color=colors.get(c), alpha=0.35, hatch="//",
                   label="other threads" if gi == 0 and i == 0 else None)
    ax.set_xticks([g + width * (len(active) - 1) / 2 for g in range(len(groups))], groups)
    ax.set_ylabel("CPU ms per frame (solid: GL thread; hatched: other threads)")
    ax.set_title("game-shaped workloads (lower is better)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------
# Smoke check


def check_shape(results):
    """What the smoke test asserts: every field present, numbers parse and are > 0."""
    problems = []

    def positive(where, value):
        if not isinstance(value, (int, float)) or not value > 0:
            problems.append(f"{where}: {value!r} is not a positive number")

    for key in ("date", "host", "command", "configs", "drawoverhead", "chunks", "hud"):
        if key not in results:
            problems.append(f"missing top-level field {key}")
    cases = results.get("drawoverhead", {}).get("cases", {})
    if not cases:
        problems.append("no drawoverhead case")
    for number, case in cases.items():
        entry = case["configs"].get("caldera", {})
        positive(f"drawoverhead {number} caldera kdraws_per_s", (entry.get("kdraws_per_s") or {}).get("median"))
        positive(f"drawoverhead {number} caldera guard calls/draw", (entry.get("guard") or {}).get("calls"))
        positive(f"drawoverhead {number} caldera fast-path draws", (entry.get("fast_path") or {}).get("draws"))
    for workload in ("chunks", "hud"):
        entry = results.get(workload, {}).get("configs", {}).get("caldera", {})
        summary = entry.get("summary") or {}
        runs = entry.get("runs") or [{}]
        positive(f"{workload} caldera fast-path draws", (runs[-1].get("fast_path") or {}).get("draws"))
        for metric in WORKLOAD_METRICS:
            if metric in ("other_threads_ms_per_frame", "apply_thread_ms_per_frame"):
                # Process minus thread CPU, and the apply thread (0 with the inline pipe): may legitimately be
                # ~0; they must parse.
                if not isinstance((summary.get(metric) or {}).get("median"), (int, float)):
                    problems.append(f"{workload} {metric} missing")
                continue
            positive(f"{workload} {metric}", (summary.get(metric) or {}).get("median"))
        guard = entry.get("guard")
        if guard is None:
            problems.append(f"{workload}: no guard counters")
        else:
            for key in ("calls", "draws", "render_passes", "submits"):
                positive(f"{workload} guard {key}/frame", guard.get(key))
        runs = entry.get("runs") or [{}]
        if "gl_errors_per_frame" not in runs[0]:
            problems.append(f"{workload}: no GL error accounting")
    return problems


# ---------------------------------------------------------------------------------------------


def git_commit(builddir):
    """The commit Caldera was built from: the build tree's checkout, marked -dirty when it has local
    changes (other engineers' work in progress in a shared tree). A tree without git (a `git archive`
    export) says so, and BENCH_COMMIT names it."""
    source = os.path.dirname(builddir)
    out = subprocess.run(["git", "-C", source, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if out.returncode != 0:
        return os.environ.get("BENCH_COMMIT", f"unknown (no git at {source})")
    dirty = subprocess.run(["git", "-C", source, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return out.stdout.strip() + ("-dirty" if dirty else "")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip() + f" x{os.cpu_count()}"
    except OSError:
        pass
    return platform.processor() or "unknown"


def render(path, have_matplotlib):
    with open(path) as f:
        results = json.load(f)
    configs = {name: dict(c, absent=c["absent"]) if "absent" in c else dict(c)
               for name, c in results["configs"].items()}
    active = [name for name, c in configs.items() if "absent" not in c]
    stem = path[:-len(".json")]
    with open(stem + ".md", "w") as f:
        f.write(markdown(results, configs, active))
    if have_matplotlib:
        chart(results, configs, active, stem + ".png")
    print(f"rewrote {stem}.md" + (f", {stem}.png" if have_matplotlib else ""))
    return 0


def main():
    have_matplotlib = ensure_matplotlib()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help=f"drawoverhead cases {QUICK_CASES} only, shorter runs")
    parser.add_argument("--callgrind", action="store_true", help="also instructions per draw (chunks, hud)")
    parser.add_argument("--no-guard", action="store_true", help="skip the guarded (Vulkan counter) pass")
    parser.add_argument("--configs", default="caldera,caldera-gles,llvmpipe,zink")
    parser.add_argument("--workloads", default="drawoverhead,chunks,hud")
    parser.add_argument("--cases", help="drawoverhead cases, comma-separated, one process each (default: all, "
                        "in one process per configuration)")
    parser.add_argument("--builddir", default=os.path.join(REPO, "build"))
    parser.add_argument("--bench-gl", help="caldera-bench-gl binary (default: <builddir>/bench/caldera-bench-gl)")
    parser.add_argument("--out-dir", default=os.path.join(REPO, "bench", "results"))
    parser.add_argument("--smoke", action="store_true", help="meson test: one tiny round on Caldera, check shape")
    parser.add_argument("--render", metavar="JSON", help="only rewrite the .md and .png of an earlier run's JSON")
    parser.add_argument("--pixels", action="store_true",
                        help="pixel transfers instead (readback/upload MB/s per format; bench/pixel_bench.py)")
    parser.add_argument("--bench-pixels", help="caldera-bench-pixels binary (default: <builddir>/bench/...)")
    parser.add_argument("--baseline-json", help="also run another Caldera build's vendor JSON (config 'baseline')")
    args = parser.parse_args()
    if args.render:
        return render(args.render, have_matplotlib)
    command = "bench/run.py " + " ".join(sys.argv[1:])
    if args.pixels:
        import pixel_bench
        tmp = tempfile.mkdtemp(prefix="caldera-bench-")
        os.chmod(tmp, 0o700)
        configs = configurations(os.path.abspath(args.builddir), tmp)
        if args.smoke:
            args.rounds = 1
            args.configs = "caldera"
        configs = {n: c for n, c in configs.items() if n in args.configs.split(",")}
        try:
            return pixel_bench.main(args, configs, command, args.out_dir)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    builddir = os.path.abspath(args.builddir)
    bench_gl = os.path.abspath(args.bench_gl or os.path.join(builddir, "bench", "caldera-bench-gl"))
    wanted_configs = args.configs.split(",")
    workloads = args.workloads.split(",")
    duration, min_seconds, frames, guard_frames, callgrind_frames = 1, 1.5, 10, (5, 15), 3
    if args.quick:
        min_seconds, frames = 0.5, 5
    if args.smoke:
        args.rounds, wanted_configs, args.cases = 1, ["caldera"], "1"
        min_seconds, frames, guard_frames = 0.0, 3, (2, 4)
    if not os.path.exists(DRAWOVERHEAD) and "drawoverhead" in workloads:
        print(f"note: {DRAWOVERHEAD} not installed; drawoverhead skipped", file=sys.stderr)
        workloads.remove("drawoverhead")
        if args.smoke:
            return 77  # meson: skipped
    if not os.path.exists(bench_gl):
        sys.exit(f"{bench_gl} not built: ninja -C {builddir} bench/caldera-bench-gl")

    tmp = tempfile.mkdtemp(prefix="caldera-bench-")
    os.chmod(tmp, 0o700)
    configs = configurations(builddir, tmp, args.baseline_json)
    if args.baseline_json and "baseline" not in wanted_configs:
        wanted_configs.append("baseline")
    configs = {name: c for name, c in configs.items() if name in wanted_configs}
    active = [name for name, c in configs.items() if "absent" not in c]
    for name, c in configs.items():
        if "absent" in c:
            print(f"{c['label']}: absent ({c['absent']})", file=sys.stderr)
    now = datetime.datetime.now(datetime.timezone.utc)
    host = socket.gethostname().split(".")[0]
    results = {"date": now.strftime("%Y-%m-%d"), "time_utc": now.strftime("%H:%M:%S"), "host": host,
               "command": command, "git_commit": git_commit(builddir), "builddir": builddir, "cpu": cpu_model(), "rounds": args.rounds,
               "quick": args.quick, "lp_num_threads": 0,
               "configs": {n: {"label": c["label"], "vulkan": c["vulkan"],
                               **({"absent": c["absent"]} if "absent" in c else {})} for n, c in configs.items()},
               "renderers": {}, "drawoverhead": {"duration_s": duration, "cases": {}}, "failures": [],
               "concurrent_compiles_seen": 0}

    # drawoverhead: every case in one process per configuration, or one process per chosen case.
    jobs = []
    if "drawoverhead" in workloads:
        if args.cases:
            jobs = [("drawoverhead", int(n)) for n in args.cases.split(",")]
        elif args.quick:
            jobs = [("drawoverhead", n) for n in QUICK_CASES]
        else:
            jobs = [("drawoverhead", None)]
    jobs += [(w, None) for w in ("chunks", "hud") if w in workloads]
    for w in ("chunks", "hud"):
        if w in workloads:
            results[w] = {"configs": {c: {"runs": []} for c in active}}

    def record_failure(what, error):
        message = f"{what}: {error}"
        results["failures"].append(message)
        print(f"FAILED {message}", file=sys.stderr)

    total = args.rounds * len(jobs) * len(active)
    done = 0
    for round_index in range(args.rounds):
        order = active[round_index % len(active):] + active[:round_index % len(active)] if active else []
        for workload, case in jobs:
            for config in order:
                done += 1
                env = configs[config]["env"]
                results["concurrent_compiles_seen"] += 1 if busy_compilers() else 0
                label = f"{workload}{'' if case is None else ' -test ' + str(case)} on {config}"
                print(f"[{done}/{total}] round {round_index + 1}: {label}", file=sys.stderr, flush=True)
                try:
                    stats_path = os.path.join(tmp, "caldera-stats.json")
                    if workload == "drawoverhead":
                        rows, warnings = run_drawoverhead(case, duration, with_stats(env, stats_path))
                        # One process per case: its counters belong to that case alone.
                        fp = fast_path_stats(stats_path) if case is not None else None
                        for number, (name, kdraws) in rows.items():
                            slot = results["drawoverhead"]["cases"].setdefault(name, {"numbers": {}, "configs": {}})
                            slot["numbers"][config] = number
                            entry = slot["configs"].setdefault(config, {"runs": [], "warnings": []})
                            entry["runs"].append(kdraws)
                            if fp:
                                entry["fast_path"] = fp
                            # Whole-process runs: a warning cannot be pinned to one case.
                            entry["warnings"] = sorted(set(entry["warnings"]) | set(warnings))
                    else:
                        r = run_workload(bench_gl, workload, ["--warmup", "5", "--frames", str(frames),
                                                              "--min-seconds", str(min_seconds)],
                                         with_stats(env, stats_path))
                        r["fast_path"] = fast_path_stats(stats_path)
                        expected = configs[config]["renderer"]
                        if expected.lower() not in r["renderer"].lower() or (
                                config == "llvmpipe" and "zink" in r["renderer"].lower()):
                            raise RunError(f"GL_RENDERER is {r['renderer']!r}, expected {expected}")
                        results["renderers"][config] = r["renderer"]
                        results[workload]["draws_per_frame"] = r["draws_per_frame"]
                        results[workload]["calls_per_frame"] = r["calls_per_frame"]
                        results[workload]["configs"][config]["runs"].append(r)
                except RunError as e:
                    record_failure(label, e)

    # Vulkan counters: a separate guarded pass, so the layer's own cost never touches the timings.
    vulkan = [c for c in active if configs[c]["vulkan"]]
    if not args.no_guard and vulkan:
        guarded = [(w, c) for w, c in jobs if w != "drawoverhead"]
        # Guard totals are per process, so drawoverhead's guarded pass is one process per case, by
        # each configuration's own numbering as its timed runs reported it.
        for name, case in results["drawoverhead"]["cases"].items():
            for config in vulkan:
                if config in case["numbers"]:
                    guarded.append(("drawoverhead", (name, config, case["numbers"][config])))
        for workload, case in guarded:
            for config in ([case[1]] if workload == "drawoverhead" else vulkan):
                label = f"guarded {workload}{'' if case is None else ' -test ' + str(case[2])} on {config}"
                print(label, file=sys.stderr, flush=True)
                try:
                    if workload == "drawoverhead":
                        entry = results["drawoverhead"]["cases"][case[0]]["configs"][config]
                        entry["guard"] = guarded_drawoverhead(case[2], duration, configs[config]["env"], builddir, tmp)
                    else:
                        results[workload]["configs"][config]["guard"] = guarded_workload(
                            bench_gl, workload, configs[config]["env"], builddir, tmp, *guard_frames)
                except (RunError, OSError, KeyError, ValueError) as e:
                    record_failure(label, e)
    if args.callgrind:
        if not shutil.which("valgrind"):
            record_failure("callgrind", "valgrind not installed")
        else:
            for workload in (w for w in ("chunks", "hud") if w in workloads):
                for config in active:
                    print(f"callgrind {workload} on {config}", file=sys.stderr, flush=True)
                    try:
                        results[workload]["configs"][config]["callgrind"] = callgrind_workload(
                            bench_gl, workload, configs[config]["env"], tmp, callgrind_frames)
                    except (RunError, OSError) as e:
                        record_failure(f"callgrind {workload} on {config}", e)

    build_summary(results, active)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, f"{results['date']}-{host}")
    with open(stem + ".json", "w") as f:
        json.dump(results, f, indent=1, sort_keys=False)
        f.write("\n")
    table = markdown(results, configs, active)
    with open(stem + ".md", "w") as f:
        f.write(table)
    if have_matplotlib:
        chart(results, configs, active, stem + ".png")
    else:
        print("note: matplotlib unavailable (apt install python3-matplotlib); no chart", file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    print(table)
    print(f"wrote {stem}.json, {stem}.md" + (f", {stem}.png" if have_matplotlib else ""))

    if args.smoke:
        problems = check_shape(results)
        if have_matplotlib and not os.path.getsize(stem + ".png"):
            problems.append("empty chart")
        for p in problems + results["failures"]:
            print(f"smoke: {p}", file=sys.stderr)
        return 1 if problems or results["failures"] else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
