"""Pixel transfer mode of bench/run.py (`--pixels`): caldera-bench-pixels (bench/pixel_transfers.cpp) on
every configuration, interleaved round by round with the order rotating, so load from other processes on
this shared machine hits all alike. Reports per case the best (lowest) ms over the rounds — each round's
number is already the fastest of its iterations — and the MB/s of client pixels that makes.

    bench/run.py --pixels [--rounds N] [--configs ...] [--baseline-json OLD/caldera_dev.json]

--baseline-json adds "baseline" and "baseline-gles": another Caldera build's vendor JSON run in the same
rounds (before/after numbers from one run). Writes bench/results/<date>-<host>-pixels.{json,md}.
"""
import datetime
import json
import os
import socket
import subprocess
import sys

READ_TARGET = "read_rgba8_rgba_ubyte"


def run_once(binary, env, min_seconds, width, height):
    cmd = [binary, "--min-seconds", str(min_seconds), "--width", str(width), "--height", str(height)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError("no JSON line in the output")


def markdown(results, labels):
    configs = [c for c in results["configs"] if results["configs"][c].get("cases")]
    cases = []
    for c in configs:
        for name in results["configs"][c]["cases"]:
            if name not in cases:
                cases.append(name)
    lines = [f"# Pixel transfers, {results['width']}x{results['height']} "
             f"({results['date']} {results['time_utc']} UTC, {results['host']}, {results['rounds']} rounds)",
             "", f"`{results['command']}`", "",
             "Best ms per transfer over the rounds (MB/s of client pixels in brackets); reads are glClear + "
             "glReadPixels, uploads glTexSubImage2D + glFinish.", ""]
    lines.append("| case | " + " | ".join(labels[c] for c in configs) + " |")
    lines.append("|---|" + "---|" * len(configs))
    for name in cases:
        cells = []
        for c in configs:
            entry = results["configs"][c]["cases"].get(name)
            cells.append(f"{entry['best_ms']:.3f} ({entry['best_mb_s']:.0f})" if entry else "—")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for c, entry in results["configs"].items():
        if entry.get("failures"):
            lines.append(f"\n{labels[c]}: " + "; ".join(entry["failures"]))
    return "\n".join(lines) + "\n"


def main(args, configs, command, out_dir):
    """configs: name -> {label, env, absent?} from run.py's configurations()."""
    binary = os.path.abspath(args.bench_pixels or os.path.join(os.path.abspath(args.builddir), "bench",
                                                               "caldera-bench-pixels"))
    if not os.path.exists(binary):
        sys.exit(f"{binary} not built: ninja -C {args.builddir} bench/caldera-bench-pixels")
    if args.baseline_json:
        base = configs["caldera"]["env"]
        configs["baseline"] = {"label": "baseline Caldera/Vulkan",
                               "env": dict(base, __EGL_VENDOR_LIBRARY_FILENAMES=os.path.abspath(args.baseline_json))}
        configs["baseline-gles"] = {"label": "baseline Caldera/GLES",
                                    "env": dict(configs["baseline"]["env"], CALDERA_BACKEND="gles")}
    active = [n for n, c in configs.items() if "absent" not in c]
    for n, c in configs.items():
        if "absent" in c:
            print(f"{c['label']}: absent ({c['absent']})", file=sys.stderr)
    min_seconds = 0.05 if args.smoke else 0.3 if args.quick else 0.6
    now = datetime.datetime.now(datetime.timezone.utc)
    results = {"date": now.strftime("%Y-%m-%d"), "time_utc": now.strftime("%H:%M:%S"),
               "host": socket.gethostname().split(".")[0], "command": command, "rounds": args.rounds,
               "width": 320, "height": 240, "min_seconds": min_seconds,
               "configs": {n: {"label": configs[n]["label"], "cases": {}, "runs": [], "failures": []}
                           for n in active}}
    for r in range(args.rounds):
        order = active[r % len(active):] + active[:r % len(active)]
        for name in order:
            print(f"[round {r + 1}/{args.rounds}] pixels on {name}", file=sys.stderr, flush=True)
            entry = results["configs"][name]
            try:
                run = run_once(binary, configs[name]["env"], min_seconds, 320, 240)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                entry["failures"].append(str(e))
                continue
            entry["renderer"] = run["renderer"]
            entry["runs"].append(run["cases"])
            for case, t in run["cases"].items():
                best = entry["cases"].get(case)
                if best is None or t["best_ms"] < best["best_ms"]:
                    entry["cases"][case] = {"best_ms": t["best_ms"], "best_mb_s": t["best_mb_s"]}
    labels = {n: configs[n]["label"] for n in active}
    table = markdown(results, labels)
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.join(out_dir, f"{results['date']}-{results['host']}-pixels")
    with open(stem + ".json", "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    with open(stem + ".md", "w") as f:
        f.write(table)
    print(table)
    print(f"wrote {stem}.json, {stem}.md")
    failures = [f for e in results["configs"].values() for f in e["failures"]]
    if args.smoke:
        ok = all(results["configs"][n]["cases"].get(READ_TARGET, {}).get("best_ms", 0) > 0 for n in active)
        return 0 if ok and not failures else 1
    return 0
