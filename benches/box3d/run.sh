#!/usr/bin/env bash
# Times box3d's benchmark scenes that the sandbox can build, side by side:
# box3d's own `benchmark` app (commit 30c67b5, CMake Release, built outside
# the repository) and `sandbox bench`, at 1 and 2 threads, alternating the
# two engines run by run so that a change in the machine's load falls on
# both. Prints one line per run and then the medians; benches/VS_BOX3D.md
# holds a labelled result. Not run by CI (it builds a C project).
#
# Usage: benches/box3d/run.sh [RUNS] [SCENES]   (default 3 runs of each
#        scene; SCENES the sandbox's names, comma-separated, default all)
# Environment:
#   BOX3D_SRC    a checkout of erincatto/box3d (cloned and checked out at
#                30c67b5 if missing; default /tmp/box3d-src)
#   BOX3D_BUILD  its build directory (default /tmp/box3d-build)
#   SANDBOX      the sandbox binary (default target/release/sandbox, built
#                with `cargo build --release -p sandbox` if missing)
set -euo pipefail

COMMIT=30c67b5
RUNS=${1:-3}
BOX3D_SRC=${BOX3D_SRC:-/tmp/box3d-src}
BOX3D_BUILD=${BOX3D_BUILD:-/tmp/box3d-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SANDBOX=${SANDBOX:-$ROOT/target/release/sandbox}

if [ ! -e "$BOX3D_SRC/CMakeLists.txt" ]; then
    git clone https://github.com/erincatto/box3d "$BOX3D_SRC"
    git -C "$BOX3D_SRC" checkout "$COMMIT"
fi
if [ ! -x "$BOX3D_BUILD/bin/benchmark" ]; then
    cmake -S "$BOX3D_SRC" -B "$BOX3D_BUILD" -DCMAKE_BUILD_TYPE=Release \
        -DBOX3D_BENCHMARKS=ON -DBOX3D_VALIDATE=OFF -DBOX3D_SAMPLES=OFF -DBOX3D_UNIT_TESTS=OFF
    cmake --build "$BOX3D_BUILD" -j2 --target benchmark
fi
if [ ! -x "$SANDBOX" ]; then
    (cd "$ROOT" && cargo build --release -p sandbox)
fi
BENCHMARK=$BOX3D_BUILD/bin/benchmark
exec python3 "$(dirname "$0")/run.py" "$BENCHMARK" "$SANDBOX" "$RUNS" ${2:+"$2"}
