"""CalculateExpr evaluates arithmetic only; everything else is refused with a readable message."""
from __future__ import annotations

import pytest

from agent.calc import CalcError, calculate, format_result


@pytest.mark.parametrize("expr, shown", [
    ("36.29 - 19.48", "16.81"), ("2 + 3 * 4", "14"), ("1.0", "1.0"), ("20 - 20", "0"), ("7 // 2 + 7 % 2", "4"),
    ("-(2 ** 10)", "-1024"), ("2 ** -1", "0.5"), ("max(0.320, 0.514, 0.470)", "0.514"),
    ("max([77, 33, 199]) / min([77, 33, 199])", "6.03030303030303"), ("sqrt(16) + log10(100)", "6.0"),
    ('{"mCLIP+": 70.9, "CLIP+TrTest": 65.7}', "{'mCLIP+': 70.9, 'CLIP+TrTest': 65.7}"),
    ("(1123, 'ontoNotes'), (2193, 'Genia')", "((1123, 'ontoNotes'), (2193, 'Genia'))"), ("3 > 2", "True"),
])
def test_arithmetic(expr, shown):
    assert format_result(calculate(expr)) == shown


@pytest.mark.parametrize("expr, message", [
    ("__import__('os')", "name '__import__' is not defined"),
    ("__import__('os').system('true')", "not allowed"),
    ("9**9**9", "too large"),
    ("10**10**10", "too large"),
    ("(2**4000) * (2**4000)", "too large"),
    ("extract_evaluations_and_scores()", "name 'extract_evaluations_and_scores' is not defined"),
    ("DD2_WER - NV1_WER", "name 'DD2_WER' is not defined"),
    ("().__class__.__bases__", "not allowed"),
    ("[1, 2][0]", "not allowed"),
    ("[x for x in [1]]", "not allowed"),
    ("lambda: 1", "not allowed"),
    ("'a' * 10**9", "needs numbers"),
    ("open('/etc/passwd')", "name 'open' is not defined"),
    ("max(key=len)", "positional"),
    ("1 / 0", "division by zero"),
    ("exp(100000)", "math range error"),
    ("", "invalid syntax"),
    ("4.1435 (TAALM Avg) vs 4.507", "invalid syntax"),
])
def test_refused(expr, message):
    with pytest.raises(CalcError) as info:
        calculate(expr)
    assert message in str(info.value)
