"""Alternates box3d's `benchmark` app and `sandbox bench` on box3d's scenes
that the sandbox can build, at 1 and 2 threads, and prints each run and
the medians. Called by run.sh (which builds both); see benches/VS_BOX3D.md.

Each run records:
- the time the engine itself reports for the scene's steps 2..S, like for
  like (box3d: "run 0 : <ms>", its first step being outside its timer; the
  sandbox: `later_steps_ms` of `sandbox bench --json`, its steps 2..S with
  the scene's driver), which is wall time and so grows with the machine's
  load;
- beside it, the sandbox's time for every step, the first included
  (ms_per_step x S), which box3d does not report: the first step carries
  one-off work (large-world's first build of the fixed bodies' hierarchy);
- the CPU time (user + system) of the whole process, world creation
  included, which the load affects far less on one thread;
- the 1-minute load average just before the run.

Usage: python3 run.py BENCHMARK SANDBOX [RUNS] [SCENES]
(SCENES: the sandbox's names, comma-separated; default all of them.)
"""

import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile

# box3d's name, the sandbox's, box3d's step count.
SCENES = [
    ("large_pyramid", "large-pyramid", 200),
    ("many_pyramids", "many-pyramids", 100),
    ("convex_pile", "convex-pile", 500),
    ("joint_grid", "joint-grid", 100),
    ("washer", "washer", 1000),
    ("junkyard", "junkyard", 500),
    ("large_world", "large-world", 500),
    ("trees100", "trees", 500),
]


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def timed(cmd, cwd):
    """Runs cmd; returns its stdout and the CPU seconds it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, cpu


def box3d(benchmark, name, threads, cwd):
    cmd = [benchmark, f"-t={threads}", f"-w={threads}", f"--benchmark={name}", "-r=1"]
    out, cpu = timed(cmd, cwd)
    ms = float(re.search(r"^run 0 : (\S+) \(ms\)$", out, re.M).group(1))
    # box3d times steps 2..S only.
    return ms, None, cpu


def sandbox(binary, name, steps, threads, cwd):
    cmd = [binary, "bench", "--scene", name, "--steps", str(steps), "--threads", str(threads), "--json"]
    out, cpu = timed(cmd, cwd)
    report = json.loads(out.strip().splitlines()[-1])
    every = report["ms_per_step"] * report["steps"]
    # Binaries older than the field timed every step only.
    later = report.get("later_steps_ms")
    return (every if later is None else later), every, cpu


def main():
    benchmark, binary = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if len(sys.argv) > 4:
        wanted = sys.argv[4].split(",")
        unknown = set(wanted) - {s for _, s, _ in SCENES}
        if unknown:
            sys.exit(f"unknown scenes: {sorted(unknown)}")
        SCENES[:] = [row for row in SCENES if row[1] in wanted]
    scenes = SCENES
    rows = []
    # box3d writes its .csv/.dat files into the working directory.
    with tempfile.TemporaryDirectory() as cwd:
        print(f"{'scene':<15}{'thr':>4}{'engine':>9}{'run':>4}{'ms':>10}{'all ms':>10}{'cpu s':>8}{'load':>7}",
              flush=True)
        for run in range(1, runs + 1):
            for b_name, s_name, steps in scenes:
                for threads in (1, 2):
                    for engine in ("box3d", "sandbox"):
                        l = load()
                        if engine == "box3d":
                            ms, every, cpu = box3d(benchmark, b_name, threads, cwd)
                        else:
                            ms, every, cpu = sandbox(binary, s_name, steps, threads, cwd)
                        rows.append((s_name, threads, engine, ms, cpu, l, every))
                        all_ms = "-" if every is None else f"{every:.1f}"
                        print(f"{s_name:<15}{threads:>4}{engine:>9}{run:>4}{ms:>10.1f}{all_ms:>10}"
                              f"{cpu:>8.2f}{l:>7.2f}", flush=True)
    print()
    print("medians: the engines' own ms over steps 2..S (then the sandbox's over every"
          " step), process CPU s, sandbox / box3d")
    print(f"{'scene':<15}{'thr':>4}{'box3d ms':>10}{'sandbox':>10}{'ratio':>7}{'all steps':>11}"
          f"{'box3d cpu':>11}{'sandbox':>9}{'ratio':>7}{'load':>12}")
    for _, s_name, _ in scenes:
        for threads in (1, 2):
            sel = [r for r in rows if r[0] == s_name and r[1] == threads]
            med = lambda engine, k: statistics.median(r[k] for r in sel if r[2] == engine)
            bm, sm, bc, sc = med("box3d", 3), med("sandbox", 3), med("box3d", 4), med("sandbox", 4)
            se = med("sandbox", 6)
            loads = [r[5] for r in sel]
            print(f"{s_name:<15}{threads:>4}{bm:>10.1f}{sm:>10.1f}{sm / bm:>7.2f}{se:>11.1f}"
                  f"{bc:>11.2f}{sc:>9.2f}{sc / bc:>7.2f}{min(loads):>6.1f}-{max(loads):<5.1f}")


if __name__ == "__main__":
    main()
