"""Issue 57 item 8: `python -m sparselab.data check --profile smoke` on a clone without a data folder reported six
data sets missing and exited 1, although smoke reads only the excerpts shipped in the package. Now it checks
those (and the GloVe wheel); SPARSELAB_DATA or --root still name a data root to check instead, as for a run."""
from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import PROJECT


@pytest.fixture()
def no_data_folder(monkeypatch, tmp_path):
    """A clone with no ../shared/data and no SPARSELAB_DATA: the default root is an empty folder."""
    from sparselab import locations as root

    monkeypatch.delenv("SPARSELAB_DATA", raising=False)
    monkeypatch.setattr(root, "default_root", lambda: tmp_path / "nothing_here")
    return tmp_path


def _excerpts_status() -> str:
    return subprocess.run(["git", "-C", str(PROJECT), "status", "--porcelain", "--", "src/sparselab/data/excerpts"],
                          capture_output=True, text=True, check=True).stdout


def test_smoke_check_passes_on_the_shipped_excerpts(no_data_folder, capsys):
    from sparselab.data import excerpt
    from sparselab.data.__main__ import main
    from sparselab.data.check import SMOKE_NEEDS

    before = _excerpts_status()
    assert main(["check", "--profile", "smoke"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"data root: {excerpt.ROOT} (profile smoke: the excerpts shipped in the package")
    for name in SMOKE_NEEDS:
        (line,) = [x for x in out.splitlines() if x.startswith(f"{name}: ")]
        assert line.startswith(f"{name}: present ("), line
    assert ": missing" not in out and ": partial" not in out
    assert _excerpts_status() == before                 # read, never written


def test_a_damaged_excerpt_is_named_with_what_to_do(no_data_folder, monkeypatch, capsys):
    from sparselab.data import excerpt
    from sparselab.data.__main__ import main

    copy = no_data_folder / "excerpts"
    shutil.copytree(excerpt.ROOT, copy)
    (copy / "mulan" / "scene" / "scene.xml").unlink()
    torn = copy / "multi30k" / "task1" / "raw" / "train.de.gz"
    torn.write_bytes(torn.read_bytes()[:40])
    monkeypatch.setattr(excerpt, "ROOT", copy)
    assert main(["check", "--profile", "smoke"]) == 1
    out = capsys.readouterr().out
    assert "mulan: partial (5/6 files OK)" in out and "    missing: mulan/scene/scene.xml" in out
    assert "multi30k: partial (5/6 files OK)" in out and "bad: multi30k/task1/raw/train.de.gz: not a whole gzip" in out
    assert "reinstall sparselab" in out


def test_a_data_root_given_is_checked_as_smoke_would_read_it(no_data_folder, monkeypatch, capsys):
    """SPARSELAB_DATA wins over the smoke profile's data.root in a run; the check follows."""
    from sparselab.data.__main__ import main
    from sparselab.data.check import SMOKE_NEEDS

    monkeypatch.setenv("SPARSELAB_DATA", str(no_data_folder / "elsewhere"))
    assert main(["check", "--profile", "smoke", "--quick"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"data root: {no_data_folder / 'elsewhere'} (profile smoke)")
    missing = [x.split(":")[0] for x in out.splitlines() if ": missing (" in x]
    assert sorted(missing) == sorted(set(SMOKE_NEEDS) - {"glove_6b_50d"})    # GloVe: its installed wheel


def test_smoke_needs_are_what_the_excerpts_hold_and_the_glove_wheel():
    from sparselab.data.check import PROFILE_NEEDS, SMOKE_NEEDS, excerpt_names

    assert PROFILE_NEEDS["smoke"] == SMOKE_NEEDS
    assert set(SMOKE_NEEDS) == excerpt_names() | {"glove_6b_50d"}
    from sparselab.data import excerpt

    on_disk = {str(p.relative_to(excerpt.ROOT)) for p in Path(excerpt.ROOT).rglob("*")
               if p.is_file() and p.name != "NOTE.md"}
    assert on_disk == set(excerpt.files())              # excerpt.files() lists what build() writes, all of it
    for rel in excerpt.files():
        if rel.endswith(".gz"):
            assert gzip.decompress((excerpt.ROOT / rel).read_bytes())
