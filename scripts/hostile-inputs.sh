#!/usr/bin/env bash
# Runs malformed and hostile inputs against the CLI (analyze, convert to csv
# and chrome; Nsight reports with code where their data belongs) and, where
# it is built, the headless export, and prints the
# table of docs/reliability.md: per kind of input, how many cases, how they
# ended, and the worst memory and time. Reproducible: inputs come from a fixed
# seed and a trace the simulated device records.
#
#   scripts/hostile-inputs.sh [--quick] [--huge-mib N]
#
# Environment: CLI, GUI (default build/app/cli/overlapscope-cli and
# build/app/gui/overlapscope; a sanitizer build's binaries work too),
# WORK (default build/hostile). --quick runs a tenth of the generated cases.
# A case fails when a program crashes (a signal, a sanitizer report), hangs
# past its timeout, writes a message longer than one line of 300 characters,
# or changes an output file it then reports it could not write.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] && command -v python3 >/dev/null || scripts/setup.sh --packages-only
exec python3 - "$@" <<'PY'
import json, os, random, resource, signal, stat, subprocess, sys, tempfile, time

args = sys.argv[1:]
quick = "--quick" in args
huge_mib = int(args[args.index("--huge-mib") + 1]) if "--huge-mib" in args else 200
cli = os.path.abspath(os.environ.get("CLI", "build/app/cli/overlapscope-cli"))
gui = os.path.abspath(os.environ.get("GUI", "build/app/gui/overlapscope"))
work = os.path.abspath(os.environ.get("WORK", "build/hostile"))
if not os.access(cli, os.X_OK):
    sys.exit(f"no CLI at {cli}: build first (scripts/setup.sh) or set CLI")
have_gui = os.access(gui, os.X_OK)
os.makedirs(work, exist_ok=True)
rng = random.Random(11)

def sanitized(binary):
    try:
        return b"__asan_init" in open(binary, "rb").read()
    except OSError:
        return False

def environment(binary):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    if sanitized(binary):
        # The sanitizer's own allocator limit stands in for the address-space cap.
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":malloc_limit_mb=3072:allocator_may_return_null=1"
    return env

MEMORY_CAP = 3 << 30

def limit_memory(binary):
    if sanitized(binary):
        return None
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    return apply

