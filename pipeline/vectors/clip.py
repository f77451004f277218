"""CLIP through transformers: images (PNG crops of page regions) for storage, text for queries."""
from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np

from pipeline.vectors.dense import auto_device


class ClipEncoder:
    def __init__(self, path: str, *, device: str | None = None, batch_size: int = 32):
        import torch
        from transformers import CLIPModel, CLIPProcessor

        self.torch = torch
        self.device = auto_device(device)  # CUDA when present, as for the text encoders
        self.model = CLIPModel.from_pretrained(path).to(self.device).eval()
        self.processor = CLIPProcessor.from_pretrained(path)
        self.batch_size = batch_size

    @property
    def dim(self) -> int:
        return int(self.model.config.projection_dim)

    def _unit(self, x) -> np.ndarray:
        if not isinstance(x, self.torch.Tensor):  # some transformers versions return a model output here
            x = x.pooler_output
        x = x / x.norm(dim=-1, keepdim=True).clamp_min(1e-12)
        return x.detach().float().cpu().numpy()

    def encode_images(self, pngs: Sequence[bytes]) -> np.ndarray:
        from PIL import Image

        out = [np.zeros((0, self.dim), dtype=np.float32)]
        for i in range(0, len(pngs), self.batch_size):
            images = [Image.open(io.BytesIO(b)).convert("RGB") for b in pngs[i : i + self.batch_size]]
            inputs = self.processor(images=images, return_tensors="pt").to(self.device)
            with self.torch.no_grad():
                out.append(self._unit(self.model.get_image_features(**inputs)))
        return np.concatenate(out).astype(np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        inputs = self.processor(text=[text], return_tensors="pt", padding=True, truncation=True).to(self.device)
        with self.torch.no_grad():
            return self._unit(self.model.get_text_features(**inputs))[0].astype(np.float32)
