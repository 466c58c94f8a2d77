"""The fetcher the way it fails: a mirror served from 127.0.0.1 (http.server in a thread, with Range requests and a
connection it can drop mid-file), fixture archives in the upstream formats (tar.gz, zip, plain .gz) built here.
Covers a first fetch, a checksum mismatch, a dropped connection resumed, an offline run (one line), the lock mode,
and data on first use before a cpu run."""
from __future__ import annotations

import gzip
import hashlib
import http.server
import io
import json
import os
import re
import socket
import subprocess
import sys
import tarfile
import threading
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest

from sparselab.data import registry
from sparselab.data.check import check
from sparselab.data.excerpt import ROOT as EXCERPTS
from sparselab.data.fetch import LOCK_NAME, ChecksumMismatchError, FetchError, fetch

import warm

PROJECT = Path(__file__).resolve().parents[2]
BIG = bytes(range(256)) * 1200            # 300 KB: big enough to be cut mid-file
TEXT = "".join(f"Satz {i}\n" for i in range(200)).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Mirror:
    """Files under ``www`` on 127.0.0.1; ``requests``: (path, Range header); ``drop[path] = n``: the next GET of
    ``path`` sends ``n`` bytes of the body, then closes the connection."""

    def __init__(self, www: Path):
        self.www, self.requests, self.drop = www, [], {}
        mirror = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = unquote(self.path)
                rng = self.headers.get("Range")
                mirror.requests.append((path, rng))
                f = mirror.www / path.lstrip("/")
                if not f.is_file():
                    return self.send_error(404)
                data = f.read_bytes()
                start = int(rng.split("=")[1].split("-")[0]) if rng else 0
                if start >= len(data) and rng:
                    self.send_response(416)
                    self.end_headers()
                    return
                self.send_response(206 if rng else 200)
                if rng:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.send_header("Content-Length", str(len(data) - start))
                self.end_headers()
                cut = mirror.drop.pop(path, None)
                self.wfile.write(data[start:] if cut is None else data[start:start + cut])
                if cut is not None:
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)   # the connection drops mid-file
                    self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def mirror(tmp_path):
    m = Mirror(tmp_path / "www")
    m.www.mkdir()
    yield m
    m.close()


def tar_gz(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def register(monkeypatch, name: str, rows) -> None:
    monkeypatch.setitem(registry.DATASETS, name, {"status": "complete", "title": name, "files": "\n".join(
        "\t".join(str(c) for c in r) for r in rows)})
    monkeypatch.delenv("SPARSELAB_FETCH_BASE_URL", raising=False)


@pytest.fixture()
def upstream(mirror, monkeypatch):
    """Data set ``up``: a plain .gz, a member of a tar.gz, a member of a zip, and a large plain file."""
    gz, tgz = gzip.compress(TEXT, mtime=0), tar_gz({"corpus/train.de": TEXT, "corpus/README": b"x"})
    zp = zip_bytes({"vec/data/x.bin": BIG[:5000]})
    for rel, data in {"text.de.gz": gz, "corpus.tgz": tgz, "vec.zip": zp, "big.bin": BIG}.items():
        (mirror.www / rel).write_bytes(data)
    u = mirror.url
    register(monkeypatch, "up", [
        ("text.de.gz", len(gz), sha(gz), f"{u}/text.de.gz", "-"),
        ("train.de", len(TEXT), sha(TEXT), f"{u}/corpus.tgz", f"archive_sha256={sha(tgz)};member=corpus/train.de"),
        ("x.bin", 5000, sha(BIG[:5000]), f"{u}/vec.zip", "archive_sha256=None;member=vec/data/x.bin"),
        ("big.bin", len(BIG), sha(BIG), f"{u}/big.bin", "-")])
    return mirror


def files_under(d: Path) -> list[str]:
    return sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())


def test_a_first_fetch_takes_every_upstream_format(upstream, tmp_path):
    root = tmp_path / "root"
    res = fetch("up", root=root, progress=None, retries=0)
    assert sorted(res.downloaded) == ["big.bin", "text.de.gz", "train.de", "x.bin"]
    assert (root / "up" / "train.de").read_bytes() == TEXT and (root / "up" / "big.bin").read_bytes() == BIG
    assert files_under(root / "up") == ["big.bin", "text.de.gz", "train.de", "x.bin"]   # no archive, part, staging
    assert check(["up"], root=root, progress=None)[0].status == "present"
    n = len(upstream.requests)
    assert sorted(fetch("up", root=root, progress=None).skipped) == sorted(res.downloaded)
    assert len(upstream.requests) == n


