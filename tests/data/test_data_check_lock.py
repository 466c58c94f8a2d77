"""`python -m sparselab.data check` on lock-mode registry files (sha256 ``lock``): verified against the sha256 that
``fetch`` recorded in ``<root>/<name>/sha256.lock.json``, not reported bad for having no registry checksum."""
from __future__ import annotations

import hashlib
import json

import pytest

from sparselab.data import registry
from sparselab.data.__main__ import main
from sparselab.data.check import LOCK_NAME, check, read_lock
from sparselab.data.fetch import LOCK_NAME as FETCH_LOCK_NAME

DATA = {"train.de": b"Hallo Welt\n" * 10, "corpus/train.en": b"Hello world\n" * 10}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture()
def toylock(tmp_path, monkeypatch):
    """A lock-mode dataset (one plain file, one archive member) fetched once: files and lock on disk."""
    rows = ["train.de\t-\tlock\thttp://127.0.0.1:9/train.de\t-",
            "corpus/train.en\t-\tlock\thttp://127.0.0.1:9/c.tgz\tarchive_sha256=lock;member=corpus/train.en"]
    monkeypatch.setitem(registry.DATASETS, "toylock", {"status": "complete", "files": "\n".join(rows)})
    root = tmp_path / "root"
    for rel, data in DATA.items():
        (root / "toylock" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "toylock" / rel).write_bytes(data)
    (root / "toylock" / LOCK_NAME).write_text(json.dumps(
        {"files": {rel: sha(d) for rel, d in DATA.items()}, "archives": {"http://127.0.0.1:9/c.tgz": "0" * 64}}))
    return root


def test_lock_name_is_the_one_fetch_writes():
    assert LOCK_NAME == FETCH_LOCK_NAME


def test_locked_files_matching_the_lock_are_present(toylock):
    r = check(["toylock"], root=toylock, progress=None)[0]
    assert (r.status, r.missing, r.bad) == ("present", [], [])
    assert check(["toylock"], root=toylock, quick=True, progress=None)[0].status == "present"
    assert read_lock(toylock / "toylock") == {rel: sha(d) for rel, d in DATA.items()}


def test_a_changed_file_is_bad_against_its_lock_entry(toylock):
    (toylock / "toylock" / "train.de").write_bytes(b"tampered\n")
    r = check(["toylock"], root=toylock, progress=None)[0]
    assert r.status == "partial" and [p for p, _ in r.bad] == ["train.de"]
    assert f"!= {sha(DATA['train.de'])} recorded in {LOCK_NAME}" in r.bad[0][1]
    assert check(["toylock"], root=toylock, quick=True, progress=None)[0].status == "present"   # quick: existence


def test_no_lock_entry_cannot_be_verified_and_a_missing_file_is_missing(toylock):
    (toylock / "toylock" / LOCK_NAME).write_text(json.dumps({"files": {"train.de": sha(DATA["train.de"])}}))
    (toylock / "toylock" / "train.de").unlink()
    r = check(["toylock"], root=toylock, progress=None)[0]
    assert r.status == "partial" and r.missing == ["train.de"]
    assert [p for p, _ in r.bad] == ["corpus/train.en"] and "not recorded in sha256.lock.json" in r.bad[0][1]
    (toylock / "toylock" / LOCK_NAME).unlink()
    r = check(["toylock"], root=toylock, progress=None)[0]
    assert [p for p, _ in r.bad] == ["corpus/train.en"]
    (toylock / "toylock" / LOCK_NAME).write_text("{not json")
    assert [p for p, _ in check(["toylock"], root=toylock, progress=None)[0].bad] == ["corpus/train.en"]


def test_cli_check_exit_codes_on_lock_mode(toylock, capsys):
    assert main(["check", "toylock", "--root", str(toylock)]) == 0
    assert "toylock: present (2/2 files OK)" in capsys.readouterr().out
    (toylock / "toylock" / "corpus" / "train.en").write_bytes(b"corrupt")
    assert main(["check", "toylock", "--root", str(toylock)]) == 1
