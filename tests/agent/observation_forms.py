"""List every distinct observation form in the seeds and the reference trajectories.

    .venv/bin/python tests/agent/observation_forms.py [SHARED_DIR]

A form is recognised by the action that produced it and a pattern on the `[Observation]` user message; the test
suite (tests/agent/test_observe.py) checks that every recorded observation has a known form and that paperbase
produces each form. Run it after adding trajectories: an `UNKNOWN` line is a form nobody handles yet.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROWS = r"\[Observation\]:\n\{.*\}\n\n"
FORMS: list[tuple[str, str | None, str]] = [  # (form, action or None for any, pattern on the whole message)
    ("sql_rows_total", "RetrieveFromDatabase", ROWS + r"In total, \d+ rows are displayed in JSON format\.$"),
    ("sql_rows_cut_max_tokens", "RetrieveFromDatabase", ROWS + r"\.\.\. # only display \d+ rows in JSON format, more are truncated due to length constraint based on max_tokens \(5000\)$"),
    ("sql_rows_cut_max_rows", "RetrieveFromDatabase", ROWS + r"\.\.\. # only display \d+ rows in JSON format, more are truncated due to length constraint based on max_rows \(10\)$"),
    ("sql_empty_warning", "RetrieveFromDatabase", r"\[Observation\]: \[Warning\]: The SQL execution result is empty, please check the SQL first\.$"),
    ("sql_runtime_error", "RetrieveFromDatabase", r"\[Observation\]:[ \n]\[Error\]: Runtime error during SQL execution and output formatting: .+"),
    ("hits_total", "RetrieveFromVectorstore", ROWS + r"In total, \d+ rows are displayed in JSON format\.$"),
    ("hits_cut_max_tokens", "RetrieveFromVectorstore", ROWS + r"\.\.\. # only display \d+ rows in JSON format, more are truncated due to length constraint based on max_tokens \(5000\)$"),
    ("no_hits_warning", "RetrieveFromVectorstore", r"\[Observation\]: \[Warning\]: No relevant context records found for the input query: .*\.$"),
    ("filter_invalid_error", "RetrieveFromVectorstore", r'\[Observation\]: \[Error\]: Filter condition ".*" is not valid\. .+'),
    ("calculated", "CalculateExpr", r"\[Observation\]: The calculated result is: .+"),
    ("calc_error", "CalculateExpr", r"\[Observation\]: \[Error\]: .+"),
    ("parse_action_error", None, r"\[Observation\]: \[Error\]: Failed to parse a valid action from the response\. Please check the specification for these actions \[.*\]\.$"),
    ("parse_params_error", None, r"\[Observation\]: \[Error\]: Failed to parse the parameters for action \w+ from the response\. .+\.$"),
    ("answer_echo", "GenerateAnswer", r"\[Observation\]: .*"),
]
_ACTION = re.compile(r"\[Action\]:\s*(\w+)\(")


def action_of(reply: str) -> str | None:
    m = _ACTION.search(reply)
    return m.group(1) if m else None


def classify(action: str | None, message: str) -> str:
    for form, wanted, pattern in FORMS:
        if wanted is not None and wanted != action:
            continue
        if re.fullmatch(pattern, message, re.S):
            return form
    return "UNKNOWN"


def recorded(shared: Path) -> list[tuple[str, str | None, str]]:
    """(file, action, observation message) for every observation in the seeds and the reference trajectories."""
    files = sorted((shared / "seeds").glob("*.txt")) + sorted((shared / "reference" / "trajectories").glob("*.jsonl"))
    out = []
    for path in files:
        messages = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for prev, msg in zip(messages[2:], messages[3:]):
            if prev["role"] == "assistant" and msg["role"] == "user":
                out.append((path.name, action_of(prev["content"]), msg["content"]))
    return out


def main(argv: list[str]) -> int:
    shared = Path(argv[0]) if argv else Path(__file__).resolve().parents[3] / "shared"
    counts: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for name, action, message in recorded(shared):
        form = classify(action, message)
        counts[form] += 1
        examples.setdefault(form, f"{name}: {message[:110]!r}")
    for form, n in counts.most_common():
        print(f"{n:5d}  {form:26s} {examples[form]}")
    return 1 if counts["UNKNOWN"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