def test_a_checksum_mismatch_is_refused_and_leaves_nothing(upstream, tmp_path):
    (upstream.www / "big.bin").write_bytes(BIG[::-1])
    root = tmp_path / "root"
    with pytest.raises(ChecksumMismatchError) as ei:
        fetch("up", root=root, progress=None, retries=0)
    assert (ei.value.expected, ei.value.actual) == (sha(BIG), sha(BIG[::-1]))
    assert "big.bin" not in files_under(root / "up") and not [f for f in files_under(root) if "part" in f]
    # a tampered archive is refused the same way, before any member is extracted
    (upstream.www / "big.bin").write_bytes(BIG)
    (upstream.www / "corpus.tgz").write_bytes(tar_gz({"corpus/train.de": b"tampered\n"}))
    with pytest.raises(ChecksumMismatchError, match="corpus.tgz"):
        fetch("up", root=root, progress=None, retries=0)
    assert "train.de" not in files_under(root / "up") and not (root / "up" / ".download").exists()


def test_a_dropped_connection_is_resumed_where_it_stopped(upstream, tmp_path):
    root = tmp_path / "root"
    upstream.drop["/big.bin"] = 100_000
    with pytest.raises(FetchError, match="big.bin"):
        fetch("up", root=root, progress=None, retries=0)
    assert not (root / "up" / "big.bin").exists()                      # nothing half-written under its name
    have = (root / "up" / ".big.bin.part").stat().st_size               # what arrived, in whole chunks
    assert 0 < have <= 100_000
    fetch("up", root=root, progress=None, retries=0)
    assert [r for r in upstream.requests if r[0] == "/big.bin"][-1] == ("/big.bin", f"bytes={have}-")   # the rest
    assert (root / "up" / "big.bin").read_bytes() == BIG and not (root / "up" / ".big.bin.part").exists()
    # within one fetch, pooch's retry resumes too
    (root / "up" / "big.bin").unlink()
    upstream.drop["/big.bin"] = 80_000       # one 64 KiB chunk arrives
    upstream.requests.clear()
    fetch("up", root=root, progress=None, retries=1)
    (first, none), (again, rng) = upstream.requests
    assert first == again == "/big.bin" and none is None and 0 < int(rng.removeprefix("bytes=").rstrip("-")) <= 80_000
    assert (root / "up" / "big.bin").read_bytes() == BIG


def test_offline_the_fetch_names_the_url_and_leaves_no_folder(upstream, tmp_path):
    root = tmp_path / "root"
    with pytest.raises(FetchError) as ei:
        fetch("up", root=root, base_url="http://127.0.0.1:9", progress=None, retries=0)   # port 9: refused
    msg = str(ei.value)
    assert "\n" not in msg and "127.0.0.1:9/up/" in msg and "offline" in msg
    assert not root.exists()


def test_offline_a_cpu_run_stops_in_one_line_before_any_folder(tmp_path):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled", "SPARSELAB_DATA": str(tmp_path / "data"),
           "SPARSELAB_FETCH_BASE_URL": "http://127.0.0.1:9"}
    proc = warm.run([sys.executable, "-m", "sparselab.run", "experiment=martins2016/table2_multilabel",
                           "profile=cpu", "data.name=emotions", "task.loss=softmax", f"paths.runs={tmp_path / 'runs'}"],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300)
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr[-2000:]
    assert lines[0].startswith("error: data set 'mulan'") and "python -m sparselab.data fetch mulan" in lines[0]
    assert not (tmp_path / "runs").exists() and not (tmp_path / "data").exists()


