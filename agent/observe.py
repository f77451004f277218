"""Observation strings, formatted as the seeds and the reference trajectories show them.

Rules:
- Rows (SQL results and vector hits) are JSON lines, one compact object per row, non-ASCII and `/` escaped as upstream
  (pandas `to_json` style), after a newline: `[Observation]:\\n{...}\\n{...}\\n\\n<suffix>`.
- Suffix: `In total, N rows are displayed in JSON format.`, or when rows were cut
  `... # only display N rows in JSON format, more are truncated due to length constraint based on max_rows (10)` /
  `... based on max_tokens (5000)`. Tokens are estimated (`estimate_tokens`: ~4 characters per token, the rate of
  OpenAI tokenizers on English; no tokenizer download is needed). A first row alone over the token budget is shown
  with its long values cut, so the model always sees something.
- Messages: `[Warning]: ...`, `[Error]: ...`, `The calculated result is: ...`; a GenerateAnswer is echoed as `str()`.
- The image observation is a user message with a text part and a PNG data-URL part (OpenAI vision format).
"""
from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass
from typing import Any

OBSERVATION = "[Observation]:"
ROWS_TOTAL = "In total, {n} rows are displayed in JSON format."
ROWS_CUT = "... # only display {n} rows in JSON format, more are truncated due to length constraint based on {limit} ({value})"
SQL_EMPTY = "[Warning]: The SQL execution result is empty, please check the SQL first."
NO_HITS = "[Warning]: No relevant context records found for the input query: {query}."
CALCULATED = "The calculated result is: {result}"
SQL_RUNTIME = "[Error]: Runtime error during SQL execution and output formatting: {message}"
FILTER_INVALID = '[Error]: Filter condition "{filter}" is not valid. {reason}'
IMAGE_SHOWN = "The image of page {page} of paper {paper_id}{region} is shown below."


@dataclass
class Observation:
    """What the environment returns for one action. `text` starts with a newline for multi-line row blocks."""

    text: str
    image_png: bytes | None = None
    final: bool = False  # the echo of GenerateAnswer

    def message_text(self) -> str:
        return OBSERVATION + (self.text if self.text.startswith("\n") else " " + self.text)

    def message(self) -> dict[str, Any]:
        """The user message carrying this observation."""
        if self.image_png is None:
            return {"role": "user", "content": self.message_text()}
        url = "data:image/png;base64," + base64.b64encode(self.image_png).decode("ascii")
        return {"role": "user", "content": [{"type": "text", "text": self.message_text()},
                                            {"type": "image_url", "image_url": {"url": url}}]}


def error(message: str) -> Observation:
    return Observation(f"[Error]: {message}")


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)  # UUID, Decimal, date, ...


def json_line(row: dict[str, Any]) -> str:
    return json.dumps(_jsonable(row), ensure_ascii=True, separators=(",", ":")).replace("/", "\\/")


def _cut_row(row: dict[str, Any], budget_chars: int) -> dict[str, Any]:
    out = dict(row)
    longest = sorted((k for k, v in row.items() if isinstance(v, str)), key=lambda k: -len(row[k]))
    for k in longest:
        excess = len(json_line(out)) - budget_chars
        if excess <= 0:
            break
        out[k] = out[k][: max(0, len(out[k]) - excess - 3)] + "..."
    return out


def rows(records: list[dict[str, Any]], *, more: bool = False, max_rows: int = 10, max_tokens: int = 5000) -> Observation:
    """JSON-lines observation of `records`; `more`: rows beyond `records` existed (cut by a row cap upstream)."""
    lines: list[str] = []
    used = 0
    limit = None
    for i, rec in enumerate(records):
        if i >= max_rows:
            limit = ("max_rows", max_rows)
            break
        line = json_line(rec)
        cost = estimate_tokens(line)
        if used + cost > max_tokens:
            if not lines:  # a single huge row: show it cut rather than nothing
                lines.append(json_line(_cut_row(rec, max_tokens * 4)))
            limit = ("max_tokens", max_tokens)
            break
        lines.append(line)
        used += cost
    if limit is None and more:
        limit = ("max_rows", max_rows)
    suffix = ROWS_TOTAL.format(n=len(lines)) if limit is None else ROWS_CUT.format(n=len(lines), limit=limit[0], value=limit[1])
    return Observation("\n" + "\n".join(lines) + "\n\n" + suffix)


def hit_record(hit: Any) -> dict[str, Any]:
    """The fields of a vector hit as upstream shows them (score rounded to 4 places; bbox for image hits)."""
    rec = {"score": round(float(hit.score), 4), "pdf_id": hit.pdf_id, "page_number": hit.page_number,
           "table_name": hit.table_name, "column_name": hit.column_name, "primary_key": hit.primary_key}
    if getattr(hit, "bbox", None) is not None:
        rec["bbox"] = list(hit.bbox)
    else:
        rec["text"] = hit.text
    return rec


def answer_echo(answer: Any) -> Observation:
    return Observation(str(answer), final=True)
