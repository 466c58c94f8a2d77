"""A small Weka ARFF reader (dense and sparse rows) plus the Mulan label header (``<name>.xml``).

Supported: ``@relation``, ``@attribute NAME numeric|real|integer|{v1,v2,...}`` (names quoted with
``'`` or ``"`` may contain spaces and backslash escapes), dense rows ``v1,v2,...`` and sparse
rows ``{i v, j v, ...}`` (omitted entries are 0; for a nominal attribute 0 is its first value),
``?`` for a missing value (read as NaN), ``%`` comments. Nominal values are returned as their
index in the declared value list (Weka's convention). String/date attributes are not supported.
Every malformed line raises :class:`~sparselab.errors.DataFormatError` naming ``file:line``.
"""
from __future__ import annotations

import gzip

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from sparselab.errors import DataFormatError

NUMERIC_TYPES = ("numeric", "real", "integer")


@dataclass
class Attribute:
    name: str
    kind: str  # "numeric" or "nominal"
    values: list[str] = field(default_factory=list)  # nominal values, in declared order


@dataclass
class Arff:
    relation: str
    attributes: list[Attribute]
    data: np.ndarray | sp.csr_matrix  # n x n_attributes, float64; nominal = value index
    sparse: bool
    path: Path

    def index(self, name: str) -> int:
        for i, a in enumerate(self.attributes):
            if a.name == name:
                return i
        raise KeyError(name)


def _read_token(s: str, pos: int, path, lineno) -> tuple[str, int]:
    """Read one (possibly quoted) token starting at s[pos] (no leading spaces); return (token, end)."""
    if pos >= len(s):
        raise DataFormatError(path, lineno, "expected a name or value, found end of line")
    q = s[pos]
    if q in "'\"":
        out = []
        i = pos + 1
        while i < len(s):
            c = s[i]
            if c == "\\" and i + 1 < len(s):
                out.append(s[i + 1])
                i += 2
                continue
            if c == q:
                return "".join(out), i + 1
            out.append(c)
            i += 1
        raise DataFormatError(path, lineno, f"unterminated quote {q} in {s.strip()[:80]!r}")
    m = re.compile(r"[^\s,{}]+").match(s, pos)
    if not m:
        raise DataFormatError(path, lineno, f"expected a name or value at column {pos + 1}")
    return m.group(0), m.end()


def _split_values(s: str, path, lineno) -> list[str]:
    """Split a comma-separated list of (possibly quoted) values."""
    if "'" not in s and '"' not in s:
        return [v.strip() for v in s.split(",")]
    out, pos, n = [], 0, len(s)
    while True:
        while pos < n and s[pos] in " \t":
            pos += 1
        if pos < n and s[pos] in "'\"":
            tok, pos = _read_token(s, pos, path, lineno)
        else:
            end = s.find(",", pos)
            end = n if end < 0 else end
            tok, pos = s[pos:end].strip(), end
        out.append(tok)
        while pos < n and s[pos] in " \t":
            pos += 1
        if pos >= n:
            return out
        if s[pos] != ",":
            raise DataFormatError(path, lineno, f"expected ',' at column {pos + 1}")
        pos += 1


def _parse_attribute(rest: str, path, lineno) -> Attribute:
    rest = rest.strip()
    name, pos = _read_token(rest, 0, path, lineno)
    kind = rest[pos:].strip()
    if not kind:
        raise DataFormatError(path, lineno, f"attribute {name!r} has no type")
    if kind.startswith("{"):
        if not kind.endswith("}"):
            raise DataFormatError(path, lineno, f"attribute {name!r}: nominal value list is not closed with '}}'")
        values = _split_values(kind[1:-1], path, lineno)
        return Attribute(name, "nominal", values)
    if kind.lower() in NUMERIC_TYPES:
        return Attribute(name, "numeric")
    raise DataFormatError(path, lineno, f"attribute {name!r}: unsupported type {kind!r} "
                                        f"(numeric, real, integer or {{nominal}} expected)")


