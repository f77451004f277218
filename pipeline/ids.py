"""Identifiers compatible with NeuSym-RAG, so AirQA-Real question files work against our database unchanged."""
from __future__ import annotations

import re
import uuid

UNCATEGORIZED = "uncategorized"


def normalize_venue_year(venue_year: str | None) -> str:
    """'ACL 2024' -> 'acl2024'; empty -> 'uncategorized'."""
    value = re.sub(r"[^a-z0-9]", "", (venue_year or "").lower())
    return value or UNCATEGORIZED


def paper_id(title: str, venue_year: str | None) -> str:
    key = re.sub(r"[^a-z0-9]", "", title.lower()) + "-" + normalize_venue_year(venue_year)
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, key))


def _child(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, name))


def page_id(pid: str, page: int) -> str:
    return _child(f"{pid}_page_{page}")


def page_element_id(pid: str, page: int, kind: str, index: int) -> str:
    """kind is one of chunk/table/image/equation; page and index both count from 1."""
    return _child(f"{pid}_page_{page}_{kind}_{index}")


def section_id(pid: str, index: int) -> str:
    """index counts from 0."""
    return _child(f"{pid}_section_{index}")


def reference_id(pid: str, index: int) -> str:
    """index counts from 1."""
    return _child(f"{pid}_reference_{index}")
