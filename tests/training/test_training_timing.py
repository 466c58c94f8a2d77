"""Step timing for the records' samples/s and tokens/s (issue 19, item 9): on CUDA the device's time
(events, no host sync per step), on CPU perf_counter."""
import time

import pytest
import torch

from sparselab.training.timing import StepTimer


def test_cpu_steps_add_to_their_keys():
    t = StepTimer()
    cpu = torch.device("cpu")
    t.start(cpu)
    time.sleep(0.02)
    t.stop("train")
    t.start(cpu)
    time.sleep(0.03)
    t.stop("train", "speed")
    t.stop("train")  # a stop without a start adds nothing
    assert 0.05 <= t.total("train") < 1.0
    assert 0.03 <= t.total("speed") < t.total("train")
    assert t.total("other") == 0.0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_step_time_is_the_device_time():
    """A step whose kernel spins on the GPU (1e8 clock cycles: 40-100 ms at 1-2.5 GHz) returns at once
    on the host; the timer still reports its device time."""
    t = StepTimer()
    dev = torch.device("cuda")
    torch.cuda.synchronize()
    t.start(dev)
    t0 = time.perf_counter()
    torch.cuda._sleep(100_000_000)
    host = time.perf_counter() - t0
    t.stop("train")
    dev_s = t.total("train")
    assert dev_s > 0.02 and dev_s > 5 * host, (dev_s, host)


def test_translation_module_counts_tokens_and_times_steps(tmp_path, device):
    """Target tokens are counted on the host copy of each batch (no device sync per step); the speed
    measurement leaves out the warm-up steps."""
    import random
    from functools import partial

    from omegaconf import OmegaConf

    from sparselab.data.text import PadCollate, PairDataset, Vocab
    from sparselab.engine.context import RunContext
    from sparselab.engine.trainer import make_trainer
    from sparselab.models.attention import GlobalAttention
    from sparselab.models.seq2seq import Seq2Seq
    from sparselab.training.translation_module import TranslationModule

    voc = Vocab(list("abcdef"))
    rnd = random.Random(0)
    pairs = [(list("ab" * rnd.randint(1, 3)), list("cde"[: rnd.randint(1, 3)])) for _ in range(16)]
    ds = PairDataset.from_symbols(pairs, voc, voc)
    dl = torch.utils.data.DataLoader(ds, batch_size=2, collate_fn=PadCollate.from_vocabs(voc, voc))
    torch.manual_seed(0)
    model = Seq2Seq(len(voc), len(voc), src_pad_id=voc.pad_id, tgt_pad_id=voc.pad_id, bos_id=voc.bos_id,
                    eos_id=voc.eos_id, emb_size=8, hidden_size=8, enc_layers=1, dec_layers=1, dropout=0.0,
                    attention=partial(GlobalAttention))
    module = TranslationModule(model, alpha=1.5, ctx=RunContext(run_dir=tmp_path))
    tcfg = OmegaConf.create({"accelerator": device.type, "devices": 1, "max_epochs": 1, "max_steps": 8,
                             "log_every_n_steps": 50})
    make_trainer(tcfg, RunContext(run_dir=tmp_path), num_sanity_val_steps=0, limit_val_batches=0).fit(module, dl)
    per_batch = [int((b["tgt_out"] != voc.pad_id).sum()) for b in dl]
    assert module.train_tgt_tokens == sum(per_batch)
    assert module.speed_tokens == sum(per_batch[module.speed_warmup_steps:])  # steps 6.. (global_step > 5)
    assert 0 < module.speed_time < module.train_time
    assert module.tokens_per_s() == pytest.approx(module.speed_tokens / module.speed_time)