def test_lock_mode_records_the_first_download_and_refuses_a_changed_one(mirror, tmp_path, monkeypatch):
    u = mirror.url
    (mirror.www / "train.en").write_bytes(TEXT)
    (mirror.www / "c.tgz").write_bytes(tar_gz({"c/train.de": TEXT}))
    register(monkeypatch, "lk", [("train.en", "-", "lock", f"{u}/train.en", "-"),
                                 ("c/train.de", "-", "lock", f"{u}/c.tgz", "archive_sha256=lock;member=c/train.de")])
    root = tmp_path / "root"
    fetch("lk", root=root, progress=None, retries=0)
    lock = json.loads((root / "lk" / LOCK_NAME).read_text())
    assert lock["files"] == {"train.en": sha(TEXT), "c/train.de": sha(TEXT)}
    assert lock["archives"] == {f"{u}/c.tgz": sha((mirror.www / "c.tgz").read_bytes())}
    assert check(["lk"], root=root, progress=None)[0].status == "present"
    (root / "lk" / "train.en").unlink()
    (mirror.www / "train.en").write_bytes(b"changed upstream\n")
    with pytest.raises(ChecksumMismatchError) as ei:
        fetch("lk", root=root, progress=None, retries=0)
    assert ei.value.expected == sha(TEXT) and not (root / "lk" / "train.en").exists()
    assert json.loads((root / "lk" / LOCK_NAME).read_text()) == lock


def test_first_use_fetches_what_a_cpu_job_reads_before_it_runs(mirror, tmp_path, monkeypatch):
    """A cpu Table 2 job reads mulan: served here from the excerpts (emotions only) as a mirror of a data root."""
    from sparselab import preflight

    emotions = sorted((EXCERPTS / "mulan" / "emotions").glob("emotions*"))
    (mirror.www / "mulan" / "emotions").mkdir(parents=True)
    rows = []
    for f in emotions:
        (mirror.www / "mulan" / "emotions" / f.name).write_bytes(f.read_bytes())
        rows.append((f"emotions/{f.name}", f.stat().st_size, sha(f.read_bytes()), "https://example.invalid/x", "-"))
    register(monkeypatch, "mulan", rows)
    monkeypatch.setenv("SPARSELAB_FETCH_BASE_URL", mirror.url)
    monkeypatch.setenv("SPARSELAB_DATA", str(tmp_path / "data"))
    cfgs = preflight.job_configs(PROJECT / "conf", ["-m", "experiment=martins2016/table2_multilabel", "profile=cpu",
                                                    "data.name=emotions", "task.loss=softmax,sparsemax"])
    assert [preflight.datasets_of(c) for c in cfgs] == [{"mulan"}]
    assert preflight.ensure(cfgs, progress=lambda m: None) == ["mulan"]
    assert files_under(tmp_path / "data" / "mulan") == [f"emotions/{f.name}" for f in emotions]
    assert preflight.ensure(cfgs, progress=lambda m: None) == []          # there now: nothing to fetch
    smoke = preflight.job_configs(PROJECT / "conf", ["experiment=martins2016/table2_multilabel", "profile=smoke"])
    assert smoke == []                                                     # smoke reads the shipped excerpts


def test_fetch_profile_and_list_name_the_root(upstream, tmp_path, monkeypatch, capsys):
    from sparselab.data import __main__ as cli

    monkeypatch.setitem(cli.PROFILE_NEEDS, "cpu", ("up",))
    root = str(tmp_path / "root")
    assert cli.main(["list", "--root", root]) == 0
    assert re.search(r"^up +missing 0/4 +complete", capsys.readouterr().out, re.M)
    assert cli.main(["fetch", "--profile", "cpu", "--root", root]) == 0
    assert cli.main(["fetch", "--profile", "cpu", "--root", root]) == 0
    assert "up: present under" in capsys.readouterr().out
    assert cli.main(["list", "--root", root]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"data root: {root}\n") and re.search(r"^up +present 4/4 +complete", out, re.M)
    assert cli.main(["fetch", "--profile", "smoke"]) == 0 and "nothing to fetch" in capsys.readouterr().out
    make = subprocess.run(["make", "-n", "-f", str(PROJECT / "Makefile"), "data", "PROFILE=paper"], cwd=PROJECT,
                          capture_output=True, text=True, check=True).stdout
    lines = [l for l in make.strip().splitlines() if not l.startswith("make[")]   # a recursive make prints its folder
    assert lines[-1].endswith("-m sparselab.data fetch --profile paper")


def test_a_missing_mulan_set_names_the_fetchable_data_set(tmp_path):
    from sparselab.data import mulan
    from sparselab.errors import MissingDataError

    with pytest.raises(MissingDataError) as ei:
        mulan.load("emotions", tmp_path)
    assert "python -m sparselab.data fetch mulan`" in str(ei.value) and "Mulan set emotions" in str(ei.value)
