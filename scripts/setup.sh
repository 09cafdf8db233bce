#!/usr/bin/env bash
# Installs what OverlapScope needs to build on Debian/Ubuntu, configures and
# builds it into ./build, then installs overlapscope-cli and overlapscope into
# a prefix on PATH: /usr/local when run as root, else ~/.local (set
# OVERLAPSCOPE_PREFIX to choose; OVERLAPSCOPE_PREFIX=none skips the install).
# Safe to run again: it skips what is there.
#   scripts/setup.sh [extra cmake args]
#   scripts/setup.sh --packages-only     (only the apt packages: other scripts)
set -euo pipefail
cd "$(dirname "$0")/.."

# python3 and time: scripts/hostile-inputs.sh.
packages=(build-essential cmake ninja-build libsimdjson-dev libsqlite3-dev libjemalloc-dev qt6-base-dev qt6-svg-dev libqcustomplot-dev xvfb xauth python3 time)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ "${1:-}" != --packages-only ] || exit 0

# nvcc is often installed outside PATH; the CUDA device is built when it is found.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build --parallel

prefix=${OVERLAPSCOPE_PREFIX:-}
if [ -z "$prefix" ]; then
  if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix=$HOME/.local; fi
fi
if [ "$prefix" != none ]; then
  cmake --install build --prefix "$prefix" >/dev/null
  echo "Installed the programs (overlapscope-cli; overlapscope where Qt was found) in $prefix/bin"
  case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "Note: $prefix/bin is not on PATH; add it (export PATH=\"$prefix/bin:\$PATH\") or run build/app/cli/overlapscope-cli" ;;
  esac
fi
