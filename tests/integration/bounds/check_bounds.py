#!/usr/bin/env python3
"""Resource bounds: runs a workload of bench/caldera-bench-gl for many frames through Caldera and checks that
what it holds stays flat after warm-up: the process's resident memory (sampled from /proc while it runs),
device memory blocks and sub-allocations (the Vulkan allocator's own counters) and Vulkan objects (buffers,
images, programs, pipelines, samplers, garbage, ring pages, descriptor pools, command buffers). Caldera
appends those counters to CALDERA_STATS every CALDERA_STATS_SAMPLE_EVERY frames (one glFinish a frame)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# Counters that must not grow after warm-up; garbage may hold a bounded backlog of retired objects.
FLAT = ["device_allocations", "live_suballocations", "live_buffers", "live_images", "live_programs",
        "samplers", "ring_pages", "descriptor_pools", "command_buffers", "pipelines_live"]
GARBAGE_BOUND = 256


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--workload", required=True)
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--samples", type=int, default=10, help="counter samples over the run")
    ap.add_argument("--vendor-json", required=True)
    ap.add_argument("--max-rss-growth-mib", type=float, default=8.0)
    args = ap.parse_args()

    if os.environ.get("CALDERA_SANITIZED"):
        # The sanitizer multiplies each frame's cost and resident memory is not checked there (below): a
        # quarter of the frames still gives every counter sample, which must stay flat.
        args.frames = max(args.frames // 4, 20 * args.samples)
    every = max(1, args.frames // args.samples)
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        env = dict(os.environ)
        env.update({"__EGL_VENDOR_LIBRARY_FILENAMES": args.vendor_json, "CALDERA_STATS": stats,
                    "CALDERA_STATS_SAMPLE_EVERY": str(every)})
        start = time.monotonic()
        proc = subprocess.Popen([args.binary, "--workload", args.workload, "--frames", str(args.frames),
                                 "--warmup", "1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        rss = []  # (seconds since start, KiB)
        while proc.poll() is None:
            value = rss_kib(proc.pid)
            if value:
                rss.append((time.monotonic() - start, value))
            time.sleep(0.05)
        out = proc.stdout.read()
        sys.stdout.write(out[-2000:])
        if proc.returncode != 0:
            print(f"FAIL: the workload exited {proc.returncode}")
            return 1
        samples = []
        with open(stats) as f:
            for line in f:
                row = json.loads(line)
                if "sample" in row:
                    samples.append(row)

    failed = False
    if len(samples) < 4:
        print(f"FAIL: {len(samples)} counter samples (want at least 4: is CALDERA_STATS_SAMPLE_EVERY honoured?)")
        return 1
    # Warm-up: the first two samples (the first fifth of the run) set the bound.
    for key in FLAT:
        bound = max(s[key] for s in samples[:2])
        later = [s[key] for s in samples[2:]]
        worst = max(later)
        print(f"{key}: warm-up {bound}, later max {worst}")
        if worst > bound:
            print(f"FAIL: {key} grew after warm-up: {[s[key] for s in samples]}")
            failed = True
    worst_garbage = max(s["garbage"] for s in samples)
    print(f"garbage: max {worst_garbage}")
    if worst_garbage > GARBAGE_BOUND:
        print(f"FAIL: {worst_garbage} retired objects waiting at a glFinish (bound {GARBAGE_BOUND})")
        failed = True
    # Resident memory: the peak of the last half against the level at a fifth of the run. Under
    # AddressSanitizer freed memory waits in a quarantine, so resident memory says nothing there.
    if os.environ.get("CALDERA_SANITIZED"):
        print("note: resident memory not checked under a sanitizer (its quarantine holds freed memory)")
    elif len(rss) >= 8:
        total = rss[-1][0]
        quarter = [v for t, v in rss if t >= total * 0.2][:3]
        base = max(quarter) if quarter else rss[0][1]
        late = max(v for t, v in rss if t >= total * 0.5)
        growth = (late - base) / 1024.0
        print(f"resident memory: {base / 1024.0:.1f} MiB at a fifth of the run, peak {late / 1024.0:.1f} MiB "
              f"in the second half ({growth:+.1f} MiB), {len(rss)} samples over {total:.1f} s")
        if growth > args.max_rss_growth_mib:
            print(f"FAIL: resident memory grew {growth:.1f} MiB (bound {args.max_rss_growth_mib} MiB)")
            failed = True
    else:
        print(f"note: only {len(rss)} resident-memory samples (the run was short)")
    print("FAIL" if failed else "resource bounds held")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
