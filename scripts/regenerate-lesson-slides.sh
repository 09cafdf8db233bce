#!/usr/bin/env bash
# The slide sets of docs/lessons/: every lesson exported as numbered
# 1920x1080 PNG slides by the window's headless export, and the README's
# picture.
#
#   scripts/regenerate-lesson-slides.sh                 # on the simulated H200 -> docs/lessons/ID/simulated/
#   scripts/regenerate-lesson-slides.sh --cuda          # on this host's CUDA GPU -> docs/lessons/ID/h200/
#   scripts/regenerate-lesson-slides.sh --from DIR      # from DIR/ID.json -> docs/lessons/ID/h200/
#   ... [ID ...]                                        # only those lessons (default: every one)
#
# --from reads the traces scripts/gpu-lessons.sh OUTDIR wrote on the H200
# (`overlapscope-cli lesson ID -o OUTDIR/ID.json`, default chunk size): the
# GPU server needs no Qt, the slides are made here, judged again from the
# recording. --cuda runs the lessons on this host's GPU and refuses (exit 4)
# where none answers. Either way the set is labelled with the device; a
# simulated one says "[simulated]" on every slide.
#
# Each set is written to a temporary folder and then replaces the old one,
# so a failure leaves the docs as they were. docs/lessons/README.md lists the
# sets; docs/images/lesson-slide.png (the README's picture) is the second
# focus slide of one-vs-several-streams (three streams overlapping, beside
# one), from the H200 set where there is one. Only the focus, chart (wall
# time against the swept parameter) and results slides go into docs (size);
# `overlapscope export --lesson ID -o DIR` makes the whole set (title,
# question, sweep and every run too).
# Environment: OVERLAPSCOPE_GUI (default build/app/gui/overlapscope).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gui=${OVERLAPSCOPE_GUI:-$root/build/app/gui/overlapscope}
mode=sim
from=
case "${1:-}" in
  --cuda) mode=cuda; shift ;;
  --from) mode=from; from=$(cd "${2:?--from needs the folder scripts/gpu-lessons.sh wrote}" && pwd); shift 2 ;;
  -*) echo "usage: $0 [--cuda | --from DIR] [ID ...]" >&2; exit 2 ;;
esac
[ -x "$gui" ] || { echo "no $gui: build it first (cmake --build build --target overlapscope)" >&2; exit 2; }

docs=$root/docs/lessons
mkdir -p "$docs" "$root/docs/images"
case $mode in
  sim) sub=simulated ;;
  *) sub=h200 ;;
esac

status=0
all=$("$gui" export --lesson --list | awk '{print $2}')
for id in "$@"; do
  grep -qx -- "$id" <<<"$all" || { echo "no lesson '$id' (one of: $(echo $all))" >&2; exit 2; }
done
for id in ${*:-$all}; do
  target=$docs/$id/$sub
  tmp=$(mktemp -d "$docs/.$id.XXXXXX")
  case $mode in
    sim)  args=(--device sim:h200) ;;
    cuda) args=(--device cuda) ;;
    from) if [ ! -f "$from/$id.json" ]; then echo "== $id: no $from/$id.json, skipped"; rmdir "$tmp"; continue; fi
          args=(--from "$from/$id.json") ;;
  esac
  echo "== $id ($sub)"
  # The folder shown in index.md is the one in the repository, not the temporary one.
  # Only the focus, chart and results slides: ten whole sets would weigh
  # ~5 MB per device (index.md says so; the command without --only makes them all).
  if "$gui" export --lesson "$id" -o "$tmp" "${args[@]}" --only focus,chart,results --quiet; then rc=0; else rc=$?; fi
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    # Usage, no device, cancelled: nothing worth keeping.
    rm -rf "$tmp"; status=$rc; continue
  fi
  # 1: written, but a run failed or did not verify (the slides say so): kept.
  [ "$rc" -eq 1 ] && status=1
  sed -i "s#-o $tmp#-o docs/lessons/$id/$sub#; s#--from $from/#--from OUTDIR/#" "$tmp/index.md"
  rm -rf "$target"
  mkdir -p "$(dirname "$target")"
  mv "$tmp" "$target"
done

# The list of sets, for GitHub's folder view.
{
  echo "# Lesson slides"
  echo
  echo "Every lesson's slides as \`overlapscope export --lesson ID -o DIR\` makes them (1920x1080 PNG)."
  echo "Kept here: one slide per thing to look at, the chart of a lesson that sweeps a parameter (wall"
  echo "time against it, with each run's bound), and the results (answer, checks, takeaway); the"
  echo "command makes the whole set (also title, question, the sweep where there is one, and every run"
  echo "on one time axis). Made by \`scripts/regenerate-lesson-slides.sh\` (see docs/lessons.md)."
  echo "\`simulated/\` sets ran on the simulated H200 and say \"[simulated]\" on every slide; \`h200/\` sets"
  echo "were recorded on the H200."
  echo
  echo "| # | lesson | slide sets |"
  echo "|---:|---|---|"
  "$gui" export --lesson --list | while read -r number id title; do
    sets=
    for s in h200 simulated; do
      [ -f "$docs/$id/$s/index.md" ] && sets="$sets [$s]($id/$s/index.md)"
    done
    echo "| $number | $title | ${sets:- not made yet} |"
  done
} > "$docs/README.md.tmp" && mv "$docs/README.md.tmp" "$docs/README.md"

# The README's picture, from the H200 where it was recorded.
for s in h200 simulated; do
  slide=$(ls "$docs/one-vs-several-streams/$s/"*-focus-2.png 2>/dev/null | head -1 || true)
  if [ -n "$slide" ]; then
    cp "$slide" "$root/docs/images/lesson-slide.png.tmp" && mv "$root/docs/images/lesson-slide.png.tmp" "$root/docs/images/lesson-slide.png"
    echo "README picture: $slide"
    break
  fi
done
du -sh "$docs"
exit $status
