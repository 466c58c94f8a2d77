"""BLEU of a translation run, the two ways the papers report it, with SacreBLEU.

* ``bleu``: detokenized SacreBLEU (tokenize ``13a``, or ``ja-mecab`` for a Japanese target) of the
  detokenized hypotheses against the raw references, with its signature;
* ``bleu_tok``: *tokenized* BLEU as multi-bleu.perl computes it: SacreBLEU with ``tokenize='none'`` on the
  hypotheses after BPE merging against the references tokenized by the same tokenizer.
"""
from __future__ import annotations

from pathlib import Path

from sparselab.data import parallel as par
from sparselab.data.mt_preprocess import Prepared


def bleu_scores(hyps_detok: list[str], refs_detok: list[str], hyps_tok: list[str], refs_tok: list[str],
                tgt_lang: str) -> dict:
    """Detokenized SacreBLEU (13a, or ja-mecab for Japanese) and tokenized BLEU (tokenize='none' on
    tokenized text, as multi-bleu.perl), each with its score and signature."""
    from sacrebleu.metrics import BLEU

    detok = BLEU(tokenize="ja-mecab" if tgt_lang == "ja" else "13a")
    tok = BLEU(tokenize="none", force=True)
    d = detok.corpus_score(hyps_detok, [refs_detok])
    t = tok.corpus_score(hyps_tok, [refs_tok])
    return {"bleu": d.score, "bleu_signature": str(detok.get_signature()), "bleu_tok": t.score,
            "bleu_tok_signature": str(tok.get_signature()), "bleu_detail": str(d), "bleu_tok_detail": str(t)}


def bleu_tokenization(tgt_lang: str, corpus: par.Corpus, prep: Prepared) -> str:
    """How the two BLEUs of a run are tokenized, in words (for the record and the report header)."""
    detok = "ja-mecab" if tgt_lang == "ja" else "13a"
    if corpus.pretokenized:
        ref_tok = f"the corpus ({corpus.note})"
    else:
        ref_tok = prep.info["tokenizer"][tgt_lang]
    return (f"bleu: SacreBLEU tokenize={detok} on detokenized hypotheses against "
            f"{'the detokenized corpus references' if corpus.pretokenized else 'the raw references'}; "
            f"bleu_tok: SacreBLEU tokenize=none (multi-bleu.perl's computation, case kept) on BPE-merged "
            f"hypotheses against references tokenized by {ref_tok}")


def write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line.replace("\n", " ") + "\n" for line in lines), encoding="utf-8")
