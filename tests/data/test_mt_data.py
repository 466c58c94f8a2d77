"""Parallel-corpus readers (sparselab.data.parallel): alignment and format errors name file and line; real corpora."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from sparselab.data import parallel as par
from sparselab.errors import DataFormatError, MissingDataError
from sparselab.locations import PROJECT_ROOT
from sparselab.errors import ConfigError

SHARED = PROJECT_ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present")


def _write(p: Path, lines, gz=False):
    data = "".join(f"{x}\n" for x in lines).encode()
    p.write_bytes(gzip.compress(data) if gz else data)
    return p


def test_misaligned_files_name_file_and_line(tmp_path):
    a = _write(tmp_path / "x.de", ["eins", "zwei", "drei"])
    b = _write(tmp_path / "x.en.gz", ["one", "two"], gz=True)
    with pytest.raises(DataFormatError) as ei:
        par.read_text_pair(a, b)
    err = ei.value
    assert err.path == str(a) and err.lineno == 3
    assert str(err).startswith(f"{a}:3: misaligned") and str(b) in str(err)


def test_misaligned_corpus_split_fails_before_training(tmp_path, monkeypatch):
    """The corpus-level reader (what the task calls first) raises the same error."""
    root = tmp_path / "root"
    d = root / "multi30k" / "task1" / "raw"
    d.mkdir(parents=True)
    _write(d / "val.de.gz", ["a", "b"], gz=True)
    _write(d / "val.en.gz", ["a", "b", "c", "d"], gz=True)
    monkeypatch.delenv("SPARSELAB_DATA", raising=False)
    with pytest.raises(DataFormatError, match=r"val\.en\.gz:3: misaligned parallel files"):
        par.read_split("multi30k/val", "de", "en", root)


def test_malformed_lines(tmp_path):
    a = tmp_path / "bad.de"
    a.write_bytes(b"gut\n\xff\xfe kaputt\n")
    b = _write(tmp_path / "bad.en", ["good", "broken"])
    with pytest.raises(DataFormatError, match=r"bad\.de:2: not valid UTF-8"):
        par.read_text_pair(a, b)
    x = tmp_path / "e.x"
    y = tmp_path / "e.y"
    seg_a = ['<doc>', '<seg id="1"> Hallo </seg>', '<seg id="2"> Welt </seg>']
    seg_b = ['<doc>', '<seg id="1"> Hello </seg>', '<seg id="3"> world </seg>']
    _write(x, seg_a), _write(y, seg_b)
    with pytest.raises(DataFormatError, match=r"e\.y:3: misaligned parallel files: segment id '3'"):
        par.read_xml_pair(x, y)
    j = tmp_path / "t.json"
    j.write_text(json.dumps([{"translation": {"de": "a", "en": "b"}}, {"translation": {"de": "c"}}]))
    with pytest.raises(DataFormatError, match=r"t\.json:2: record 2"):
        par.read_json_pairs(j, "de", "en")
    j.write_text('[{"translation": {"de": "a",\n "en": }}]')
    with pytest.raises(DataFormatError, match=r"t\.json:2: invalid JSON"):
        par.read_json_pairs(j, "de", "en")


def test_tags_reader_skips_metadata_and_checks_alignment(tmp_path):
    a = _write(tmp_path / "train.tags.de-en.de", ["<url>http://x</url>", "<talkid>1</talkid>", "Hallo .", "Welt ."])
    b = _write(tmp_path / "train.tags.de-en.en", ["<url>http://x</url>", "<talkid>1</talkid>", "Hello .", "World ."])
    assert par.read_tags_pair(a, b) == (["Hallo .", "Welt ."], ["Hello .", "World ."])
    _write(b, ["<url>http://x</url>", "<talkid>1</talkid>", "Hello ."])
    with pytest.raises(DataFormatError, match=r"train\.tags\.de-en\.de:4: misaligned"):
        par.read_tags_pair(a, b)


def test_empty_sentence_error_or_drop(tmp_path):
    root = tmp_path / "root"
    d = root / "small_parallel_enja"
    d.mkdir(parents=True)
    _write(d / "dev.ja", ["a", "", "c"])
    _write(d / "dev.en", ["x", "y", "z"])
    with pytest.raises(DataFormatError, match=r"dev\.ja:2: empty sentence"):
        par.read_split("small_parallel_enja/dev", "en", "ja", root)
    sp = par.read_split("small_parallel_enja/dev", "en", "ja", root, empty="drop")
    assert (sp.src, sp.tgt, sp.dropped_empty) == (["x", "z"], ["a", "c"], 1)


def test_missing_data_and_bad_specs(tmp_path):
    with pytest.raises(MissingDataError, match=r"dataset 'wmt16_ro_en_full' not found.*fetch wmt16_ro_en_full"):
        par.read_split("wmt16/train", "ro", "en", tmp_path)
    with pytest.raises(ConfigError, match="no split 'nope'"):
        par.read_split("multi30k/nope", "de", "en", tmp_path)
    with pytest.raises(ConfigError, match="is de-en, not ja-en"):
        par.read_split("multi30k/val", "ja", "en", tmp_path)
    with pytest.raises(ConfigError, match="data.pair='deen'"):
        par.parse_pair("deen")


@needs_shared
@pytest.mark.parametrize("spec,pair,n", [
    ("multi30k/train", ("de", "en"), 29000), ("multi30k/test2016", ("en", "de"), 1000),
    ("small_parallel_enja/train", ("ja", "en"), 50000), ("small_parallel_enja/test", ("en", "ja"), 500),
    ("iwslt2017/dev", ("de", "en"), 888), ("iwslt2017/test", ("de", "en"), 8079),
    ("kftt/test", ("ja", "en"), 1160), ("wmt16/dev", ("ro", "en"), 1999),
])
def test_real_corpora(spec, pair, n):
    sp = par.read_split(spec, *pair, SHARED)
    assert len(sp) == n and len(sp.src) == len(sp.tgt)
    if spec == "multi30k/train":
        assert sp.tgt[0] == "Two young, White males are outside near many bushes."
    if spec == "small_parallel_enja/test":
        assert sp.src[0] == "they finally acknowledged it as true ." and sp.tgt[0].startswith("彼 ら は")