def run(command, timeout=20, interrupt_after=None):
    """Returns (exit status, or 'timeout'; the end of stderr; seconds; peak resident MiB)."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as errors, tempfile.NamedTemporaryFile() as peak:
        # GNU time reports the program's own peak memory (a forked Python
        # would count its own); a session of its own lets a signal reach both.
        process = subprocess.Popen(["/usr/bin/time", "-q", "-f", "%M", "-o", peak.name] + command,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                                   env=environment(command[0]), preexec_fn=limit_memory(command[0]),
                                   start_new_session=True)
        try:
            if interrupt_after is not None:
                try:
                    process.wait(timeout=interrupt_after)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGINT)
            status = process.wait(timeout=timeout)
            # GNU time gives 128 + N for a program killed by signal N.
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            status = "timeout"
        errors.seek(0, os.SEEK_END)
        errors.seek(max(0, errors.tell() - 100000))
        err = errors.read().decode("utf-8", "replace")
        err = "\n".join(l for l in err.splitlines() if not l.startswith("Command terminated by signal"))
        try:
            mib = int(open(peak.name).read().split()[-1]) / 1024
        except (ValueError, IndexError):
            mib = 0.0
    return status, err, time.monotonic() - started, mib

# ---- the seed trace: recorded on the simulated device, so every field is real
seed_path = os.path.join(work, "seed.json")
status, err, _, _ = run([cli, "record", "--device", "sim", "--chunks", "4", "--chunk-mib", "1",
                         "--sizes", "1", "--warmups", "1", "--samples", "2", "--quiet", "-o", seed_path], timeout=120)
if status != 0:
    sys.exit(f"recording the seed trace failed ({status}): {err}")
seed_text = open(seed_path, "rb").read()
seed = json.loads(seed_text)

cases = {}  # kind -> list of (name, bytes or path)

def add(kind, name, data):
    cases.setdefault(kind, []).append((name, data))

def dump(value):
    return json.dumps(value, separators=(",", ":")).encode()

# Truncations: every prefix length at even steps.
steps = 100
for i in range(1, steps):
    add("truncated", f"cut at {i}%", seed_text[: len(seed_text) * i // steps])

# Byte flips: 1 to 4 random bytes get random values.
for i in range(300):
    data = bytearray(seed_text)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    add("byte flips", f"flip {i}", bytes(data))

# Wrong types: each field in turn replaced by each other JSON type.
def paths(value, prefix=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield prefix + (k,)
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list) and value:
        # The first element stands for all: ops, lanes, points are alike.
        yield prefix + (0,)
        yield from paths(value[0], prefix + (0,))

def replaced(value, path, new):
    value = json.loads(json.dumps(value))
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return value

for path in paths(seed):
    for new in (None, True, "x", [], {}, 1.5, -1):
        add("wrong types", "/".join(map(str, path)) + f" = {json.dumps(new)}", dump(replaced(seed, path, new)))

# Extreme numbers in times, sizes and parameters.
run0 = ("runs", 0)
numeric_paths = [run0 + ("timedBeginNs",), run0 + ("timedEndNs",), run0 + ("params", "chunks"),
                 run0 + ("params", "chunkBytes"), run0 + ("params", "stagingThreads"),
                 run0 + ("params", "kernelRepeats"), run0 + ("params", "slots"),
                 run0 + ("ops", 0, 3), run0 + ("ops", 0, 4), run0 + ("ops", 0, 5), run0 + ("ops", 0, 2),
                 run0 + ("ops", 0, 1)]
extremes = {"2^63-1": "9223372036854775807", "-2^63": "-9223372036854775808", "2^64": "18446744073709551616",
            "2^62": "4611686018427387904", "-2^62": "-4611686018427387904", "1e308": "1e308",
            "-1e308": "-1e308", "1e-400": "1e-400", "100000 digits": "9" * 100000, "-0": "-0",
            "0.5": "0.5"}
for path in numeric_paths:
    for label, literal in extremes.items():
        marker = "__EXTREME__"
        text = dump(replaced(seed, path, marker)).replace(b'"__EXTREME__"', literal.encode())
        add("extreme numbers", "/".join(map(str, path)) + " = " + label, text)
# Every op of a run at the far end of time: ranges that overflow a difference.
far = json.loads(json.dumps(seed))
for op in far["runs"][0]["ops"]:
    op[3], op[4] = -(2**63) + 1, 2**63 - 1
far["runs"][0]["timedBeginNs"], far["runs"][0]["timedEndNs"] = -(2**63) + 1, 2**63 - 1
add("extreme numbers", "every op spans int64", dump(far))

# Structure: many lanes, many runs, huge strings, deep nesting.
def many_lanes(count):
    t = json.loads(json.dumps(seed))
    r = t["runs"][0]
    op = r["ops"][0]
    r["lanes"] = [{"name": f"stream {i}", "kind": "stream"} for i in range(count)]
    r["ops"] = [[op[0], i, 0, op[3], op[4], op[5], op[6]] for i in range(count)]
    return dump(t)
add("structure", "65,535 lanes", many_lanes(65535))
add("structure", "20,000 lanes", many_lanes(20000))
t = json.loads(json.dumps(seed))
t["runs"] = [t["runs"][i % len(t["runs"])] for i in range(2000)]
add("structure", "2,000 runs", dump(t))
huge_name = json.loads(json.dumps(seed))
huge_name["runs"][0]["name"] = "n" * (huge_mib << 20)
add("structure", f"{huge_mib} MiB run name", dump(huge_name))
huge_lane = json.loads(json.dumps(seed))
huge_lane["runs"][0]["lanes"][0]["name"] = "\x1b[2J\x1b]0;pwned\x07" + "l" * (16 << 20)
add("structure", "16 MiB lane name with escape sequences", dump(huge_lane))
add("structure", "nesting 100,000 deep", b"[" * 100000 + b"]" * 100000)
add("structure", "100,000 keys", b"{" + b",".join(b'"k%d":0' % i for i in range(100000)) + b"}")
add("structure", "empty file", b"")
add("structure", "only whitespace", b" \n\t " * 1000)
add("structure", "UTF-16 BOM", b"\xff\xfe" + seed_text.decode().encode("utf-16-le"))
add("structure", "NUL in a string", seed_text.replace(b'"host"', b'"ho\x00st"', 1))
add("structure", "invalid UTF-8 in a name", seed_text.replace(b'"host"', b'"ho\xc3\x28st"', 1))
add("structure", "duplicate key", seed_text.replace(b'{"format"', b'{"format":"x","format"', 1))

# Files that are not regular.
fifo = os.path.join(work, "fifo")
if os.path.exists(fifo):
    os.unlink(fifo)
os.mkfifo(fifo)
special = [("/dev/zero", "/dev/zero"), ("/dev/urandom", "/dev/urandom"), ("FIFO with no writer", fifo),
           ("a directory", work), ("no such file", os.path.join(work, "missing.json"))]

if quick:
    for kind in list(cases):
        if len(cases[kind]) > 20:
            cases[kind] = cases[kind][::10]

# ---- running them
def verdict(status, err, output_before=None, output_path=None):
    """ok | rejected | crash | hang | long message | data loss"""
    if status == "timeout":
        return "hang"
    if status == 128 + signal.SIGINT:
        return "stopped by SIGINT"
    if isinstance(status, int) and (status < 0 or status >= 128) or "Sanitizer" in err or "runtime error:" in err:
        return "crash"
    lines = [l for l in err.strip().splitlines() if l.strip()]
    if status != 0:
        if output_path is not None and output_before is not None:
            after = open(output_path, "rb").read() if os.path.exists(output_path) else None
            if after != output_before:
                return "data loss"
        if not lines or len(lines[-1]) > 300:
            return "long message"
        return f"rejected ({status})"
    return "ok"

commands = [("analyze", lambda p, o: [cli, "analyze", p]),
            ("convert csv", lambda p, o: [cli, "convert", p, "--to", "csv", "-o", o]),
            ("convert chrome", lambda p, o: [cli, "convert", p, "--to", "chrome", "-o", o])]
if have_gui:
    commands.append(("export png", lambda p, o: [gui, "export", p, "-o", o + ".png"]))

rows = []
failures = []

def tally(kind, what, outcomes, seconds, peak):
    counts = {}
    for o in outcomes:
        counts[o] = counts.get(o, 0) + 1
    summary = ", ".join(f"{n} {o}" for o, n in sorted(counts.items()))
    rows.append((kind, what, len(outcomes), summary, seconds, peak))

input_path = os.path.join(work, "input.json")
output_path = os.path.join(work, "out")
for kind, items in cases.items():
    for label, command in commands:
        # The GUI export renders: run it on the structural cases and a sample of the rest.
        chosen = items if label != "export png" or kind == "structure" else items[::10]
        outcomes, worst_s, worst_mib = [], 0.0, 0.0
        for name, data in chosen:
            with open(input_path, "wb") as f:
                f.write(data)
            status, err, seconds, mib = run(command(input_path, output_path), timeout=60)
            v = verdict(status, err)
            outcomes.append(v)
            worst_s = max(worst_s, seconds)
            worst_mib = max(worst_mib, mib)
            if v in ("crash", "hang", "long message", "data loss"):
                failures.append(f"{kind} / {name} / {label}: {v}: {err.strip()[:300]}")
        tally(kind, label, outcomes, worst_s, worst_mib)
        print(f"{kind}: {label}: done", file=sys.stderr)

for name, path in special:
    for label, command in commands[:2]:
        status, err, seconds, mib = run(command(path, output_path), timeout=10)
        v = verdict(status, err)
        if v in ("crash", "hang", "long message"):
            failures.append(f"special / {name} / {label}: {v}: {err.strip()[:300]}")
        rows.append(("not a regular file", f"{label}: {name}", 1, v, seconds, mib))

# Outputs that cannot be written: the old file must survive.
def output_case(name, prepare, cleanup=lambda: None):
    target = prepare()
    before = open(target, "rb").read() if os.path.isfile(target) else None
    status, err, seconds, mib = run([cli, "convert", seed_path, "--to", "csv", "-o", target])
    v = verdict(status, err, before, target if before is not None else None)
    if v in ("crash", "hang", "long message", "data loss"):
        failures.append(f"output / {name}: {v}: {err.strip()[:300]}")
    message = err.strip().splitlines()[0] if err.strip() else ""
    rows.append(("unwritable output", name, 1, f"{v}: {message}", seconds, mib))
    cleanup()

def read_only():
    p = os.path.join(work, "readonly.csv")
    if os.path.exists(p):
        os.chmod(p, 0o644)
    open(p, "w").write("keep me\n")
    os.chmod(p, 0o444)
    return p
output_case("read-only file", read_only)
output_case("a directory", lambda: work)
output_case("missing folder", lambda: os.path.join(work, "no", "such", "out.csv"))
output_case("/dev/full", lambda: "/dev/full")
output_case("empty name", lambda: "")

full_mount = os.path.join(work, "full")
os.makedirs(full_mount, exist_ok=True)
mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", full_mount],
                                               stderr=subprocess.DEVNULL).returncode == 0
if mounted:
    def full_disk():
        p = os.path.join(full_mount, "ops.csv")
        open(p, "w").write("old content\n")
        filler = os.path.join(full_mount, "filler")
        with open(filler, "wb") as f:
            try:
                f.write(b"\0" * (1 << 20))
            except OSError:
                pass
        return p
    output_case("full disk (64 KiB tmpfs)", full_disk,
                lambda: subprocess.run(["umount", full_mount]))
else:
    rows.append(("unwritable output", "full disk", 0, "skipped: needs root to mount a small tmpfs", 0, 0))

# Bad usage.
usage = {"no command": [cli], "unknown command": [cli, "frobnicate"],
         "unknown option": [cli, "analyze", seed_path, "--frob"],
         "missing value": [cli, "pipeline", "--chunks"], "repeated option": [cli, "pipeline", "--chunks", "2", "--chunks", "3"],
         "zero chunks": [cli, "pipeline", "--device", "sim", "--chunks", "0"],
         "huge chunks": [cli, "pipeline", "--device", "sim", "--chunks", "1e9"],
         "negative size": [cli, "pipeline", "--device", "sim", "--chunk-mib", "-1"],
         "100,000-digit number": [cli, "pipeline", "--device", "sim", "--chunks", "9" * 100000],
         "bad format": [cli, "convert", seed_path, "--to", "xml", "-o", output_path],
         "no GPU index": [cli, "pipeline", "--device", "cuda:99"],
         "record to a missing folder": [cli, "record", "--device", "sim", "-o", os.path.join(work, "no", "t.json")]}
for name, command in usage.items():
    status, err, seconds, mib = run(command, timeout=60)
    v = verdict(status, err)
    if v in ("crash", "hang", "long message"):
        failures.append(f"usage / {name}: {v}: {err.strip()[:300]}")
    rows.append(("bad usage", name, 1, v, seconds, mib))

# Ctrl-C: a record interrupted mid-way must keep what it recorded.
for after in (0.5, 2.0):
    out = os.path.join(work, f"interrupted-{after}.json")
    if os.path.exists(out):
        os.unlink(out)
    status, err, seconds, mib = run([cli, "record", "--device", "sim", "--chunks", "64", "--chunk-mib", "8",
                                     "--pipelines", "all", "-o", out], timeout=120, interrupt_after=after)
    kept = "no file"
    if os.path.exists(out):
        try:
            kept = f"{len(json.load(open(out))['runs'])} runs kept"
        except Exception as e:
            kept = f"unreadable file: {e}"
    v = verdict(status, err)
    rows.append(("SIGINT", f"record, interrupted after {after} s", 1, f"{v}, {kept}", seconds, mib))
    # Stopped before anything was recorded, no file is right; after, a file must hold it.
    if v in ("crash", "hang") or kept == "0 runs kept" or (kept == "no file" and "completed" in err):
        failures.append(f"SIGINT after {after} s: {v}, {kept}: {err.strip()[-300:]}")

# ---- issue 22's loose ends: each must end as expected, not merely not crash.
def expect(kind, name, command, status_wanted, says="", keep=None, timeout=60, most_seconds=None):
    """Runs `command`; a failure unless it exits `status_wanted` with `says` on stderr, leaves the file
    `keep` as it was, and (where given) ends within `most_seconds`."""
    before = open(keep, "rb").read() if keep else None
    status, err, seconds, mib = run(command, timeout=timeout)
    v = verdict(status, err)
    problems = []
    if status != status_wanted:
        problems.append(f"exit {status}, not {status_wanted}")
    if says and says not in err:
        problems.append(f"no '{says}' on stderr")
    if keep and open(keep, "rb").read() != before:
        problems.append("the file changed")
    if most_seconds is not None and seconds > most_seconds:
        problems.append(f"{seconds:.1f} s, over {most_seconds} s")
    if problems or v in ("crash", "hang", "long message"):
        failures.append(f"{kind} / {name}: {v}: {'; '.join(problems)}: {err.strip()[-300:]}")
    rows.append((kind, name, 1, f"{v}" + (f" ({'; '.join(problems)})" if problems else ""), seconds, mib))

# An output that is its input: refused (2) before anything is read, the file as it was.
same = os.path.join(work, "same.json")
with open(same, "wb") as f:
    f.write(seed_text)
same_csv = os.path.join(work, "same.csv")
with open(same_csv, "wb") as f:
    f.write(seed_text)
for link, make in (("same-link.json", os.symlink), ("same-hard.json", os.link)):
    path = os.path.join(work, link)
    if os.path.lexists(path):
        os.unlink(path)
    make(same, path)
for name, to, output in (("the same path", "chrome", same),
                         ("./same.json", "chrome", os.path.join(work, ".", "same.json")),
                         ("through a folder and ..", "native", os.path.join(work, "..", os.path.basename(work), "same.json")),
                         ("a symbolic link", "chrome", os.path.join(work, "same-link.json")),
                         ("a hard link", "native", os.path.join(work, "same-hard.json"))):
    expect("output is the input", f"convert --to {to}: {name}", [cli, "convert", same, "--to", to, "-o", output], 2,
           "is the input", keep=same)
expect("output is the input", "convert X.csv --to csv -o X.csv", [cli, "convert", same_csv, "--to", "csv", "-o", same_csv],
       2, "is the input", keep=same_csv)
if have_gui:
    picture = os.path.join(work, "same.svg")
    if os.path.lexists(picture):
        os.unlink(picture)
    os.symlink(same, picture)
    expect("output is the input", "export -o a link to the trace", [gui, "export", same, "-o", picture], 2,
           "is the input", keep=same)

# Ctrl-C before any run finished: an existing output is left as it was.
old = os.path.join(work, "old.json")
with open(old, "wb") as f:
    f.write(seed_text)
status, err, seconds, mib = run([cli, "record", "--device", "sim", "--chunks", "16", "--chunk-mib", "1",
                                 "--kernel-repeats", "400", "-o", old], timeout=120, interrupt_after=0.5)
unchanged = open(old, "rb").read() == seed_text
v = verdict(status, err)
rows.append(("SIGINT", "record -o old.json, before any run finished", 1,
             f"{v}, {'left as it was' if unchanged else 'replaced'}", seconds, mib))
# Replaced is right only when a run had finished by the time Ctrl-C came.
try:
    finished = unchanged or any(r.get("status") != "cancelled" for r in json.load(open(old))["runs"])
except Exception:
    finished = False
if status != 130 or ("left as it was" in err) != unchanged or not finished:
    failures.append(f"SIGINT before a run finished: {v}, unchanged={unchanged}: {err.strip()[-300:]}")

# A huge name is printed shortened: stdout stays small.
huge = os.path.join(work, "huge-name.json")
with open(huge, "wb") as f:
    f.write(dump(huge_name))
with tempfile.TemporaryFile() as out:
    started = time.monotonic()
    status = subprocess.run([cli, "analyze", huge], stdout=out, stderr=subprocess.DEVNULL, env=environment(cli),
                            timeout=120).returncode
    printed = out.seek(0, os.SEEK_END)
rows.append(("long names", f"analyze, {huge_mib} MiB run name: stdout bytes", 1, f"exit {status}, {printed} bytes",
             time.monotonic() - started, 0))
if status != 0 or printed > 1 << 20:
    failures.append(f"long names: analyze printed {printed} bytes (exit {status})")
os.unlink(huge)

# The first bytes decide, at once, whatever the size (sparse files: no disk).
zeros = os.path.join(work, "zeros.json")
with open(zeros, "wb") as f:
    f.truncate(3 << 30)
expect("first bytes", "analyze, 3 GiB of zero bytes, --max-trace-mib 4095",
       [cli, "analyze", zeros, "--max-trace-mib", "4095"], 3, "not a JSON trace", most_seconds=5)
if have_gui:
    expect("first bytes", "export, 3 GiB of zero bytes, --max-trace-mib 4095",
           [gui, "export", zeros, "-o", output_path + ".png", "--max-trace-mib", "4095"], 3, "not a JSON trace",
           most_seconds=10)
os.unlink(zeros)
sqlite = os.path.join(work, "report.sqlite")
with open(sqlite, "wb") as f:
    f.write(b"SQLite format 3\0")
    f.truncate(3 << 30)
expect("first bytes", "analyze, a 3 GiB SQLite file", [cli, "analyze", sqlite], 3, "the SQLite database cannot be read",
       most_seconds=5)
os.unlink(sqlite)
expect("first bytes", "analyze /proc/self/status (size 0, has text)", [cli, "analyze", "/proc/self/status"], 3,
       "it starts with")

# Nsight reports from strangers (issue 33): a copy of a real export with code
# where its data belongs is refused by name at once; code beside the data
# never runs; a read of real tables that would take quadratic work stops at
# its budget. Each within 5 s (measured: 0.73 s at most).
import shutil, sqlite3
real_report = "tests/data/nsight/cloverleaf-cuda_nsys_perlmutter-reduced.sqlite"
with sqlite3.connect(f"file:{real_report}?mode=ro&immutable=1", uri=True) as db:
    kernel_columns = [r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
endless = "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r)"
huge_names = ", ".join("randomblob(900000000) AS demangledName" if c == "demangledName" else c for c in kernel_columns)
other_names = ", ".join("100000 + n" if c in ("demangledName", "shortName", "mangledName") else f"k.{c}"
                        for c in kernel_columns)
crafted_reports = [
    ("kernels a view over an endless query", 3, "is a view, not a table",
     "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernel_rows; CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS "
     f"SELECT kernel_rows.* FROM kernel_rows, {endless};"),
    ("kernels a view of 900 MB names", 3, "is a view, not a table",
     "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernel_rows; CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS "
     f"SELECT {huge_names} FROM kernel_rows LIMIT 5;"),
    ("copies an FTS5 table", 3, "is a virtual table",
     "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; CREATE VIRTUAL TABLE CUPTI_ACTIVITY_KIND_MEMCPY USING fts5(start, end);"),
    ("calls a virtual table of an unknown module", 3, "is a virtual table",
     "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME; PRAGMA writable_schema = ON; INSERT INTO sqlite_master VALUES "
     "('table', 'CUPTI_ACTIVITY_KIND_RUNTIME', 'CUPTI_ACTIVITY_KIND_RUNTIME', 0, "
     "'CREATE VIRTUAL TABLE CUPTI_ACTIVITY_KIND_RUNTIME USING no_such_module(start)'); PRAGMA writable_schema = OFF;"),
    ("a kernel name of 2 MB", 3, "longer than 1 MiB",
     "UPDATE StringIds SET value = printf('%.*c', 2000000, 'k') "
     "WHERE id = (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1);"),
    ("quadratic work: StringIds unkeyed, 30,000 kernels of a name each", 3, "past its work budget",
     "CREATE TABLE plain (id INTEGER, value TEXT); INSERT INTO plain SELECT id, value FROM StringIds; "
     "DROP TABLE StringIds; ALTER TABLE plain RENAME TO StringIds; "
     "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 30000) "
     "INSERT INTO StringIds SELECT 100000 + n, 'kernel ' || n FROM r; "
     "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 30000) "
     f"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT {other_names} FROM r, "
     "(SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1) AS k;"),
    ("triggers on the tables", 3, "holds a trigger",
     "CREATE TRIGGER t1 AFTER INSERT ON CUPTI_ACTIVITY_KIND_KERNEL BEGIN SELECT randomblob(900000000); END;"),
    ("an endless view beside the tables", 0, "imported from Nsight Systems",
     f"CREATE VIEW forever AS SELECT * FROM {endless};"),
]
crafted = os.path.join(work, "crafted.sqlite")
for name, status_wanted, says, sql in crafted_reports:
    if os.path.exists(crafted):
        os.unlink(crafted)
    shutil.copy(real_report, crafted)
    os.chmod(crafted, 0o644)
    with sqlite3.connect(crafted) as db:
        db.executescript(sql)
    db.close()
    expect("Nsight report with code", f"analyze: {name}", [cli, "analyze", crafted], status_wanted, says,
           most_seconds=5)
    expect("Nsight report with code", f"convert --to csv: {name}",
           [cli, "convert", crafted, "--to", "csv", "-o", output_path + ".csv"], status_wanted, says, most_seconds=5)
os.unlink(crafted)

# The GUI program's own exits: through QApplication, statuses as the table says.
if have_gui:
    expect("export usage", "-o with its value missing", [gui, "export", seed_path, "-o"], 2, "-o needs a value")
    expect("export usage", "over the pixel cap", [gui, "export", seed_path, "-o", output_path + ".png", "--width",
                                                  "20000", "--height", "20000", "--scale", "8"], 2, "cap")

print("| input | command | cases | outcomes | slowest s | peak MiB |")
print("|---|---|---:|---|---:|---:|")
for kind, what, n, summary, seconds, peak in rows:
    print(f"| {kind} | {what} | {n} | {summary} | {seconds:.1f} | {peak:.0f} |")
total = sum(r[2] for r in rows)
print(f"\n{total} runs; {len(failures)} failed (crash, hang, long message or data loss).")
for f in failures:
    print(f"- {f}")
sys.exit(1 if failures else 0)
PY