def _convert(value: str, attr: Attribute, lookup: dict[str, int] | None, path, lineno) -> float:
    if value == "?":
        return float("nan")
    if attr.kind == "numeric":
        try:
            return float(value)
        except ValueError:
            raise DataFormatError(path, lineno, f"attribute {attr.name!r}: {value!r} is not a number") from None
    try:
        return float(lookup[value])
    except KeyError:
        raise DataFormatError(path, lineno, f"attribute {attr.name!r}: {value!r} is not one of {attr.values}") from None


def read_arff(path: str | Path) -> Arff:
    path = Path(path)
    relation = ""
    attributes: list[Attribute] = []
    lookups: list[dict[str, int] | None] = []
    in_data = False
    dense_rows: list[list[float]] = []
    sp_rows: list[int] = []
    sp_cols: list[int] = []
    sp_vals: list[float] = []
    n_rows = 0
    sparse = None
    opener = gzip.open if str(path).endswith(".gz") else open   # .arff.gz: the shipped excerpts
    with opener(path, "rt", encoding="utf-8", errors="strict") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            if not in_data:
                low = line.lower()
                if low.startswith("@relation"):
                    relation = line[len("@relation"):].strip().strip("'\"")
                elif low.startswith("@attribute"):
                    attributes.append(_parse_attribute(line[len("@attribute"):], path, lineno))
                    a = attributes[-1]
                    lookups.append({v: i for i, v in enumerate(a.values)} if a.kind == "nominal" else None)
                elif low.startswith("@data"):
                    if not attributes:
                        raise DataFormatError(path, lineno, "@data before any @attribute")
                    in_data = True
                else:
                    raise DataFormatError(path, lineno, f"unexpected header line {line[:80]!r}")
                continue
            n_attr = len(attributes)
            if line.startswith("{"):
                if sparse is False:
                    raise DataFormatError(path, lineno, "sparse row in a file whose rows are dense")
                sparse = True
                if not line.endswith("}"):
                    raise DataFormatError(path, lineno, "sparse row is not closed with '}'")
                body = line[1:-1].strip()
                if body:
                    for item in _split_pairs(body, path, lineno):
                        idx_s, _, val = item.partition(" ")
                        try:
                            idx = int(idx_s)
                        except ValueError:
                            raise DataFormatError(path, lineno, f"sparse entry {item!r}: index is not an integer") from None
                        if not 0 <= idx < n_attr:
                            raise DataFormatError(path, lineno, f"sparse index {idx} out of range 0..{n_attr - 1}")
                        val = val.strip()
                        if not val:
                            raise DataFormatError(path, lineno, f"sparse entry {item!r} has no value")
                        if val[0] in "'\"":
                            val, _ = _read_token(val, 0, path, lineno)
                        v = _convert(val, attributes[idx], lookups[idx], path, lineno)
                        if v != 0:
                            sp_rows.append(n_rows)
                            sp_cols.append(idx)
                            sp_vals.append(v)
            else:
                if sparse is True:
                    raise DataFormatError(path, lineno, "dense row in a file whose rows are sparse")
                sparse = False
                values = _split_values(line, path, lineno)
                if len(values) != n_attr:
                    raise DataFormatError(path, lineno, f"row has {len(values)} values, expected {n_attr}")
                dense_rows.append([_convert(v, a, lk, path, lineno) for v, a, lk in zip(values, attributes, lookups)])
            n_rows += 1
    if not in_data:
        raise DataFormatError(path, lineno if attributes else 1, "no @data section")
    n_attr = len(attributes)
    if sparse:
        data = sp.csr_matrix((np.asarray(sp_vals, dtype=np.float64), (np.asarray(sp_rows), np.asarray(sp_cols))),
                             shape=(n_rows, n_attr))
    else:
        data = np.asarray(dense_rows, dtype=np.float64).reshape(n_rows, n_attr)
    return Arff(relation, attributes, data, bool(sparse), path)


