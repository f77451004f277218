"""Parsing `[Thought]: ... [Action]: Name(...)` replies: literal arguments in every quoting style, and the upstream
error observations for malformed replies."""
from __future__ import annotations

import pytest

from agent.parse import Action, ParseError, parse_action, thought_of
from agent.prompts import action_names

HYBRID = action_names("hybrid")


def _ok(text: str, allowed=HYBRID) -> Action:
    parsed = parse_action(text, allowed)
    assert isinstance(parsed, Action), parsed
    return parsed


def test_keyword_args_and_defaults():
    a = _ok("[Thought]: t\n[Action]:\nRetrieveFromVectorstore(query='q', collection_name='text_bm25_en', "
            "table_name='chunks', column_name='text_content')")
    assert a.args == {"query": "q", "collection_name": "text_bm25_en", "table_name": "chunks",
                      "column_name": "text_content", "filter": "", "limit": 5}


def test_positional_args_and_quotes():
    a = _ok('[Action]: RetrieveFromVectorstore("q\'s", """text_bm25_en""", \'chunks\', "text_content", "pdf_id == \'x\'", 3)')
    assert a.args["query"] == "q's" and a.args["filter"] == "pdf_id == 'x'" and a.args["limit"] == 3


def test_multiline_sql_in_triple_quotes():
    a = _ok('[Thought]: x\n[Action]:\nRetrieveFromDatabase(sql="""\nSELECT title\nFROM metadata\n;""")')
    assert a.args["sql"] == "\nSELECT title\nFROM metadata\n;"


def test_answers_are_python_literals():
    assert _ok("[Action]: GenerateAnswer(answer={'a': [0.75, 2.5]})").args["answer"] == {"a": [0.75, 2.5]}
    assert _ok("[Action]: GenerateAnswer(answer=16.81)").args["answer"] == 16.81
    assert _ok("[Action]: ViewImage('id', 3)").args == {"paper_id": "id", "page_number": 3, "bounding_box": []}


def test_hallucinated_observation_is_cut():
    a = _ok("[Action]: CalculateExpr(expr='1 + 1')\n[Observation]: 2")
    assert a.args == {"expr": "1 + 1"}


def test_thought_is_extracted():
    assert thought_of("[Thought]: I will look.\n[Action]: GenerateAnswer(answer=1)") == "I will look."


@pytest.mark.parametrize("text, expected", [
    ("[Action]: I will search.\n[Action]: RetrieveFromVectorstore(query='x')", "Failed to parse a valid action from the response. Please check the specification for these actions ['RetrieveFromDatabase', 'RetrieveFromVectorstore', 'CalculateExpr', 'ViewImage', 'GenerateAnswer']."),
    ("no action at all", "Failed to parse a valid action"),
    ("[Action]: ClassicRetrieve(query='x')", "Failed to parse a valid action from the response. The action "
     "ClassicRetrieve is not available to this agent. Please check the specification for these actions ['Retrieve"),
    ("[Thought]: t\n[Action]:\nSearchPapers(query='x')", "Failed to parse a valid action from the response. The action "
     "SearchPapers does not exist. Please check the specification for these actions ['RetrieveFromDatabase', "),
    ("[Action]: GenerateAnswer(answer=[\u2018a\u2019])", "Failed to parse the parameters for action GenerateAnswer from the response. invalid character '\u2018' (U+2018) (<unknown>, line 1)."),
    ('[Action]: GenerateAnswer(answer={"x": true})', "Failed to parse the parameters for action GenerateAnswer from the response. malformed node or string on line 1"),
    ("[Action]: CalculateExpr(expr='1 + ", "Failed to parse the parameters for action CalculateExpr from the response. unterminated string literal"),
    ("[Action]: RetrieveFromDatabase()", "missing required argument 'sql'"),
    ("[Action]: RetrieveFromDatabase(sql='x', foo=1)", "unexpected keyword argument 'foo'"),
    ("[Action]: RetrieveFromVectorstore('q', 'c', 't', 'col', '', 'five')", "must be an integer"),
    ("[Action]: RetrieveFromDatabase(sql=__import__('os'))", "malformed node or string"),
    ("[Action]: RetrieveFromDatabase(*['x'])", "not allowed"),
])
def test_malformed_replies_are_error_observations(text, expected):
    parsed = parse_action(text, HYBRID)
    assert isinstance(parsed, ParseError)
    assert parsed.observation.startswith("[Error]: ") and expected in parsed.observation
