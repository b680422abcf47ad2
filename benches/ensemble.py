#!/usr/bin/env python3
"""Runs a scene many times, each perturbed by `sandbox bench --perturb K`
(every dynamic body moved sideways by K x 10 um before the first step), and
prints the spread of its deepest penetration, its bodies still awake at the
end and its time per step.

A chaotic scene such as `trees` has no single trustworthy "max penetration":
runs 10 um apart end on different trajectories, and the deepest contact of
one run is one draw from a wide spread. Two builds are compared by running
both here over the same K, alternating them run by run so that a change in
the machine's load falls on both (see benches/SPREAD.md).

Usage: benches/ensemble.py SCENE RUNS [--size S] [--steps N] BINARY...
       e.g. benches/ensemble.py trees 40 --steps 500 old/sandbox new/sandbox
"""

import argparse
import json
import statistics
import subprocess


def run(binary, scene, size, steps, k):
    args = [binary, "bench", "--scene", scene, "--perturb", str(k), "--json"]
    if size is not None:
        args += ["--size", str(size)]
    if steps is not None:
        args += ["--steps", str(steps)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def quantiles(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return f"median {pick(0.5):.4g}  90% {pick(0.9):.4g}  max {values[-1]:.4g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scene")
    parser.add_argument("runs", type=int)
    parser.add_argument("--size", type=int)
    parser.add_argument("--steps", type=int)
    parser.add_argument("binaries", nargs="+")
    opts = parser.parse_args()
    results = {b: [] for b in opts.binaries}
    for k in range(opts.runs):
        for b in opts.binaries:
            r = run(b, opts.scene, opts.size, opts.steps, k)
            results[b].append(r)
            print(f"{b} K={k} max_penetration {r['max_penetration']:.4f} "
                  f"awake {r['awake']} ms/step {r['ms_per_step']:.3f}", flush=True)
    for b, rs in results.items():
        pens = [r["max_penetration"] for r in rs]
        print(f"\n{b}: {len(rs)} runs")
        print(f"  max penetration (m): {quantiles(pens)}; "
              f"runs over 0.1 m: {sum(p > 0.1 for p in pens)}")
        print(f"  awake at the end: {quantiles([r['awake'] for r in rs])}; "
              f"mean {statistics.mean(r['awake'] for r in rs):.2f}")
        print(f"  ms/step: {quantiles([r['ms_per_step'] for r in rs])}")


if __name__ == "__main__":
    main()
