"""reports/peters2019/diagnosis/: the committed table is what the diagnostic script writes from its stored
measurements, and the measurements hold what the closing note of issue 20 reads from them."""
import importlib.util
import json
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
HERE = PROJECT / "reports" / "peters2019" / "diagnosis"


def script():
    spec = importlib.util.spec_from_file_location("diagnose", PROJECT / "benchmarks" / "diagnose_attention_gradient.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rows(attn_alpha, alpha=1.0, init="default"):
    out = [json.loads(x) for x in (HERE / "attention_collapse.jsonl").read_text().splitlines()]
    return {r["step"]: r for r in out if (r["attn_alpha"], r["alpha"], r["init"]) == (attn_alpha, alpha, init)}


def test_the_committed_table_is_the_scripts_summary_of_the_stored_measurements():
    got = script().summary(HERE / "attention_collapse.jsonl")
    assert got + "\n" == (HERE / "attention_collapse.md").read_text()


def test_sparse_attention_scorer_is_not_starved_and_the_collapse_follows_the_output():
    soft, sparse, zero = rows(1.0), rows(2.0), rows(2.0, init="zero")
    sparse_out = rows(2.0, alpha=2.0)
    steps = [s for s in soft if s > 0]
    assert len(steps) == 16 and all(s in sparse and s in zero and s in sparse_out for s in steps)
    # the scorer's gradient under sparsemax attention is at least softmax attention's at every measurement
    assert all(sparse[s]["scorer_grad"] >= soft[s]["scorer_grad"] for s in steps)
    # a zero scorer (whole source attended at step 0) narrows as fast as the default initialisation
    assert zero[100]["attended"] < 2.5 and abs(zero[1600]["attended"] - sparse[1600]["attended"]) < 0.1
    # under a softmax output the one-position share keeps rising; under a sparsemax output it levels off lower
    assert sparse[1600]["one_position_share"] > sparse_out[1600]["one_position_share"] + 0.15
