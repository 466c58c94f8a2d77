"""reports/correia2019/diagnosis/alpha_lr.md: the committed table is what the diagnosis script writes from its stored
records, and the records hold what the cpu α rule rests on (H1: α's room to travel decides whether heads turn)."""
import json

from support import PROJECT, load_script, rebuild_diagnosis

HERE = PROJECT / "reports" / "correia2019" / "diagnosis"
SCRIPT = "reports/correia2019/diagnosis/diagnose_correia_alpha_report.py"
diag = load_script(SCRIPT, "diagnose_correia_alpha_report")


def rows() -> dict:
    stored = [json.loads(x) for x in (HERE / "alpha_lr.jsonl").read_text(encoding="utf-8").splitlines()][1:]
    return {r["label"].split(",")[0].split(" ")[0] + (f"s{r['seed']}" if r["label"].startswith("1x") else ""): r
            for r in stored}


def test_the_committed_table_is_rebuilt_from_the_stored_records(tmp_path):
    text = rebuild_diagnosis(SCRIPT, HERE / "alpha_lr.jsonl", tmp_path)
    assert text == (HERE / "alpha_lr.md").read_text(encoding="utf-8")


def test_a_head_turns_only_after_falling_and_rising_by_delta():
    d = diag.DELTA
    assert diag.turned([(0, 1.5), (100, 1.5 - d), (200, 1.5)]) == 100
    assert diag.turned([(0, 1.5), (100, 1.5 - d / 2), (200, 1.6)]) is None      # never fell far enough
    assert diag.turned([(0, 1.5), (100, 1.4), (200, 1.4 + d / 2)]) is None      # did not rise far enough


def test_heads_turn_once_alpha_has_room_and_at_a_stable_step():
    r = rows()
    for seed in (0, 1):        # at α lr = lr no head turns, in 4,000 steps or in the whole 12,000
        for kind in diag.KINDS:
            assert diag.summary(r[f"1xs{seed}"], kind, 12000)["turned"] == 0
    s10, s30 = (diag.summary(r[k], "enc_self", diag.COMPARE_AT) for k in ("10x", "30x"))
    assert 0 < s10["turned"] < s30["turned"]                     # more room, more encoder heads turn
    assert abs(s10["turn_median"] - s30["turn_median"]) <= 500   # the turn's step hardly moves with the multiplier


def test_the_page_quotes_the_diagnosis_as_committed():
    page = " ".join((PROJECT / "docs" / "correia2019.md").read_text(encoding="utf-8").split())
    r = rows()
    s10, s30 = (diag.summary(r[k], "enc_self", diag.COMPARE_AT) for k in ("10x", "30x"))
    s3 = diag.summary(r["3x"], "enc_self", diag.COMPARE_AT)
    assert f"{s3['turned']} of 24 at 3×, whose encoder mean still turns at step {s3['low_step']:,}" in page
    assert f"{s10['turned']} of {s10['n']} at 10×, {s30['turned']} at 30×" in page
    accs = [diag.val_at(r[k], diag.COMPARE_AT) for k in ("3x", "10x", "30x", "1xs0", "1xs1")]
    assert "Validation accuracy at step 4,000 is {:.2f}, {:.2f} and {:.2f} against {:.2f} and {:.2f}".format(*accs) in page
    assert f"median {s10['turn_median']:,.0f} and {s30['turn_median']:,.0f}" in page
    control = r["1xs0"]
    assert f"would still be {diag.room(control['alpha_lr'], control['warmup'], 36000):.1f} of the paper's" in page
