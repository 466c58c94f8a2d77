"""Data layer: fetch from a local HTTP server, checksum handling, check verdicts, CLI errors, real registry vs ../shared."""
from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import io
import threading
import zipfile

import pytest

from sparselab.data import registry
from sparselab.data.__main__ import main
from sparselab.data.check import check, get_dataset
from sparselab.data.fetch import LOCK_NAME, ChecksumMismatchError, FetchError, NotObtainableError, fetch
from sparselab.locations import PROJECT_ROOT

FILES = {
    "a.txt": b"alpha\nbeta\n",
    "sub/b.tsv": "lemma\tform\tV;PST\n".encode() * 50,
    "c.txt.gz": gzip.compress(b"gamma\n" * 100, mtime=0),
}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tsv(rows) -> str:
    return "\n".join("\t".join(str(c) for c in r) for r in rows)


@pytest.fixture()
def server(tmp_path):
    """Serve ``tmp_path/www`` on 127.0.0.1:<ephemeral>; yields (www dir, base URL, list of requested paths)."""
    www = tmp_path / "www"
    www.mkdir()
    requests: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # keep pytest output quiet
            pass

        def do_GET(self):
            requests.append(self.path)
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(www)))
    t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        yield www, f"http://127.0.0.1:{httpd.server_address[1]}", requests
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture()
def toy(server, monkeypatch):
    """Register ``toy`` (3 files) and a mirror of it under www/toy/; upstream URLs point at www/upstream/."""
    www, base, requests = server
    for rel, data in FILES.items():
        for top in ("toy", "upstream"):
            p = www / top / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
    rows = [(rel, len(data), sha(data), f"{base}/upstream/{rel}", "-") for rel, data in FILES.items()]
    monkeypatch.setitem(registry.DATASETS, "toy", {
        "status": "complete", "title": "toy fixture", "source": "", "upstream": "", "missing": [], "note": "",
        "files": registry.HEADER + "\n" + tsv(rows),
    })
    monkeypatch.delenv("SPARSELAB_FETCH_BASE_URL", raising=False)
    monkeypatch.delenv("SPARSELAB_DATA", raising=False)
    return www, base, requests


def test_fetch_downloads_and_verifies(toy, tmp_path):
    www, base, requests = toy
    root = tmp_path / "root"
    res = fetch("toy", root=root, progress=None)
    assert sorted(res.downloaded) == sorted(FILES)
    for rel, data in FILES.items():
        assert (root / "toy" / rel).read_bytes() == data
    assert not list(root.rglob("*.part"))
    assert [r.status for r in check(["toy"], root=root, progress=None)] == ["present"]


def test_refetch_skips_present_files(toy, tmp_path):
    www, base, requests = toy
    root = tmp_path / "root"
    fetch("toy", root=root, progress=None)
    n = len(requests)
    (root / "toy" / "a.txt").unlink()
    res = fetch("toy", root=root, progress=None)
    assert res.downloaded == ["a.txt"] and sorted(res.skipped) == ["c.txt.gz", "sub/b.tsv"]
    assert requests[n:] == ["/upstream/a.txt"]


def test_base_url_override_env_and_argument(toy, tmp_path, monkeypatch):
    www, base, requests = toy
    monkeypatch.setenv("SPARSELAB_FETCH_BASE_URL", base + "/")
    fetch("toy", root=tmp_path / "r1", progress=None)
    assert all(p.startswith("/toy/") for p in requests) and len(requests) == 3
    monkeypatch.delenv("SPARSELAB_FETCH_BASE_URL")
    requests.clear()
    fetch("toy", root=tmp_path / "r2", base_url=base, progress=None)
    assert all(p.startswith("/toy/") for p in requests) and len(requests) == 3


def test_corrupt_download_raises_and_leaves_nothing(toy, tmp_path):
    www, base, requests = toy
    (www / "upstream" / "sub" / "b.tsv").write_bytes(b"tampered\n")
    root = tmp_path / "root"
    with pytest.raises(ChecksumMismatchError) as ei:
        fetch("toy", root=root, progress=None, retries=0)
    err = ei.value
    assert err.expected == sha(FILES["sub/b.tsv"]) and err.actual == sha(b"tampered\n")
    assert err.expected in str(err) and err.actual in str(err)
    assert not (root / "toy" / "sub" / "b.tsv").exists()
    assert not [p for p in root.rglob("*") if p.is_file() and p.name.endswith(".part")]


