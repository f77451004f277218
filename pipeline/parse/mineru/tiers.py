"""Which MinerU tiers can run here, and why not: read by the backend before it parses and by `paperbase doctor`.

MinerU 4 has three local tiers we expose. `flash` needs only the `mineru` and `docvortex` packages (text layer,
rule-based layout, tables as HTML; no OCR, no LaTeX). `basic` adds MinerU's small ONNX models (layout, formula
recognition, OCR) and `standard` also a vision-language model; both read model files that `mineru-models-download`
fetches once on a networked machine into a models folder (`parse.mineru.models_dir`, default MinerU's own
`~/.mineru/models`). We never let MinerU download: the model source is forced to "local" before it is imported,
so a missing model becomes a clear per-file error instead of a network call.
"""
from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

TIERS = ("flash", "basic", "standard")
OCR_TIERS = ("basic", "standard")  # tiers whose models read pages without a text layer
INSTALL_HINT = ("install it with `scripts/install-mineru.sh` (pip install 'paperbase[mineru]' and then "
                "`pip install --no-deps mineru==4.0.12`: its declared openai<3 pin clashes with ours)")


@dataclass(frozen=True)
class TierStatus:
    tier: str
    usable: bool
    why: str


def installed() -> bool:
    return importlib.util.find_spec("mineru") is not None and importlib.util.find_spec("docvortex") is not None


def configure_offline(models_dir: str | None) -> None:
    """Point MinerU at `models_dir` and forbid downloads. Environment first (read when mineru.config is first
    imported), then the live config object in case MinerU was imported already in this process."""
    os.environ["MINERU_MODEL_SOURCE"] = "local"
    if models_dir:
        os.environ["MINERU_MODEL_BASE_DIR"] = str(Path(models_dir).expanduser())
    import mineru.config as mconfig

    mconfig.config.model.source = "local"
    if models_dir:
        mconfig.config.model.base_dir = str(Path(models_dir).expanduser())


def tier_status(tier: str, models_dir: str | None = None) -> TierStatus:
    """Whether `tier` can parse here; `why` says what is missing (package, runtime modules or model files)."""
    if tier not in TIERS:
        return TierStatus(tier, False, f"unknown tier (choose from {', '.join(TIERS)})")
    if not installed():
        return TierStatus(tier, False, f"mineru is not installed; {INSTALL_HINT}")
    if tier == "flash":
        return TierStatus(tier, True, "text layer only: no model files needed (no OCR, equations without LaTeX)")
    configure_offline(models_dir)
    try:
        from mineru.model.download import verify_model_repo
        from mineru.model.registry import model_repos_for_tier
        from mineru.parser.tier import missing_modules_for_tier

        missing_modules = missing_modules_for_tier(tier)
        repos = model_repos_for_tier(tier)
    except Exception as exc:  # a broken optional runtime (torch, llama.cpp) must read as a reason, not a crash
        return TierStatus(tier, False, f"cannot check its runtime: {type(exc).__name__}: {exc}")
    if missing_modules:
        return TierStatus(tier, False, f"missing Python modules {', '.join(missing_modules)}")
    not_ready = [r for r in repos if not verify_model_repo(r).ready]
    if not_ready:
        where = repos[0].local_dir().parent
        names = ", ".join(r.name for r in not_ready)
        return TierStatus(tier, False, f"model files {names} not in {where}: run `mineru-models-download` on a "
                                       f"networked machine and copy them there (or set parse.mineru.models_dir)")
    return TierStatus(tier, True, f"models in {repos[0].local_dir().parent}")


def all_tiers(models_dir: str | None = None) -> list[TierStatus]:
    return [tier_status(t, models_dir) for t in TIERS]
