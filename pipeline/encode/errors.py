"""Errors of the encoders."""
from __future__ import annotations


class ModelUnavailable(RuntimeError):
    """A collection's model is not available offline (and downloads are off)."""
