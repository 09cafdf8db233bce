"""Shared by the module's tests: where the repository, the build and the
CLI are. scripts/test.sh runs them as

    PYTHONPATH=build/python OVERLAPSCOPE_CLI=build/app/cli/overlapscope-cli python3 -m pytest python/tests

and every comparison is against the CLI built from the same tree."""

import json
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(REPO, "tests", "data")
CLI = os.environ.get("OVERLAPSCOPE_CLI", os.path.join(REPO, "build", "app", "cli", "overlapscope-cli"))


def data(*parts):
    return os.path.join(DATA, *parts)


def cli(*args, check=True):
    """Runs the CLI; (exit status, stdout, stderr)."""
    if not os.access(CLI, os.X_OK):
        pytest.fail(f"no CLI at {CLI}: build it, or set OVERLAPSCOPE_CLI")
    done = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300)
    if check and done.returncode != 0:
        pytest.fail(f"overlapscope-cli {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.returncode, done.stdout, done.stderr


def cli_json(*args):
    return json.loads(cli(*args)[1])
