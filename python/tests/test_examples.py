"""The notebook in examples/ runs as written (its code cells, in order,
from the repository's root), and what it shows is the core's."""

import json
import os

import pytest

import overlapscope
from conftest import REPO

NOTEBOOK = os.path.join(REPO, "examples", "overlapscope_notebook.ipynb")


def test_the_notebook_runs(monkeypatch, capsys):
    pytest.importorskip("pandas")
    # The timeline picture has its own test (test_analyze.py).
    monkeypatch.setattr(overlapscope.Analysis, "show_timeline", False)
    monkeypatch.chdir(REPO)
    cells = [c for c in json.load(open(NOTEBOOK))["cells"] if c["cell_type"] == "code"]
    assert cells
    scope = {}
    shown = []
    for cell in cells:
        lines = "".join(cell["source"]).rstrip().splitlines()
        # As Jupyter does: the last line, an expression, is what the cell shows.
        exec("\n".join(lines[:-1]), scope)
        shown.append(eval(lines[-1], scope))
    assert isinstance(shown[0], overlapscope.Analysis) and "<table>" in shown[0]._repr_html_()
    assert shown[0].to_dict() == overlapscope.analyze("tests/data/pytorch-pageable-sync.json").to_dict()
    assert ("resolved", "pageable-memory") in [(c, k) for c, k, _, _ in shown[2]]
    assert "straggler" in shown[3].verdict and "<table>" in shown[3]._repr_html_()
    assert "pageable-memory" in capsys.readouterr().out
