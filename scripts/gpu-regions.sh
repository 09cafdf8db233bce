#!/usr/bin/env bash
# Checks the per-step findings (issue 19, part 5) on a GPU machine, with
# binaries built elsewhere (see scripts/gpu-what-if.sh for BUILD_DIR):
#   scripts/gpu-regions.sh [OUTDIR] [BUILD_DIR]
#
# The PyTorch example as a training loop (--steps: profiler steps, step 0
# pays the pinned allocations, record_function ranges per chunk) runs plain
# and with --fix, REPS times each unprofiled (REGIONS_REPS, default 3): the
# measured per-step saving is the best plain median step (steps 1 and on)
# minus the best --fix one. One more run of each records its Kineto trace
# (--trace); `analyze --json` of the plain trace judges each step on its own,
# and its median per-step saving with every fix (the replay) is the
# prediction. NVTX_EXAMPLES="NAME ..." adds example programs with NVTX ranges,
# profiled plain and --fix under overlapscope-cli: their traces must carry
# the ranges, and the loop range is judged.
#
# OUTDIR gets: regions-log.txt (what ran and analyze's text), regions.json
# (measured and predicted per case) and regions-traces.tar.gz (the traces).
set -uo pipefail
out=${1:-${OUT:?usage: $0 OUTDIR [BUILD_DIR] (or set OUT)}}
build=${2:-build}
reps=${REGIONS_REPS:-3}
steps=${REGIONS_STEPS:-6}
cli=$build/app/cli/overlapscope-cli
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_LIBRARY_PATH=$(cd "$build/app/cli" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/regions.XXXXXX)
log=$out/regions-log.txt
: >"$log"

say() { echo "$*" | tee -a "$log"; }

torch_case() {
  local mode=$1 flag=$2
  for rep in $(seq 1 "$reps"); do
    python3 "$here/examples/torch_sync_per_chunk.py" --steps "$steps" $flag >"$work/torch-$mode-$rep.txt" 2>&1
    say "torch $mode $rep: $(tail -1 "$work/torch-$mode-$rep.txt")"
  done
  python3 "$here/examples/torch_sync_per_chunk.py" --steps "$steps" $flag --trace "$work/torch-$mode.json" \
    >"$work/torch-$mode-traced.txt" 2>&1
  say "torch $mode traced: $(head -1 "$work/torch-$mode-traced.txt")"
  "$cli" analyze "$work/torch-$mode.json" >>"$log" 2>&1
  "$cli" analyze --json "$work/torch-$mode.json" >"$work/torch-$mode.analysis.json" 2>>"$log"
}

if python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  torch_case plain ""
  torch_case fix "--fix"
else
  say "torch: skipped (no python3 with torch and CUDA)"
fi

for name in ${NVTX_EXAMPLES:-}; do
  for mode in plain fix; do
    flag=""
    [ "$mode" = fix ] && flag="--fix"
    "$cli" profile --quiet -o "$work/$name-$mode.json" -- "$build/examples/$name" $flag >"$work/$name-$mode.txt" 2>&1
    say "$name $mode: $(tail -1 "$work/$name-$mode.txt")"
    "$cli" analyze "$work/$name-$mode.json" >>"$log" 2>&1
    "$cli" analyze --json "$work/$name-$mode.json" >"$work/$name-$mode.analysis.json" 2>>"$log"
  done
done

python3 - "$work" "$out/regions.json" "${NVTX_EXAMPLES:-}" <<'EOF' 2>&1 | tee -a "$log"
import glob, json, os, re, statistics, sys
work, dest, nvtx = sys.argv[1], sys.argv[2], sys.argv[3].split()
results = {}
def medians(mode):
    found = []
    for path in sorted(glob.glob(f"{work}/torch-{mode}-[0-9]*.txt")):
        m = re.search(r"median of steps 1 and on ([0-9.]+) ms", open(path).read())
        if m:
            found.append(float(m.group(1)))
    return found
plain, fix = medians("plain"), medians("fix")
if plain and fix and os.path.exists(f"{work}/torch-plain.analysis.json"):
    analysis = json.load(open(f"{work}/torch-plain.analysis.json"))
    run = max(analysis["runs"], key=lambda r: len(r.get("regions", [])))
    steps = next((g for g in run.get("regions", []) if g["name"].startswith("ProfilerStep")), None)
    measured = min(plain) - min(fix)
    predicted = steps["allFixesSavingMs"] if steps else None
    fixed_traced = None
    if os.path.exists(f"{work}/torch-fix.analysis.json"):
        fixed = max(json.load(open(f"{work}/torch-fix.analysis.json"))["runs"], key=lambda r: len(r.get("regions", [])))
        fixed_traced = next((g["medianMs"] for g in fixed.get("regions", []) if g["name"].startswith("ProfilerStep")), None)
    results["torch_sync_per_chunk --steps"] = {
        "plainStepMs": plain, "fixStepMs": fix, "measuredSavingMs": measured,
        "predictedSavingMs": predicted, "judged": run.get("judged"), "fixTracedStepMs": fixed_traced,
        "steps": steps, "ratio": (predicted / measured) if predicted and measured > 0 else None}
    print(f"torch steps: measured saving {measured:.3f} ms per step (best median {min(plain):.3f} -> {min(fix):.3f}); "
          f"predicted {predicted} ms per step")
for name in nvtx:
    for mode in ("plain", "fix"):
        path = f"{work}/{name}-{mode}.analysis.json"
        if os.path.exists(path):
            run = json.load(open(path))["runs"][0]
            results[f"{name} {mode}"] = {"judged": run.get("judged"), "activeSpanMs": run.get("activeSpanMs"),
                                         "whatIf": run.get("whatIf"),
                                         "findings": [(f["kind"], f["costMs"]) for f in run["findings"]]}
            print(f"{name} {mode}: judged {run.get('judged')}")
json.dump(results, open(dest, "w"), indent=1)
EOF
tar -czf "$out/regions-traces.tar.gz" -C "$work" . 2>/dev/null
echo "regions check done: $out/regions.json"
