"""The data excerpts shipped in the package (``sparselab/data/excerpts/``): what the smoke profile reads, nothing more.

The folder is a data root of its own (``<name>/<path>`` as under ``../shared/data``) holding, per file, the lines the
smoke profile reads (a prefix of the file: the loaders stop where the excerpt stops, so the smoke numbers are those of
the full data) or the whole file where smoke reads it whole. ``conf/config.yaml`` points the smoke profile's
``data.root`` at it, so ``make test`` and ``make reproduce-<paper> PROFILE=smoke`` run on a fresh clone with no data
folder and no network. ``SPARSELAB_DATA`` (or ``data.root=...``) still wins. Each excerpt's ``NOTE.md`` gives its
source, commit and licence.

``python -m sparselab.data.excerpt SRC_ROOT`` rebuilds the folder from a full data root (e.g. ``../shared/data``);
the rebuild is byte-reproducible (gzip without name or mtime).
"""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from sparselab.locations import EXCERPTS as ROOT

# Peters Table 1 smoke: the first 3 medium languages (data.max_languages); the non-neural baseline reads their
# train, dev and gold test files whole (gzipped here: sigmorphon.split_file reads ``<file>.gz`` where ``<file>`` is
# absent).
SIGMORPHON_LANGS = ("adyghe", "albanian", "arabic")
# Martins Table 2 smoke (pipelines/martins2016.py): emotions and scene, read whole. scene is gzipped (6.2 MB of
# ARFF text; mulan.load reads ``X.arff.gz`` where ``X.arff`` is absent).
MULAN = {"emotions": ("emotions.xml", "emotions-train.arff", "emotions-test.arff"),
         "scene": ("scene.xml", "scene-train.arff.gz", "scene-test.arff.gz")}
# SNLI smoke (conf/data/snli.yaml): the first 400 / 200 / 200 labelled pairs; dev also holds the four Table 4
# example pairs (task.examples.dev_pair_ids, dev lines 795-809).
SNLI_LABELLED = {"snli_1.0_train_0.01.jsonl.gz": 400, "snli_1.0_dev.jsonl.gz": 200, "snli_1.0_test.jsonl.gz": 200}
SNLI_DEV_IDS = ("4876043682.jpg#2r1e", "509200598.jpg#1r1c", "3226796100.jpg#1r1c", "2093272744.jpg#1r1c")
# MT smoke (conf/data/mt.yaml, de-en): 300 training pairs, 20 validation, 20 test, 20 of the IWSLT17 extra test set.
MULTI30K_PAIRS = {"train": 300, "val": 20, "test_2016_flickr": 20}
IWSLT_TEST = 20


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)  # no name, no mtime: a rebuild is byte-identical


def _lines(path: Path) -> list[bytes]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        return fh.readlines()


def _write(dest: Path, data: bytes) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(_gzip(data) if dest.suffix == ".gz" else data)


def _snli_prefix(lines: list[bytes], labelled: int, ids: tuple[str, ...] = ()) -> list[bytes]:
    """The lines up to the ``labelled``-th labelled pair, and up to the last of the pairs ``ids``."""
    last, seen = 0, 0
    for i, raw in enumerate(lines, 1):
        rec = json.loads(raw) if raw.strip() else {}
        if rec.get("gold_label", "-") != "-" and seen < labelled:
            seen += 1
            last = max(last, i)
        if rec.get("pairID") in ids:
            last = max(last, i)
    return lines[:last]


def _pairs_prefix(a: list[bytes], b: list[bytes], pairs: int) -> int:
    """How many lines hold the first ``pairs`` pairs with both sides non-empty (the loader drops the others)."""
    kept = 0
    for i, (x, y) in enumerate(zip(a, b), 1):
        kept += bool(x.strip() and y.strip())
        if kept == pairs:
            return i
    return len(a)


def build(src: Path, dest: Path = ROOT) -> list[Path]:
    """Write every excerpt of the full data root ``src`` under ``dest`` (NOTE.md files are kept); the files written."""
    out = []

    def put(rel: str, data: bytes) -> None:
        _write(dest / rel, data)
        out.append(dest / rel)

    for lang in SIGMORPHON_LANGS:
        for split in ("train-medium", "dev", "test"):
            rel = f"sigmorphon2018_task1/all/{lang}-{split}"
            put(rel + ".gz", (src / rel).read_bytes())
    for folder, files in MULAN.items():
        for name in files:
            put(f"mulan/{folder}/{name}", (src / "mulan" / folder / name.removesuffix(".gz")).read_bytes())
    for name, n in SNLI_LABELLED.items():
        ids = SNLI_DEV_IDS if "_dev" in name else ()
        put(f"snli_1.0/{name}", b"".join(_snli_prefix(_lines(src / "snli_1.0" / name), n, ids)))
    for split, n in MULTI30K_PAIRS.items():
        de, en = (_lines(src / f"multi30k/task1/raw/{split}.{lang}.gz") for lang in ("de", "en"))
        k = _pairs_prefix(de, en, n)
        put(f"multi30k/task1/raw/{split}.de.gz", b"".join(de[:k]))
        put(f"multi30k/task1/raw/{split}.en.gz", b"".join(en[:k]))
    records = json.loads(gzip.decompress((src / "iwslt2017_de_en/test.json.gz").read_bytes()))
    put("iwslt2017_de_en/test.json.gz", json.dumps(records[:IWSLT_TEST], ensure_ascii=False).encode())
    return out


def files() -> list[str]:
    """The paths (``<data set>/<path>``) that :func:`build` writes: what the smoke profile reads."""
    out = [f"sigmorphon2018_task1/all/{lang}-{split}.gz" for lang in SIGMORPHON_LANGS
           for split in ("train-medium", "dev", "test")]
    out += [f"mulan/{folder}/{name}" for folder, names in MULAN.items() for name in names]
    out += [f"snli_1.0/{name}" for name in SNLI_LABELLED]
    out += [f"multi30k/task1/raw/{split}.{lang}.gz" for split in MULTI30K_PAIRS for lang in ("de", "en")]
    return out + ["iwslt2017_de_en/test.json.gz"]


def size(dest: Path = ROOT) -> int:
    return sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        sys.exit("usage: python -m sparselab.data.excerpt SRC_DATA_ROOT  (e.g. ../shared/data)")
    written = build(Path(sys.argv[1]))
    print(f"{len(written)} files, {size() / 1e6:.2f} MB under {ROOT}")
