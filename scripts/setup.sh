#!/usr/bin/env bash
# Installs what OverlapScope needs to build on Debian/Ubuntu, configures and
# builds it into ./build, then installs overlapscope-cli and overlapscope into
# a prefix on PATH: /usr/local when run as root, else ~/.local (set
# OVERLAPSCOPE_PREFIX to choose; OVERLAPSCOPE_PREFIX=none skips the install),
# and the Python module (`import overlapscope`) where the system's python3
# imports from: /usr/local/lib/python3.X/dist-packages as root, the user's
# site-packages otherwise, else <prefix>/lib/python3/dist-packages (then on
# PYTHONPATH). A build without pybind11 (-DOVERLAPSCOPE_PYTHON=OFF) installs
# the programs alone.
# Safe to run again: it skips what is there.
#   scripts/setup.sh [extra cmake args]
#   scripts/setup.sh --packages-only     (only the apt packages: other scripts)
set -euo pipefail
cd "$(dirname "$0")/.."

# libunwind-dev and libdw-dev: call stacks of profiled programs (captured
# with libunwind, read back with elfutils' libdw; docs/profiling.md).
# python3 and time: scripts/hostile-inputs.sh. pybind11-dev and python3-dev:
# the Python module; python3-pytest runs its tests (scripts/test.sh), which
# also use pandas (findings_frame) and dask/distributed (ranks on a cluster).
packages=(build-essential cmake ninja-build libsimdjson-dev libsqlite3-dev libjemalloc-dev libunwind-dev libdw-dev qt6-base-dev qt6-svg-dev libqcustomplot-dev xvfb xauth python3 time
  pybind11-dev python3-dev python3-pytest python3-pandas python3-dask python3-distributed)
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

prefix=${OVERLAPSCOPE_PREFIX:-}
if [ -z "$prefix" ]; then
  if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix=$HOME/.local; fi
fi
# Where the Python module goes: a folder the system's python3 (the one the
# build uses, with Debian's pandas and dask) already imports from.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3 || true)
python_dir=""
if [ "$prefix" != none ] && [ -n "$python" ]; then
  if [ "$prefix" = /usr/local ] && [ "$("$python" -c 'import sysconfig; print(sysconfig.get_default_scheme())')" = posix_local ]; then
    python_dir=$("$python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
  elif [ "$prefix" = "$HOME/.local" ]; then
    python_dir=$("$python" -m site --user-site)
  else
    python_dir=$prefix/lib/python3/dist-packages
  fi
fi
python_args=()
[ -z "$python_dir" ] || python_args=(-DOVERLAPSCOPE_PYTHON_INSTALL_DIR="$python_dir")

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${python_args[@]}" "$@"
cmake --build build --parallel

if [ "$prefix" != none ]; then
  cmake --install build --prefix "$prefix" >/dev/null
  echo "Installed the programs (overlapscope-cli; overlapscope where Qt was found) in $prefix/bin"
  case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "Note: $prefix/bin is not on PATH; add it (export PATH=\"$prefix/bin:\$PATH\") or run build/app/cli/overlapscope-cli" ;;
  esac
  if grep -q '^OVERLAPSCOPE_PYTHON_BUILT:INTERNAL=ON' build/CMakeCache.txt && [ -n "$python_dir" ]; then
    if (cd / && "$python" -c 'import overlapscope' 2>/dev/null); then
      echo "Installed the Python module in $python_dir ($python: import overlapscope)"
    else
      echo "Installed the Python module in $python_dir; $python does not import from there: add it (export PYTHONPATH=\"$python_dir\")"
    fi
  fi
fi
