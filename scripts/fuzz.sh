#!/usr/bin/env bash
# Builds the trace readers' libFuzzer targets (fuzz/*.cpp) with clang and
# AddressSanitizer + UndefinedBehaviorSanitizer, then runs each for SECONDS
# (default 60) on its seed corpus (tests/fuzz-corpus/<name>/, the target's
# name without fuzz_ and _trace or _report: chrome, native, nsight,
# profile_stream). New inputs
# go to build-fuzz/corpus/<target>/, crashes to build-fuzz/crashes/.
#   scripts/fuzz.sh [SECONDS]
# Needs clang-14 and libfuzzer-14-dev (Debian), plus libsimdjson-dev and
# libsqlite3-dev (the loader reads Nsight Systems reports too); it
# builds on its own, outside the CMake build.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
cxx="${CXX_FUZZ:-clang++-14}"
command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang-14 libfuzzer-14-dev)" >&2; exit 2; }

out=build-fuzz
mkdir -p "$out/obj" "$out/crashes"
flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -Icore -DOVERLAPSCOPE_VERSION=\"fuzz\")
# What the readers need: the formats layer and those below it (core/layers.txt;
# of cupti, what builds without CUPTI's headers: the list core/CMakeLists.txt keeps;
# symbols without libdw: the stream's call stacks are read, not symbolized).
sources=(core/base/*.cpp core/io/*.cpp core/trace/*.cpp core/cupti/OpKinds.cpp core/cupti/ClockMap.cpp core/cupti/BufferLoss.cpp core/symbols/*.cpp core/profile/*.cpp core/formats/*.cpp)
objects=()
for src in "${sources[@]}"; do
  obj="$out/obj/$(echo "$src" | tr / _).o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find core -name '*.h' -newer "$obj" -print -quit)" ]; then
    "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
  fi
  objects+=("$obj")
done

status=0
for target in fuzz/fuzz_*.cpp; do
  name="$(basename "$target" .cpp)"
  corpus="${name#fuzz_}"
  corpus="${corpus%_trace}"
  corpus="${corpus%_report}"
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "$target" "${objects[@]}" -lsimdjson -lsqlite3 -o "$out/$name"
  mkdir -p "$out/corpus/$corpus"
  echo "== $name for ${seconds}s"
  # -rss_limit_mb: a reader must stay bounded on any input.
  if ! "$out/$name" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
        -artifact_prefix="$out/crashes/$name-" -print_final_stats=1 \
        "$out/corpus/$corpus" "tests/fuzz-corpus/$corpus" 2>&1 | tee "$out/$name.log" | grep -E "^(==|#[0-9]+ +DONE|stat::|INFO: -max_total_time|SUMMARY|ERROR)" ; then
    :
  fi
  if grep -qE "ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error:|SUMMARY:" "$out/$name.log"; then
    echo "fuzz.sh: $name found a problem; see $out/$name.log and $out/crashes/" >&2
    status=1
  fi
done
exit $status
