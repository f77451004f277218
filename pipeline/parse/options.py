"""Parse options: plain data, validated by pydantic. This module imports no backend (and nothing that does).

`backend` names the backend every view comes from; `views` sends single views to other backends (the core merges
them, see merge.py). Backend-specific settings live in their own nested model (`pymupdf`), so a second backend adds
its own model here without touching the shared fields (`mineru`: tier and models folder).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

# view name -> ParsedPaper attribute. Chunks are not a backend view: the core cuts them after the merge.
VIEWS: dict[str, str] = {"metadata": "metadata", "pages": "pages", "sections": "sections", "tables": "tables",
                         "images": "figures", "equations": "equations", "reference": "references"}


def wanted_views(views) -> list[str]:
    """The views a backend is asked for (every view when None), refusing unknown names."""
    wanted = list(VIEWS) if views is None else list(views)
    unknown = [v for v in wanted if v not in VIEWS]
    if unknown:
        raise ValueError(f"unknown view(s) {', '.join(unknown)} (views: {', '.join(VIEWS)})")
    return wanted


class PyMuPDFOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    layout_model: Literal["auto", "never"] = Field(
        "auto", description="auto: the ONNX layout model is a fallback for tables/figures the heuristics cannot place "
                            "and votes on italic heading styles typography cannot tell from emphasis; "
                            "never: those are skipped (no model is loaded).")


class MinerUOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tier: Literal["flash", "basic", "standard"] = Field(
        "flash", description="flash: text layer only, no model files; basic: MinerU's ONNX models (OCR, LaTeX "
                             "equations); standard: also its vision-language model. See `paperbase doctor`.")
    models_dir: str | None = Field(None, description="Folder holding the files `mineru-models-download` fetched "
                                                     "(default: MinerU's ~/.mineru/models). Never downloaded here.")


class OCROptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = Field(True, description="OCR pages with no text layer, an invisible OCR layer over a scan, or a "
                                            "layer that is not text (pipeline/parse/ocr.py); off: such pages keep "
                                            "what their layer says and image-only PDFs are refused.")
    dpi: int = Field(300, ge=72, le=600, description="Resolution the page is rendered at for the OCR engine.")
    language: str = Field("eng", description="Tesseract language(s), e.g. `eng` or `eng+deu` (their data installed).")
    workers: int | None = Field(None, ge=1, description="Pages OCR'd at once (default: the CPU count).")


class ParseOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: str = Field("pymupdf", description="Backend for every view not named in `views`.")
    chunk_tokens: int = Field(512, ge=16, le=8192, description="Chunk size in tokenizer tokens, no overlap.")
    tokenizer: str = Field("all-MiniLM-L6-v2", description="HF id or local path of the chunking tokenizer.")
    metadata_overrides: dict = Field(default_factory=dict, description="Fields that replace detected metadata.")
    sidecar_metadata: bool = Field(True, description="Read <name>.json next to the PDF (upstream metadata format).")
    views: dict[str, str] = Field(default_factory=dict, description="View name -> backend name for views that do not "
                                                                    "come from `backend` (e.g. {'tables': 'mineru'}).")
    pymupdf: PyMuPDFOptions = Field(default_factory=PyMuPDFOptions)
    mineru: MinerUOptions = Field(default_factory=MinerUOptions)
    ocr: OCROptions = Field(default_factory=OCROptions)

    @field_validator("views")
    @classmethod
    def _known_views(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - set(VIEWS))
        if unknown:
            raise ValueError(f"unknown view(s) {', '.join(unknown)} (views: {', '.join(VIEWS)})")
        return value

    def backend_for(self, view: str) -> str:
        return self.views.get(view, self.backend)

    def plan(self) -> dict[str, list[str]]:
        """Backend name -> the views it must fill, in VIEWS order; the default backend first."""
        out: dict[str, list[str]] = {}
        for view in VIEWS:
            out.setdefault(self.backend_for(view), []).append(view)
        return out