def _split_pairs(body: str, path, lineno) -> list[str]:
    if "'" not in body and '"' not in body:
        return [p.strip() for p in body.split(",")]
    # quoted values may contain commas: split on commas outside quotes
    out, cur, q, i = [], [], None, 0
    while i < len(body):
        c = body[i]
        if q:
            cur.append(c)
            if c == "\\" and i + 1 < len(body):
                cur.append(body[i + 1])
                i += 1
            elif c == q:
                q = None
        elif c in "'\"":
            q = c
            cur.append(c)
        elif c == ",":
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if q:
        raise DataFormatError(path, lineno, f"unterminated quote {q} in sparse row")
    out.append("".join(cur).strip())
    return out


def read_mulan_labels(xml_path: str | Path) -> list[str]:
    """Label attribute names from a Mulan ``<name>.xml`` header (``<label name="...">``, nesting allowed)."""
    xml_path = Path(xml_path)
    try:
        root = ET.parse(xml_path).getroot()
    except ET.ParseError as err:
        line = getattr(err, "position", (1, 0))[0]
        raise DataFormatError(xml_path, line, f"invalid XML: {err}") from None
    names = [el.attrib["name"] for el in root.iter() if el.tag.split("}")[-1] == "label" and "name" in el.attrib]
    if not names:
        raise DataFormatError(xml_path, 1, "no <label name=...> elements")
    return names


def split_features_labels(arff: Arff, label_names: list[str]):
    """Return (X, Y, feature_attributes, label_names): Y is a dense 0/1 int8 matrix of the label attributes.

    Nominal features with more than two values are one-hot encoded; two-valued nominal features keep
    their value index (0/1). A label's positive value is "1" (Mulan convention).
    """
    name_to_idx = {a.name: i for i, a in enumerate(arff.attributes)}
    missing = [n for n in label_names if n not in name_to_idx]
    if missing:
        raise DataFormatError(arff.path, 1, f"label attributes {missing[:5]} from the XML header are not declared")
    lab_idx = [name_to_idx[n] for n in label_names]
    lab_set = set(lab_idx)
    feat_idx = [i for i in range(len(arff.attributes)) if i not in lab_set]
    data = arff.data
    ycols = data[:, lab_idx]
    ycols = ycols.toarray() if sp.issparse(ycols) else ycols
    Y = np.zeros(ycols.shape, dtype=np.int8)
    for j, i in enumerate(lab_idx):
        a = arff.attributes[i]
        if a.kind == "nominal":
            pos = a.values.index("1") if "1" in a.values else len(a.values) - 1
            Y[:, j] = ycols[:, j] == pos
        else:
            Y[:, j] = ycols[:, j] > 0
    blocks, feats = [], []
    X = data[:, feat_idx]
    multi = [k for k, i in enumerate(feat_idx)
             if arff.attributes[i].kind == "nominal" and len(arff.attributes[i].values) > 2]
    if not multi:
        return X, Y, [arff.attributes[i] for i in feat_idx], label_names
    keep = [k for k in range(len(feat_idx)) if k not in set(multi)]
    Xd = X.toarray() if sp.issparse(X) else X
    blocks.append(Xd[:, keep])
    feats = [arff.attributes[feat_idx[k]] for k in keep]
    for k in multi:
        a = arff.attributes[feat_idx[k]]
        onehot = np.zeros((Xd.shape[0], len(a.values)))
        col = Xd[:, k]
        ok = ~np.isnan(col)
        onehot[np.nonzero(ok)[0], col[ok].astype(int)] = 1.0
        blocks.append(onehot)
        feats += [Attribute(f"{a.name}={v}", "numeric") for v in a.values]
    out = np.hstack(blocks)
    return (sp.csr_matrix(out) if sp.issparse(X) else out), Y, feats, label_names
