"""A model's fast tokenizer read from its `tokenizer.json` with the `tokenizers` library, called the way the encoders
call transformers' tokenizers.

Why not `transformers.AutoTokenizer`: importing transformers imports torch, about 2 s of a cold `paperbase search`
(profiled) for a query that the ONNX encoder then embeds in milliseconds. transformers' fast tokenizers are this same
`tokenizers` object plus Python padding and truncation; tests/vectors/test_fasttok.py checks ids, masks, type ids and
offsets against AutoTokenizer on corpus text. Only what the encoders use is offered: batch call with padding to the
longest, truncation to `max_length` (special tokens included), numpy arrays, offsets without special tokens.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

_HUGE = 10**12  # transformers' "no limit" sentinel is ~1e30


class FastTokenizer:
    def __init__(self, model_dir: str | Path):
        from tokenizers import Tokenizer

        model_dir = Path(model_dir)
        self._tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        cfg_file = model_dir / "tokenizer_config.json"
        cfg = json.loads(cfg_file.read_text()) if cfg_file.exists() else {}
        limit = cfg.get("model_max_length")
        self.model_max_length = int(limit) if isinstance(limit, (int, float)) and limit < _HUGE else _HUGE
        pad = cfg.get("pad_token")
        pad = pad.get("content") if isinstance(pad, dict) else pad
        self.pad_token = pad or "[PAD]"
        self.pad_token_id = self._tok.token_to_id(self.pad_token) or 0

    @staticmethod
    def available(model_dir: str | Path) -> bool:
        return (Path(model_dir) / "tokenizer.json").is_file()

    def __call__(self, texts: list[str], padding: bool = False, truncation: bool = False, max_length: int | None = None,
                 return_tensors: str | None = None, add_special_tokens: bool = True,
                 return_offsets_mapping: bool = False, verbose: bool = True) -> dict:
        tok = self._tok
        if truncation:
            tok.enable_truncation(max_length or min(self.model_max_length, 512))
        else:
            tok.no_truncation()
        if padding:
            tok.enable_padding(pad_id=self.pad_token_id, pad_token=self.pad_token)
        else:
            tok.no_padding()
        encs = tok.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        out: dict = {"input_ids": [e.ids for e in encs], "attention_mask": [e.attention_mask for e in encs],
                     "token_type_ids": [e.type_ids for e in encs]}
        if return_offsets_mapping:
            out["offset_mapping"] = [e.offsets for e in encs]
        if return_tensors == "np":
            for key in ("input_ids", "attention_mask", "token_type_ids"):
                out[key] = np.array(out[key], dtype=np.int64)
        return out

    def get_vocab(self) -> dict[str, int]:
        return self._tok.get_vocab()
