"""Issue 57 item 2 and acceptance 2-3: --report-only never rewrites a committed report, the papers' numbers ship
with the package, and a report whose numbers cannot be read stops in one line."""
from __future__ import annotations

import shutil

import pytest

from .conftest import PROJECT, error_lines, tracked_state

PAPERS = ["martins2016", "peters2019", "correia2019"]


def _pipeline(paper):
    from support import load_script

    return load_script(f"pipelines/{paper}.py", f"pipeline_{paper}")


@pytest.mark.parametrize("paper", PAPERS)
def test_report_only_without_records_exits_2_and_writes_nothing(paper, tmp_path, monkeypatch, capsys,
                                                                committed_before):
    from sparselab.reports.runner import main

    runs = tmp_path / "runs"
    monkeypatch.setenv("SPARSELAB_RUNS", str(runs))
    mod = _pipeline(paper)
    assert main(mod.report, mod.PLANS, ["--profile", "cpu", "--report-only"]) == 2
    out = capsys.readouterr()
    assert len(error_lines(out.err)) == 1 and "nothing written" in out.err, out.err
    assert "is the committed report and is left as it is" in out.out
    assert not runs.exists()                          # not even the redirected report folder
    assert tracked_state() == committed_before        # reports/ byte for byte as committed


def test_papers_yaml_ships_with_the_package():
    from sparselab.reports import reference as ref

    assert ref.PACKAGED.is_file() and ref.REFERENCE == ref.PACKAGED
    shared = PROJECT.parent / "shared" / "reference" / "papers.yaml"     # the project's own copy (dev machines, CI)
    if shared.is_file():
        assert ref.PACKAGED.read_bytes() == shared.read_bytes(), "copy ../shared/reference/papers.yaml here"
    for paper in PAPERS:
        assert ref.reference(paper)
    assert "return {}" not in (PROJECT / "src/sparselab/reports/reference.py").read_text()


def test_unreadable_paper_numbers_stop_the_report(tmp_path, monkeypatch, capsys):
    """A clone whose papers.yaml cannot be read: one line, exit 2, the copy given as --out untouched."""
    from sparselab.reports.runner import main

    committed = PROJECT / "reports" / "martins2016" / "cpu"
    clone = tmp_path / "copy"
    shutil.copytree(committed, clone)
    before = {p.name: p.read_bytes() for p in clone.iterdir() if p.is_file()}
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "no_runs"))
    monkeypatch.setenv("SPARSELAB_REFERENCE", str(tmp_path / "absent" / "papers.yaml"))
    mod = _pipeline("martins2016")
    assert main(mod.report, mod.PLANS, ["--profile", "cpu", "--report-only", "--out", str(clone)]) == 2
    err = error_lines(capsys.readouterr().err)
    assert len(err) == 1 and "papers' numbers cannot be read" in err[0], err
    assert {p.name: p.read_bytes() for p in clone.iterdir() if p.is_file()} == before


def test_reference_without_shared(tmp_path):
    """A clone from a public host has no ../shared: the numbers come from the package all the same."""
    from sparselab.reports import reference as ref

    assert ref.reference("peters2019") and ref.reference("correia2019")
    bad = tmp_path / "bad.yaml"
    bad.write_text("martins2016: [unclosed\n")
    with pytest.raises(ref.ReferenceMissing):
        ref.reference("martins2016", bad)
