"""Rank summaries and their merge, against `analyze DIR`: the CLI's
--rank-summary and merge, local processes, and a small Dask LocalCluster."""

import json
import os
import shutil
import subprocess
import sys

import pytest

import overlapscope
from conftest import REPO, cli, cli_json, data

ALLREDUCE = data("ranks", "allreduce")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Six files: four ranks of one job with a straggler
    (scripts/make-rank-folder.py, 1 MB each), a stored Kineto trace whose
    rank its name gives (worker_rank7), and a file that is no trace
    (skipped, as analyze DIR skips it)."""
    folder = tmp_path_factory.mktemp("ranks")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "make-rank-folder.py"), "--ranks", "4",
                    "--size-mb", "4", "-o", str(folder)], check=True, stdout=subprocess.DEVNULL)
    shutil.copyfile(data("pytorch-train-step.json"), folder / "worker_rank7.json")
    (folder / "notes.txt").write_text("not a trace\n")
    return str(folder)


def test_summary_is_the_clis(folder, tmp_path):
    path = overlapscope.ranks.paths_of(folder)[0]
    out = tmp_path / "s.json"
    cli("analyze", "--rank-summary", path, "-o", str(out))
    assert overlapscope.ranks.summarize(path) == out.read_bytes()


def test_cli_merges_summaries_as_it_reads_the_folder(folder, tmp_path):
    expected = cli_json("analyze", "--json", folder)
    summaries = []
    for index, path in enumerate(overlapscope.ranks.paths_of(folder)):
        summary = tmp_path / f"s{index}.json"
        status, _, _ = cli("analyze", "--rank-summary", path, "-o", str(summary), check=False)
        assert status == (3 if path.endswith("notes.txt") else 0)
        summaries.append(str(summary))
    assert cli_json("analyze", "--json", *summaries) == expected
    _, table, _ = cli("analyze", *summaries)
    assert table == cli("analyze", folder)[1]
    assert expected["straggler"]["label"] == "rank 3" and len(expected["ranks"]) == 5


def test_local_processes_equal_analyze_dir(folder):
    ranks = overlapscope.ranks.analyze(folder)
    assert ranks.to_dict() == cli_json("analyze", "--json", folder)
    assert [r.label for r in ranks.ranks] == [r["label"] for r in ranks.to_dict()["ranks"]]
    assert ranks.verdict == ranks.to_dict()["verdict"]
    # A job whose ranks meet every step (its straggler found by its wait).
    files = [os.path.join(ALLREDUCE, n) for n in ("rank1.json", "rank0.json")]
    assert overlapscope.ranks.analyze(files, max_workers=1).to_dict() == cli_json("analyze", "--json", *files)


def test_dask_local_cluster_equals_analyze_dir(folder):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        ranks = overlapscope.ranks.analyze(folder, client=client)
    assert ranks.to_dict() == cli_json("analyze", "--json", folder)


def test_bad_summaries(folder, tmp_path):
    good = overlapscope.ranks.summarize(overlapscope.ranks.paths_of(folder)[0])
    document = json.loads(good)
    for broken in [b"", b"{", json.dumps(dict(document, schema=99)),
                   json.dumps(dict(document, runs=[dict(document["runs"][0], stepMedianNs=-5)])),
                   json.dumps(dict(document, runs=[dict(document["runs"][0], findings=[{"kind": "nonsense"}])])),
                   json.dumps({k: v for k, v in document.items() if k != "runs"})]:
        with pytest.raises(overlapscope.TraceError):
            overlapscope.ranks.merge([good, broken])
    # The CLI skips such a file and merges the rest.
    bad = tmp_path / "bad-summary.json"
    bad.write_text(json.dumps(dict(document, schema=99)))
    good_file = tmp_path / "good-summary.json"
    good_file.write_bytes(good)
    status, out, err = cli("analyze", "--json", str(good_file), str(bad), check=False)
    assert status == 0 and "schema 99" in err
    assert len(json.loads(out)["ranks"]) == 1
    with pytest.raises(overlapscope.TraceError, match="none of the"):
        overlapscope.ranks.merge([overlapscope.ranks.summarize(os.path.join(folder, "notes.txt"))])