def test_offline_error_names_url(toy, tmp_path):
    www, base, requests = toy
    (www / "upstream" / "a.txt").unlink()
    with pytest.raises(FetchError, match=r"/upstream/a\.txt.*HTTP 404"):
        fetch("toy", root=tmp_path / "root", progress=None, retries=0)
    dead = "http://127.0.0.1:9"  # discard port: connection refused
    with pytest.raises(FetchError, match=r"127\.0\.0\.1:9/toy/a\.txt"):
        fetch("toy", root=tmp_path / "root", base_url=dead, timeout=5, progress=None, retries=0)


def test_regzip_and_archive_sources(server, tmp_path, monkeypatch):
    """gzip= files are gzipped locally and accepted by content hash; archive members are extracted and verified."""
    www, base, _ = server
    plain = b"line one\nline two\n" * 20
    (www / "plain.txt").write_bytes(plain)
    disk_gz = gzip.compress(plain, compresslevel=9, mtime=12345)  # a different gzip than fetch will produce
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("pkg/data/x.bin", b"\x00\x01" * 100)
    (www / "pkg.whl").write_bytes(buf.getvalue())
    rows = [
        ("p.txt.gz", len(disk_gz), sha(disk_gz), f"{base}/plain.txt", f"gzip={sha(plain)}"),
        ("x.bin", 200, sha(b"\x00\x01" * 100), f"{base}/pkg.whl", f"archive_sha256={sha(buf.getvalue())};member=pkg/data/x.bin"),
    ]
    monkeypatch.setitem(registry.DATASETS, "toy2", {"status": "complete", "files": tsv(rows)})
    monkeypatch.delenv("SPARSELAB_FETCH_BASE_URL", raising=False)
    root = tmp_path / "root"
    fetch("toy2", root=root, progress=None)
    assert gzip.decompress((root / "toy2" / "p.txt.gz").read_bytes()) == plain
    assert (root / "toy2" / "x.bin").read_bytes() == b"\x00\x01" * 100
    assert check(["toy2"], root=root, progress=None)[0].status == "present"
    assert not list((root / "toy2").glob(".*"))


def test_check_present_partial_missing(toy, tmp_path):
    root = tmp_path / "root"
    assert check(["toy"], root=root, progress=None)[0].status == "missing"
    fetch("toy", root=root, progress=None)
    (root / "toy" / "a.txt").unlink()
    (root / "toy" / "sub" / "b.tsv").write_bytes(b"x" * len(FILES["sub/b.tsv"]))  # same size, wrong content
    r = check(["toy"], root=root, progress=None)[0]
    assert r.status == "partial" and r.missing == ["a.txt"] and [p for p, _ in r.bad] == ["sub/b.tsv"]
    q = check(["toy"], root=root, quick=True, progress=None)[0]  # quick: size only, so b.tsv passes
    assert q.status == "partial" and q.missing == ["a.txt"] and q.bad == []
    (root / "toy" / "c.txt.gz").write_bytes(b"short")
    assert [p for p, _ in check(["toy"], root=root, quick=True, progress=None)[0].bad] == ["c.txt.gz"]


def test_cli_check_and_list(toy, tmp_path, capsys):
    root = tmp_path / "root"
    assert main(["check", "toy", "--root", str(root)]) == 1
    assert "toy: missing" in capsys.readouterr().out
    assert main(["fetch", "toy", "--root", str(root)]) == 0
    assert main(["check", "toy", "--root", str(root)]) == 0
    assert "toy: present (3/3 files OK)" in capsys.readouterr().out
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "reuters_rcv1v2" in out and "mulan" in out


