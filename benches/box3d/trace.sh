#!/usr/bin/env bash
# Builds and runs benches/box3d/trace.c against a box3d build made by
# run.sh (its static libraries `libbox3d.a` and `libshared.a`), to print
# how one of box3d's scenes settles step by step; compare with
# `sandbox bench --scene NAME --trace-every N`. Not run by CI.
#
# Usage: benches/box3d/trace.sh SCENE [STEPS] [EVERY]   (box3d's names)
# Environment: BOX3D_SRC, BOX3D_BUILD as for run.sh (built by it first).
set -euo pipefail

BOX3D_SRC=${BOX3D_SRC:-/tmp/box3d-src}
BOX3D_BUILD=${BOX3D_BUILD:-/tmp/box3d-build}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BOX3D_BUILD/trace

if [ ! -e "$BOX3D_BUILD/src/libbox3d.a" ] || [ ! -e "$BOX3D_BUILD/shared/libshared.a" ]; then
    echo "no box3d build at $BOX3D_BUILD: run benches/box3d/run.sh first" >&2
    exit 2
fi
cc -O2 -std=c17 -D_POSIX_C_SOURCE=199309L -I"$BOX3D_SRC/include" -I"$BOX3D_SRC/shared" \
    "$HERE/trace.c" -o "$OUT" \
    "$BOX3D_BUILD/shared/libshared.a" "$BOX3D_BUILD/src/libbox3d.a" -lm -lpthread
exec "$OUT" "$@"
