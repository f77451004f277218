"""Tiny random-weight models built by the tests themselves (real classes, real tokenizers): they exercise the BGE
(sentence-transformers, CLS pooling) and CLIP code paths without any download."""
from __future__ import annotations

import json
from pathlib import Path

WORDS = ("the a of and to in is we model models retrieval text image table paper results metric learning "
         "language generation privacy masking data training evaluation neural network figure").split()


def build_tiny_bert(root: Path, dim: int = 32) -> Path:
    """A BGE-shaped sentence-transformers model: BERT -> CLS pooling -> normalize."""
    from transformers import BertTokenizerFast

    base = root / "tiny-bert-base"
    base.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *"abcdefghijklmnopqrstuvwxyz0123456789.,"]
    (base / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizerFast(vocab_file=str(base / "vocab.txt")).save_pretrained(base)
    return _one_layer_sentence_model(base, root / "tiny-bge", len(vocab), dim, 64, "cls")


def _one_layer_sentence_model(base: Path, out: Path, vocab: int, dim: int, length: int, pooling: str) -> Path:
    """A random one-layer BERT saved under `base` (beside its tokenizer files), wrapped as a sentence-transformers
    model (BERT -> pooling -> normalize) saved to `out`."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer import modules as stm
    from transformers import BertConfig, BertModel

    cfg = BertConfig(vocab_size=vocab, hidden_size=dim, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=37, max_position_embeddings=64 if length <= 64 else 512)
    BertModel(cfg).save_pretrained(base)
    transformer = stm.Transformer(str(base), max_seq_length=length)
    SentenceTransformer(modules=[transformer, stm.Pooling(dim, pooling), stm.Normalize()], device="cpu").save(str(out))
    return out


def _byte_chars() -> list[str]:
    # GPT-2/CLIP byte-level alphabet: printable bytes map to themselves, the rest to code points above 255.
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars, n = [], 0
    for b in range(256):
        if b in keep:
            chars.append(chr(b))
        else:
            chars.append(chr(256 + n))
            n += 1
    return chars


def build_tiny_clip(root: Path, projection_dim: int = 16) -> Path:
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor, CLIPTokenizerFast

    out = root / "tiny-clip"
    out.mkdir(parents=True, exist_ok=True)
    chars = _byte_chars()
    tokens = chars + [c + "</w>" for c in chars] + ["th", "the</w>", "<|startoftext|>", "<|endoftext|>"]
    (out / "vocab.json").write_text(json.dumps({t: i for i, t in enumerate(tokens)}), encoding="utf-8")
    (out / "merges.txt").write_text("#version: 0.2\nt h\nth e</w>\n", encoding="utf-8")
    tok = CLIPTokenizerFast(vocab_file=str(out / "vocab.json"), merges_file=str(out / "merges.txt"))
    images = CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32})
    CLIPProcessor(image_processor=images, tokenizer=tok).save_pretrained(out)
    cfg = CLIPConfig(
        text_config=dict(vocab_size=len(tokens), hidden_size=32, intermediate_size=37, num_hidden_layers=1,
                         num_attention_heads=2, max_position_embeddings=77,
                         bos_token_id=len(tokens) - 2, eos_token_id=len(tokens) - 1, pad_token_id=len(tokens) - 1),
        vision_config=dict(hidden_size=32, intermediate_size=37, num_hidden_layers=1, num_attention_heads=2,
                           image_size=32, patch_size=8),
        projection_dim=projection_dim,
    )
    CLIPModel(cfg).save_pretrained(out)
    return out


def build_stand_in_minilm(root: Path, dim: int = 32) -> Path:
    """all-MiniLM-L6-v2's shape where the tests do not judge the vectors: its own tokenizer files, sequence length and
    pooling (so cells split into the same windows and a collection holds the same number of vectors), on a one-layer
    BERT of width `dim` with random weights: an encode costs a fraction of a second instead of most of an ingest.
    Used by the tests of ingest, crash and flow behaviour (tests/standin.py); the vector and retrieval tests keep
    the real model."""
    import shutil

    from pipeline.models import bundled_path

    real = bundled_path("all-MiniLM-L6-v2")
    base = root / "stand-in-minilm-base"
    base.mkdir(parents=True, exist_ok=True)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(real / name, base / name)
    vocab = json.loads((real / "config.json").read_text())["vocab_size"]
    return _one_layer_sentence_model(base, root / "stand-in-minilm", vocab, dim, 256, "mean")