@pytest.mark.parametrize("cmd", [["fetch", "nope"], ["check", "mulan", "nope"]])
def test_unknown_name_lists_valid_ones(cmd, tmp_path, capsys):
    assert main(cmd + ["--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "unknown dataset 'nope'" in err
    for name in ("sigmorphon2018_task1", "mulan", "snli_1.0", "kftt", "reuters_rcv1v2"):
        assert name in err


def test_unobtainable_dataset_is_refused(tmp_path, capsys):
    assert get_dataset("reuters_rcv1v2").files == ()
    with pytest.raises(NotObtainableError, match="no downloadable files"):
        fetch("reuters_rcv1v2", root=tmp_path, progress=None)
    assert main(["fetch", "reuters_rcv1v2", "--root", str(tmp_path)]) == 1
    assert check(["reuters_rcv1v2"], root=tmp_path, progress=None)[0].status == "unavailable"


def test_registry_is_well_formed():
    expected = {"sigmorphon2018_task1", "mulan", "snli_1.0", "iwslt2017_de_en", "multi30k", "small_parallel_enja",
                "wmt16_ro_en", "wmt14_en_de", "kftt", "glove_6b_50d", "reuters_rcv1v2"}
    assert expected <= set(registry.DATASETS)
    for name in registry.DATASETS:
        ds = get_dataset(name)
        assert ds.status in ("complete", "partial", "missing")
        assert (ds.status == "missing") == (not ds.files)
        for f in ds.files:
            # "lock": sha256 recorded on first download (sparselab.data.fetch lock-file mode)
            assert (len(f.sha256) == 64 or f.sha256 == "lock") and f.url.startswith(("https://", "http://"))
            assert not f.path.startswith("/") and ".." not in f.path.split("/")
        assert len({f.path for f in ds.files}) == len(ds.files)


SHARED = PROJECT_ROOT.parent / "shared" / "data"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present")
def test_real_registry_matches_shared_data():
    """Full sha256 check of mulan + sigmorphon on the shared root (~60 MB, well under a second)."""
    reports = check(["mulan", "sigmorphon2018_task1"], root=SHARED, progress=None)
    for r in reports:
        assert r.status == "present", r.summary()


def test_fetch_refuses_read_only_root(toy, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(FetchError, match="read-only"):
            fetch("toy", root=ro, progress=None)
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o755)


def test_lock_mode_records_on_first_download_and_verifies_after(server, tmp_path, monkeypatch):
    """sha256 "lock": the first download records the checksum next to the data; later downloads must match it."""
    import json
    import tarfile

    www, base, requests = server
    (www / "train.de").write_bytes(b"Hallo Welt\n" * 10)
    tgz = www / "corpus.tgz"

    def make_tgz(text: bytes):
        with tarfile.open(tgz, "w:gz") as tf:
            info = tarfile.TarInfo("corpus/train.en")
            info.size = len(text)
            tf.addfile(info, io.BytesIO(text))

    make_tgz(b"Hello world\n" * 10)
    rows = [("train.de", "-", "lock", f"{base}/train.de", "-"),
            ("corpus/train.en", "-", "lock", f"{base}/corpus.tgz", "archive_sha256=lock;member=corpus/train.en")]
    monkeypatch.setitem(registry.DATASETS, "toylock", {"status": "complete", "files": tsv(rows)})
    monkeypatch.delenv("SPARSELAB_FETCH_BASE_URL", raising=False)
    root = tmp_path / "root"
    res = fetch("toylock", root=root, progress=None)
    assert sorted(res.downloaded) == ["corpus/train.en", "train.de"]
    lock = json.loads((root / "toylock" / LOCK_NAME).read_text())
    assert lock["files"] == {"train.de": sha(b"Hallo Welt\n" * 10), "corpus/train.en": sha(b"Hello world\n" * 10)}
    assert lock["archives"] == {f"{base}/corpus.tgz": sha(tgz.read_bytes())}
    # present and matching the lock: nothing is downloaded again
    n = len(requests)
    assert sorted(fetch("toylock", root=root, progress=None).skipped) == ["corpus/train.en", "train.de"]
    assert len(requests) == n
    # upstream changed: a new download no longer matches the lock, is refused and leaves nothing
    (root / "toylock" / "train.de").unlink()
    (www / "train.de").write_bytes(b"tampered\n")
    with pytest.raises(ChecksumMismatchError) as ei:
        fetch("toylock", root=root, progress=None, retries=0)
    assert ei.value.expected == sha(b"Hallo Welt\n" * 10) and ei.value.actual == sha(b"tampered\n")
    assert not (root / "toylock" / "train.de").exists()
    assert not [p for p in root.rglob("*") if p.name.endswith(".part")]
    # a present file that no longer matches its lock entry is fetched again (and must match)
    (www / "train.de").write_bytes(b"Hallo Welt\n" * 10)
    (root / "toylock" / "corpus" / "train.en").write_bytes(b"corrupt")
    res = fetch("toylock", root=root, progress=None)
    assert sorted(res.downloaded) == ["corpus/train.en", "train.de"]
    assert (root / "toylock" / "corpus" / "train.en").read_bytes() == b"Hello world\n" * 10
    # the archive changed upstream: refused against the recorded archive sha256
    (root / "toylock" / "corpus" / "train.en").unlink()
    make_tgz(b"Hello again\n")
    with pytest.raises(ChecksumMismatchError, match="corpus.tgz"):
        fetch("toylock", root=root, progress=None, retries=0)
    assert json.loads((root / "toylock" / LOCK_NAME).read_text()) == lock  # the lock itself is never rewritten


def test_paper_mt_training_sets_are_registered_in_lock_mode():
    for name in ("iwslt2017_de_en_full", "kftt_full", "wmt16_ro_en_full"):
        ds = get_dataset(name)
        assert ds.files and all(f.sha256 == "lock" and f.archive_sha256 == "lock" and f.member for f in ds.files)
