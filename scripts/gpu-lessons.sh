#!/usr/bin/env bash
# Every lesson on the GPU, for the "H200 measured" column of docs/lessons.md:
#   scripts/gpu-lessons.sh OUTDIR [path/to/overlapscope-cli] [DEVICE]
# DEVICE defaults to cuda (sim:h200 runs the same on the simulator). For each
# lesson: OUTDIR/NAME.txt (what the CLI printed), OUTDIR/NAME.md (its table,
# answer, checks and takeaway, which scripts/regenerate-lessons.py reads) and
# OUTDIR/NAME.json (its runs as a trace, for the window and the slides).
# Without a CUDA GPU it says so and exits 0 having run nothing, so it can sit
# in a script run everywhere. Afterwards, on any machine:
#   cp OUTDIR/*.md OUTDIR/*.json docs/lessons-h200/ && scripts/regenerate-lessons.py \
#     && scripts/regenerate-lesson-slides.sh --from docs/lessons-h200
set -uo pipefail
out=${1:?usage: $0 OUTDIR [overlapscope-cli] [DEVICE]}
cli=${2:-build/app/cli/overlapscope-cli}
device=${3:-cuda}
if [ "$device" = cuda ] && ! "$cli" devices | grep -Eq '^cuda(:[0-9]+)? .* available'; then
  echo "SKIPPED: no CUDA GPU answers here ($("$cli" devices | grep '^cuda' | head -1))"
  exit 0
fi
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
status=0
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1 || true
for lesson in $("$cli" lesson --list | awk '{print $2}'); do
  echo "== lesson $lesson on $device"
  "$cli" lesson "$lesson" --device "$device" --quiet -o "$out/$lesson.json" --markdown "$out/$lesson.md" \
    > "$out/$lesson.txt"
  rc=$?
  cat "$out/$lesson.txt"
  echo "== exit status $rc"
  [ "$rc" -ne 0 ] && status=$rc
done
echo "== checks that did not hold on $device (none listed: all held)"
grep -H "NOT HELD" "$out"/*.txt || true
exit $status
