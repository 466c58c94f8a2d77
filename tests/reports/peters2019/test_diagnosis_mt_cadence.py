"""reports/peters2019/diagnosis/mt_cadence.md (issue 32, MT): the committed table is what the diagnosis script writes
from its stored records, and the records hold what the protocol change rests on."""
import json

from support import PROJECT, rebuild_diagnosis

HERE = PROJECT / "reports" / "peters2019" / "diagnosis"
SCRIPT = "reports/peters2019/diagnosis/diagnose_peters_mt_cadence_report.py"


def records() -> dict:
    out = {}
    for line in (HERE / "mt_cadence.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        c = r["config"]
        if c["mapping"]["attn_alpha"] == c["mapping"]["alpha"]:        # Table 2's cells (attention α = output α)
            out[(c["mapping"]["alpha"], c["trainer"]["val_check_interval"], c["task"]["early_stopping_patience"])] = r
    return out


def test_the_committed_table_is_rebuilt_from_the_stored_records(tmp_path):
    text = rebuild_diagnosis(SCRIPT, HERE / "mt_cadence.jsonl", tmp_path)
    assert text == (HERE / "mt_cadence.md").read_text(encoding="utf-8")
    # the header says what was run (the docstring's description, not its usage notes)
    assert text.splitlines()[2].startswith("ja-en, seed 0, cpu profile")


def test_the_250_step_cadence_halved_softmax_early_but_softmax_also_learns_more_slowly():
    recs = records()
    soft250, soft1500, ent250 = recs[(1.0, 250, None)], recs[(1.0, 1500, None)], recs[(1.5, 250, None)]
    lrs = [h["lr"] for h in soft1500["extra"]["history"]]
    assert set(lrs) == {0.001}                                        # H1: at 1,500 no halving in 15,000 steps
    assert soft1500["metrics"]["bleu_tok"] > soft250["metrics"]["bleu_tok"]
    # the best validation at the last one: the 1,500-step run was still improving when the budget ended
    assert soft1500["metrics"]["best_step"] == soft1500["metrics"]["steps"] == 15000
    # H2: at equal steps softmax is far behind 1.5-entmax (whose lr was halved from step 2,500 on, softmax's never)
    acc = lambda r, s: next(h["val_acc"] for h in r["extra"]["history"] if h["step"] == s)  # noqa: E731
    assert all(acc(ent250, s) - acc(soft1500, s) > 5 for s in (1500, 3000, 4500))
    # what is left of the gap once the halvings are gone is most of it
    assert ent250["metrics"]["bleu_tok"] - soft1500["metrics"]["bleu_tok"] > 5


def test_the_output_mapping_not_the_attention_makes_ja_en_softmax_slow():
    """H3: softmax output with 1.5-entmax attention learns as slowly as softmax/softmax (within a point of validation
    token accuracy at every step up to 7,500), far below 1.5-entmax/1.5-entmax at the same cadence."""
    mixed = [json.loads(line) for line in (HERE / "mt_cadence.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(line)["config"]["mapping"] == {"alpha": 1.0, "attn_alpha": 1.5}]
    assert len(mixed) == 1
    recs = records()
    soft, ent = recs[(1.0, 1500, None)], recs[(1.5, 1500, 3)]     # 1.5-entmax at 1,500: the chosen protocol's run
    acc = lambda r, s: next(h["val_acc"] for h in r["extra"]["history"] if h["step"] == s)  # noqa: E731
    for s in (1500, 3000, 4500, 7500):
        assert abs(acc(mixed[0], s) - acc(soft, s)) < 1.0 and acc(ent, s) - acc(mixed[0], s) > 5
