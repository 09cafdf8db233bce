#!/usr/bin/env bash
# Mutation testing, on demand and before a release (not in CI): each mutation
# of scripts/mutations.txt is applied alone to the source, the test programs
# that cover its folder are rebuilt and run, and the source is restored. A
# mutation the tests notice (a test fails, crashes or times out) is killed;
# one they pass is a survivor, which docs/testing.md explains or a new test
# kills. A snippet that is not found exactly once "does not apply" (the code
# moved): counted apart, never skipped in silence.
#
#   scripts/mutate.sh                 # every mutation; prints the score and the survivors
#   scripts/mutate.sh --only 3,7      # some of them (by number in the list)
#   scripts/mutate.sh --doc           # and rewrites the results block in docs/testing.md
#   nice -n 10 scripts/mutate.sh --doc   # as the figures in docs/testing.md were made
#   scripts/mutate.sh --paste         # only rewrites that block from the last run's table
#
# Environment: BUILD (the configured build folder; default build), TEST_TIMEOUT
# (seconds a test program may run; default 300).
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
build=${BUILD:-build}
timeout_s=${TEST_TIMEOUT:-300}
list=scripts/mutations.txt
results=$build/mutation-results.md
log=$build/mutation-log.txt
doc=docs/testing.md
only=""
update_doc=0
paste_only=0
while [ $# -gt 0 ]; do
    case "$1" in
    --only) only=",$2,"; shift 2 ;;
    --doc) update_doc=1; shift ;;
    --paste) update_doc=1; paste_only=1; shift ;;
    *) echo "usage: $0 [--only N,M] [--doc | --paste]" >&2; exit 2 ;;
    esac
done

paste_results() {
    python3 - "$doc" "$results" <<'EOF'
import sys
doc, results = sys.argv[1], sys.argv[2]
begin, end = "<!-- mutate.sh results: begin -->", "<!-- mutate.sh results: end -->"
text = open(doc, encoding='utf-8').read()
if text.count(begin) != 1 or text.count(end) != 1:
    sys.exit(doc + " needs one results block (" + begin + " ... " + end + ")")
head, rest = text.split(begin)
_, tail = rest.split(end)
open(doc, 'w', encoding='utf-8').write(head + begin + "\n" + open(results, encoding='utf-8').read() + end + tail)
EOF
    echo "updated the results block of $doc"
}

# A run of some mutations keeps its table apart: --paste takes the whole set's.
[ -z "$only" ] || results=$build/mutation-results-some.md

if [ "$paste_only" = 1 ]; then
    [ -f "$results" ] || { echo "no $results: run the mutations first" >&2; exit 2; }
    paste_results
    exit 0
fi
if [ "$update_doc" = 1 ] && [ -n "$only" ]; then
    echo "--doc needs the whole set, not --only" >&2
    exit 2
fi

