#!/usr/bin/env bash
# Packs what the lent GPU machine needs from a full build into one archive
# small enough to carry there (64 MiB a call, the repository's tracked files,
# some 30 MiB, included): the stripped CLI, the injection library without
# its debug information, libsimdjson (the machine lacks it), libdw and
# libelf (the CLI reads call stacks with them) and libunwind.so.8 (the
# injection library opens it from its own folder first: profile --stacks),
# the example programs with their debug information compressed (their call
# sites name file and line; PACK_STRIP_EXAMPLES=1 strips them, which leaves
# function and offset), the CUDA test programs stripped but for the one that
# checks file and line of its own calls (compressed instead), and the Qt
# runtime those load (../shared/device/pack-qt-runtime.sh). Binaries
# compress about sixfold with xz, which is what makes one call carry it all.
#   scripts/pack-gpu-build.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, build-gpu)
# writes OUT_DIR/ and OUT_DIR.tar.xz; carry the archive (run's carry:
# ["build-gpu.tar.xz"]), then on the machine:
#   mkdir -p build-gpu && tar xJf build-gpu.tar.xz -C build-gpu
#   scripts/gpu-tests.sh "$OUT" build-gpu      (the tests that need a GPU)
#   scripts/gpu-what-if.sh "$OUT" build-gpu    (the what-if check, docs/what-if.md)
#   scripts/measure-stack-overhead.sh "$OUT" build-gpu   (docs/profiling.md)
set -euo pipefail
build=${1:-build}
dest=${2:-build-gpu}
tests=(tst_cuda_device tst_cuda_strategies tst_engine_timing tst_process_run_builder tst_profile_examples)
rm -rf "$dest"
mkdir -p "$dest/app/cli" "$dest/examples" "$dest/tests"
strip -o "$dest/app/cli/overlapscope-cli" "$build/app/cli/overlapscope-cli"
strip --strip-debug -o "$dest/app/cli/liboverlapscope-inject.so" "$build/app/cli/liboverlapscope-inject.so"
# ldconfig's list is read whole before awk looks at it: awk leaving early
# would end ldconfig by SIGPIPE, which pipefail makes this script's failure.
libs=$(ldconfig -p)
cp "$(awk '/libsimdjson.so.14 / {print $NF; exit}' <<<"$libs")" "$dest/app/cli/"
for lib in libdw.so.1 libelf.so.1 libunwind.so.8; do
  path=$(awk -v l="$lib" '$1 == l {print $NF; exit}' <<<"$libs")
  if [ -n "$path" ]; then cp -L "$path" "$dest/app/cli/$lib"; else echo "pack-gpu-build.sh: no $lib here: profile --stacks will say so there" >&2; fi
done
for e in $(find "$build/examples" -maxdepth 1 -type f -perm -u+x); do
  if [ "${PACK_STRIP_EXAMPLES:-0}" = 1 ]; then
    strip -o "$dest/examples/$(basename "$e")" "$e"
  else
    objcopy --compress-debug-sections=zlib "$e" "$dest/examples/$(basename "$e")"
  fi
done
# tst_process_run_builder checks that its own calls symbolize to its file
# and line, so it keeps its debug information (compressed; libdw reads it).
for t in "${tests[@]}"; do
  if [ "$t" = tst_process_run_builder ]; then
    objcopy --compress-debug-sections=zlib "$build/tests/$t" "$dest/tests/$t"
  else
    strip -o "$dest/tests/$t" "$build/tests/$t"
  fi
done
# The tests find the CLI by the absolute path compiled into them.
realpath "$build/app/cli/overlapscope-cli" >"$dest/cli-path.txt"
"$(dirname "$0")/../../shared/device/pack-qt-runtime.sh" "$dest/qt-runtime.tar.xz" "$dest"/tests/*
tar cJf "$dest.tar.xz" -C "$dest" .
du -sh "$dest" "$dest.tar.xz"
