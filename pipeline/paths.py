"""File names that are not valid UTF-8, stored losslessly.

On Linux a file name is bytes; Python reads one that is not valid UTF-8 with the undecodable bytes as lone
surrogates (`caf\\udce9.pdf`), which DuckDB refuses ("cannot encode str as UTF-8"). Paths therefore enter the
database through `to_db` and leave it through `from_db`:

- a path that is valid UTF-8 is stored as it is (every path most users will ever have);
- any other is stored as `bytes:` followed by the path with each undecodable byte as `%XX` and each `%` as `%25`.
  Stored paths are absolute, so no real path starts with `bytes:`; the form reads back to the very same bytes.

`shown` gives a path as people read it: undecodable bytes as `\\xe9`, the rest as it is.
"""
from __future__ import annotations

import os
import re

PREFIX = "bytes:"
_ESCAPE = re.compile(r"%([0-9A-F]{2})")


def undecodable(path: str) -> bool:
    return any(0xDC80 <= ord(c) <= 0xDCFF for c in path)


def to_db(path: str | os.PathLike | None) -> str | None:
    """The text a path is stored as (identity for valid UTF-8)."""
    if path is None:
        return None
    path = os.fspath(path)
    if not undecodable(path):
        return path
    return PREFIX + "".join(f"%{ord(c) - 0xDC00:02X}" if 0xDC80 <= ord(c) <= 0xDCFF else ("%25" if c == "%" else c)
                            for c in path)


def from_db(text: str | None) -> str | None:
    """The path (as Python's file functions take it) that `to_db` stored as `text`."""
    if text is None or not text.startswith(PREFIX):
        return text
    return _ESCAPE.sub(lambda m: "%" if m.group(1) == "25" else chr(0xDC00 + int(m.group(1), 16)),
                       text[len(PREFIX):])


def shown(path: str | os.PathLike) -> str:
    """A path for people: undecodable bytes as \\xNN (stored paths are decoded first)."""
    path = from_db(os.fspath(path)) or ""
    if not undecodable(path):
        return path
    return os.fsencode(path).decode("utf-8", "backslashreplace")