# The test programs that cover a folder, the quickest first (a mutation is
# killed by the first that fails; the golden test, which reads every stored
# trace through the CLI, takes about 5 s, the others under 2 s).
tests_for() {
    case "$1" in
    core/replay/*) echo "tst_replay tst_findings tst_golden" ;;
    core/judgement/* | core/findings/* | core/analysis/* | core/words/* | core/json/*)
        echo "tst_findings tst_analysis tst_replay tst_golden" ;;
    core/formats/*) echo "tst_golden tst_trace_format tst_chrome_trace_import" ;;
    core/ranks/*) echo "tst_analysis tst_golden" ;;
    core/base/*) echo "tst_findings tst_analysis tst_replay tst_golden" ;;
    *) echo "" ;;
    esac
}

# The mutations: "file | original | replacement | kind: why", one a line
# (\n in a snippet is a line break); blank lines and lines starting with #
# are left out.
mapfile -t entries < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$list")
python3 - "${entries[@]}" <<'EOF'
import sys
for line in sys.argv[1:]:
    if len(line.split(" | ")) != 4:
        sys.exit('a line of mutations.txt needs 4 fields separated by " | ": ' + line)
EOF

files=$(for e in "${entries[@]}"; do printf '%s\n' "${e%% | *}"; done | sort -u)
for f in $files; do
    [ -f "$f" ] || { echo "mutations.txt names $f, which does not exist" >&2; exit 2; }
    git diff --quiet -- "$f" || { echo "$f has uncommitted changes: commit or stash them first" >&2; exit 2; }
done

backup=$(mktemp -d)
current=""
restore() {
    if [ -n "$current" ]; then
        # A fresh mtime (not cp -p): the build must see the file changed back.
        cat "$backup/current" >"$current"
        current=""
    fi
}
cleanup() {
    restore
    rm -rf "$backup"
}
trap cleanup EXIT
trap 'echo "interrupted: source restored" >&2; exit 130' INT TERM

build_quietly() {
    cmake --build "$build" --parallel 2 --target "$@" >>"$log" 2>&1
}

# Replaces the one occurrence of $2 in file $1 by $3; exit 3 when it does
# not occur exactly once.
apply_mutation() {
    python3 - "$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2].replace("\\n", "\n"), sys.argv[3].replace("\\n", "\n")
text = open(path, encoding='utf-8').read()
if text.count(old) != 1:
    sys.exit(3)
open(path, 'w', encoding='utf-8').write(text.replace(old, new))
EOF
}

: >"$log"
all_tests=$(for f in $files; do tests_for "$f"; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "baseline: building and running $all_tests"
start=$(date +%s)
build_quietly overlapscope-cli $all_tests || { echo "the unmutated tree does not build (see $log)" >&2; exit 1; }
for t in $all_tests; do
    QT_QPA_PLATFORM=offscreen timeout "$timeout_s" "$build/tests/$t" -silent >>"$log" 2>&1 \
        || { echo "$t fails on the unmutated tree: no score until it passes" >&2; exit 1; }
done

rows=()
survivors=()
killed=0 survived=0 notapplied=0 notbuilt=0 index=0
for e in "${entries[@]}"; do
    index=$((index + 1))
    IFS=$'\x1f' read -r file original replacement why < <(python3 -c '
import sys
print("\x1f".join(sys.argv[1].split(" | ")))' "$e")
    [ -z "$only" ] || [[ "$only" == *",$index,"* ]] || continue
    cp -p "$file" "$backup/current"
    current=$file
    status=0
    apply_mutation "$file" "$original" "$replacement" || status=$?
    if [ "$status" -ne 0 ]; then
        restore
        notapplied=$((notapplied + 1))
        rows+=("| $index | \`$file\` | does not apply | | $why |")
        echo "[$index] does not apply: $file: $original"
        continue
    fi
    verdict="survived" by=""
    echo "=== [$index] $file: $why" >>"$log"
    for t in $(tests_for "$file"); do
        if ! build_quietly "$t"; then
            verdict="does not build"
            break
        fi
        if ! QT_QPA_PLATFORM=offscreen timeout "$timeout_s" "$build/tests/$t" -silent >>"$log" 2>&1; then
            verdict="killed" by=$t
            break
        fi
    done
    restore
    if [ "$verdict" = killed ]; then
        killed=$((killed + 1))
    elif [ "$verdict" = "does not build" ]; then
        notbuilt=$((notbuilt + 1))
    else
        survived=$((survived + 1))
        survivors+=("[$index] $file: $why")
    fi
    rows+=("| $index | \`$file\` | $verdict | $by | $why |")
    echo "[$index] $verdict${by:+ by $by}: $why"
done

# Leave the build as the source is.
build_quietly overlapscope-cli $all_tests || true
elapsed=$(( $(date +%s) - start ))
judged=$((killed + survived))
score=$(python3 -c "print(f'{100 * $killed / $judged:.0f}%' if $judged else 'n/a')")

{
    echo "Run of $(date -u +%Y-%m-%d) on $(git rev-parse --short HEAD), $(nproc) cores: ${#entries[@]} mutations,"
    echo "$killed killed, $survived survived, $notapplied did not apply, $notbuilt did not build; score $score"
    echo "(killed of killed and survived); $((elapsed / 60)) min $((elapsed % 60)) s with the baseline build and run."
    echo
    echo "| # | file | verdict | killed by | kind: why |"
    echo "|---|------|---------|-----------|-----------|"
    printf '%s\n' "${rows[@]}"
} >"$results"

echo
echo "score: $score ($killed of $judged killed; $notapplied did not apply, $notbuilt did not build) in $((elapsed / 60)) min $((elapsed % 60)) s"
if [ ${#survivors[@]} -gt 0 ]; then
    echo "survivors:"
    printf '  %s\n' "${survivors[@]}"
fi
echo "table: $results; log: $log"

for f in $files; do
    git diff --quiet -- "$f" || { echo "$f is not as it was: restore it with git checkout -- $f" >&2; exit 1; }
done

if [ "$update_doc" = 1 ]; then
    paste_results
fi
