#!/usr/bin/env bash
# The test suite under sanitizers, as .ci/run runs it:
#   asan: every test, built with AddressSanitizer and UndefinedBehaviorSanitizer
#         (float-cast-overflow too); any finding fails the test.
#   tsan: the tests that run work on several threads (CTest label "threaded"),
#         built with ThreadSanitizer.
# Builds in build-asan/ and build-tsan/, without CUDA: the sanitizers cannot
# see into the CUDA runtime, and the CUDA tests skip on CI's GPU-less machine.
# Suppressions (Qt's own internals only) are in .ci/.
#   scripts/sanitize.sh [asan] [tsan]    (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --packages-only
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(asan tsan)

# -O1 keeps the stacks readable and the tests fast; -g1 is enough for
# file:line in reports and links far faster than full debug info.
common_flags="-O1 -g1 -fno-omit-frame-pointer"

# Unity build: each library compiles its sources 16 to a file, so the headers
# they share (Qt's above all) are parsed and instrumented once per 16, not
# once per source; most of these stages' time is this compile. Each test is
# one source and stays one. Include hygiene is not lost: the plain build
# (scripts/test.sh) still compiles every source on its own. 16 at a time
# under ASan took at most 1.2 GB per compiler (README.md, "Build and test
# time"): two at once stay under 2.5 GB.
# The Python module is left out (-DOVERLAPSCOPE_PYTHON=OFF): an extension
# built with a sanitizer loads only into a python3 started with the
# sanitizer's runtime preloaded, which reports CPython's own allocations as
# leaks; the module's C++ is the core these stages already test, and its
# tests (python/tests) run against the plain build in scripts/test.sh.
configure() { # folder, flags
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=None -DOVERLAPSCOPE_CUDA=OFF -DOVERLAPSCOPE_BENCHES=OFF -DOVERLAPSCOPE_PYTHON=OFF \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
    -DCMAKE_CXX_FLAGS="$common_flags $2" \
    -DCMAKE_EXE_LINKER_FLAGS="$2" -DCMAKE_SHARED_LINKER_FLAGS="$2" >/dev/null
}

# A stage whose tests fail does not stop the next: every stage reports.
failed=()
for stage in "${stages[@]}"; do
  case "$stage" in
  asan)
    echo "== AddressSanitizer + UndefinedBehaviorSanitizer: every test =="
    # The tests' waits for other threads and processes are three times as
    # long here (tests/TestTimeouts.h): two to five times slower, and a
    # wait ends as soon as its event comes, so only a hang costs more.
    flags="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow"
    configure build-asan "$flags"
    cmake --build build-asan --parallel
    (cd build-asan &&
      ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
      LSAN_OPTIONS="suppressions=$PWD/../.ci/lsan.supp:print_suppressions=0" \
      UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      OVERLAPSCOPE_TEST_TIMEOUT_SCALE=3 QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 --parallel "$(nproc)") || failed+=(asan)
    ;;
  tsan)
    echo "== ThreadSanitizer: the threaded tests =="
    # Qt is not built with TSan: ignore_noninstrumented_modules makes the
    # calls Qt itself makes into the runtime (its frees, memcpys, waits) count
    # as Qt's own, unchecked like the rest of its code, while every access our
    # instrumented code makes is still checked (docs/reliability.md).
    # TSan runs a test 5 to 20 times slower: QtTest's own 300 s limit per test
    # function (tst_pipelines' H200-model comparison takes about 310 s here)
    # gives way to CTest's 600 s per test, and the tests' own waits for
    # work on other threads are three times as long (tests/TestTimeouts.h).
    configure build-tsan "-fsanitize=thread"
    cmake --build build-tsan --parallel --target threaded-tests
    (cd build-tsan &&
      TSAN_OPTIONS="suppressions=$PWD/../.ci/tsan.supp:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0:ignore_noninstrumented_modules=1" \
      QTEST_FUNCTION_TIMEOUT=590000 OVERLAPSCOPE_TEST_TIMEOUT_SCALE=3 QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 --parallel "$(nproc)" -L threaded) || failed+=(tsan)
    ;;
  *)
    echo "unknown stage '$stage' (asan, tsan)" >&2
    exit 2
    ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "sanitizer stages with failing tests: ${failed[*]}"
  exit 1
fi
echo "sanitizer stages passed: ${stages[*]}"
