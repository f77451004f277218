"""`paperbase mcp` driven by the SDK's own client over stdio (on a real one-PDF store) and streamable HTTP: tools
listed with descriptions for an agent and enums from the live store, each tool called (list_papers and get_schema
too), results as plain content, resources read, hostile inputs refused. The session is printed (pytest -s shows
it)."""
from __future__ import annotations

import asyncio
import base64
import json
import sys

from mcp import Client, StdioServerParameters

PAPER = "<the stored paper's id>"  # replaced in the session by the id the papers resource lists
CALLS = [
    ("RetrieveFromDatabase", {"sql": "SELECT paper_id, title, num_pages FROM metadata"}),
    ("RetrieveFromVectorstore", {"query": "retrieval", "collection_name": "text_bm25_en", "table_name": "chunks",
                                 "column_name": "text_content", "limit": 2}),
    ("ClassicRetrieve", {"query": "retrieval augmented generation", "limit": 2}),
    ("CalculateExpr", {"expr": "(3 + 4) * 2 / 7"}),
    ("ViewImage", {"paper_id": PAPER, "page_number": 1, "bounding_box": [0, 0, 200, 100]}),
    ("list_papers", {}),
    ("get_schema", {"part": "vectorstore"}),
]
HOSTILE = [
    ("RetrieveFromDatabase", {"sql": "DROP TABLE metadata"}, "refused"),
    ("RetrieveFromDatabase", {"sql": "SELECT * FROM read_csv('/etc/passwd')"}, "Permission Error"),
    ("RetrieveFromDatabase", {"sql": "SELECT 1; DELETE FROM metadata"}, "refused"),
    ("ViewImage", {"paper_id": "../../x", "page_number": 1}, "paper_id must be one of ['"),
    ("ViewImage", {"paper_id": PAPER, "page_number": 0}, "page_number must be at least 1, got 0"),
    ("CalculateExpr", {"expr": "__import__('os').system('id')"}, "not allowed"),
    ("RetrieveFromVectorstore", {"query": "x", "collection_name": "text_bm25_en", "table_name": "chunks",
                                 "column_name": "text_content", "filter": "pdf_path like '/etc%'"}, "is not valid"),
    ("RetrieveFromVectorstore", {"query": "x", "collection_name": "../../etc", "table_name": "chunks",
                                 "column_name": "text_content"}, "collection_name must be one of ['text_bm25_en', "),
    ("RetrieveFromVectorstore", {"query": "x", "collection_name": "text_bm25_en", "table_name": "chunks",
                                 "column_name": "text_content", "limit": 10_000}, "limit must be between 1 and 50"),
    ("ViewImage", {"paper_id": PAPER, "page_number": "1"}, "page_number must be integer"),
    ("RetrieveFromDatabase", {"sql": "SELECT 1", "path": "/etc/passwd"}, "unknown argument(s) ['path']"),
    ("GenerateAnswer", {"answer": 1}, "unknown tool"),
]


def _text(result) -> str:
    return " ".join(c.text for c in result.content if c.type == "text")


async def _session(data_dir) -> dict:
    params = StdioServerParameters(command=sys.executable, args=["-c", "from cli import main; main()", "mcp",
                                                                 "--data-dir", str(data_dir)])
    out: dict = {"calls": {}, "hostile": {}}
    async with Client(params) as client:
        out["tools"] = (await client.list_tools()).tools
        out["resources"] = [r.uri for r in (await client.list_resources()).resources]
        out["papers"] = (await client.read_resource("paperbase://papers")).contents[0].text
        out["search_by_title"] = await client.call_tool("list_papers", {"title_contains": "KNOWLEDGE-intensive"})
        out["no_title"] = await client.call_tool("list_papers", {"title_contains": "no such title"})
        out["schema"] = (await client.read_resource("paperbase://schema/database")).contents[0].text
        paper = json.loads(out["papers"])[0]["paper_id"]
        real = lambda args: {k: paper if v == PAPER else v for k, v in args.items()}  # noqa: E731
        for name, args in CALLS:
            out["calls"][name] = await client.call_tool(name, real(args))
        for name, args, _ in HOSTILE:
            out["hostile"][json.dumps([name, args])] = await client.call_tool(name, real(args))
        out["after"] = await client.call_tool("RetrieveFromDatabase", {"sql": "SELECT count(*) AS n FROM metadata"})
    return out


def test_mcp_session_over_stdio(ingested):
    s = asyncio.run(asyncio.wait_for(_session(ingested.data_dir), 180))
    paper = json.loads(s["papers"])[0]["paper_id"]
    print("\n== tools/list")
    for t in s["tools"]:
        print(f"{t.name}: {t.description[:100]}... {json.dumps(t.input_schema['properties'])[:300]}")
    tools = {t.name: t for t in s["tools"]}
    assert list(tools) == [n for n, _ in CALLS]
    assert all(t.annotations.read_only_hint for t in tools.values())
    vs = tools["RetrieveFromVectorstore"].input_schema
    assert vs["required"] == ["query", "collection_name", "table_name", "column_name"]
    assert vs["properties"]["collection_name"]["enum"] == ["text_bm25_en", "text_sentence_transformers_all_minilm_l6_v2"]
    assert "chunks" in vs["properties"]["table_name"]["enum"] and "text_content" in vs["properties"]["column_name"]["enum"]
    assert "image_caption" not in vs["properties"]["column_name"]["enum"] or "images" in vs["properties"]["table_name"]["enum"]
    assert "chunks.text_content" in vs["properties"]["column_name"]["description"]
    assert "pdf_id" in vs["properties"]["filter"]["description"]
    assert vs["properties"]["limit"] == {"type": "integer", "description": "How many hits to return.", "default": 5,
                                         "minimum": 1, "maximum": 50}
    assert tools["ViewImage"].input_schema["properties"]["paper_id"]["enum"] == [paper]
    assert "Prefer it" in tools["RetrieveFromDatabase"].description and "[Thought]" not in tools["RetrieveFromDatabase"].description
    assert tools["get_schema"].input_schema["properties"]["part"]["enum"] == ["database", "vectorstore", "both"]
    print("== resources/list", s["resources"])
    assert s["resources"] == ["paperbase://schema/database", "paperbase://schema/vectorstore", "paperbase://papers"]
    assert [p["title"] for p in json.loads(s["papers"])] == ["Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"]
    assert "CREATE TABLE" in s["schema"].upper()
    for name, args in CALLS:
        r = s["calls"][name]
        kinds = [c.type for c in r.content]
        print(f"== tools/call {name}({json.dumps(args)}) -> is_error={r.is_error} content={kinds}: {_text(r)[:200]!r}")
    calls = s["calls"]
    assert not calls["RetrieveFromDatabase"].is_error and "Retrieval-Augmented Generation" in _text(calls["RetrieveFromDatabase"])
    assert _text(calls["CalculateExpr"]) == "The calculated result is: 2.0"  # plain: no [Observation]: marker
    assert not any("[Observation]" in _text(r) for r in calls.values())
    image = calls["ViewImage"].content[1]
    assert image.type == "image" and image.mime_type == "image/png" and base64.b64decode(image.data)[:4] == b"\x89PNG"
    for name in ("RetrieveFromVectorstore", "ClassicRetrieve"):  # hits joined back to their chunk text
        assert not calls[name].is_error and '"score"' in _text(calls[name]) and "retriev" in _text(calls[name]).lower()
    listed = [json.loads(line) for line in _text(calls["list_papers"]).splitlines()]
    assert listed == [json.loads(_text(s["search_by_title"]))] and set(listed[0]) == {
        "paper_id", "title", "year", "venue", "pages"} and listed[0]["paper_id"] == paper and listed[0]["pages"] >= 1
    assert not s["no_title"].is_error and "no stored paper's title holds" in _text(s["no_title"])
    assert "text_bm25_en" in _text(calls["get_schema"]) and "CREATE TABLE" not in _text(calls["get_schema"])
    for name, args, expect in HOSTILE:
        r = s["hostile"][json.dumps([name, args])]
        print(f"== hostile {name}({json.dumps(args)}) -> is_error={r.is_error}: {_text(r)[:160]!r}")
        assert r.is_error and expect in _text(r), (name, args, _text(r))
    assert '{"n":1}' in _text(s["after"])  # nothing was dropped or deleted


def test_mcp_over_streamable_http(store):
    import subprocess

    from tests.conftest import free_port, wait_for_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from cli import main; main()", "mcp", "--transport", "http",
                             "--port", str(port), "--data-dir", str(store.data_dir)])
    try:
        wait_for_port(port, proc, "paperbase mcp --transport http")

        async def session():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                return (tools, await client.call_tool("CalculateExpr", {"expr": "6 * 7"}),
                        await client.call_tool("list_papers", {"limit": 2}),
                        await client.call_tool("get_schema", {}))

        tools, result, papers, schema = asyncio.run(asyncio.wait_for(session(), 60))
    finally:
        proc.terminate()
        proc.wait(10)
    assert list(tools) == [n for n, _ in CALLS] and _text(result) == "The calculated result is: 42"
    ids = [json.loads(line)["paper_id"] for line in _text(papers).splitlines()]
    assert len(ids) == 2 and tools["ViewImage"].input_schema["properties"]["paper_id"]["enum"][:2] == ids
    # no vectors in this store: no collection enum, and the description says what to run
    collection = tools["RetrieveFromVectorstore"].input_schema["properties"]["collection_name"]
    assert "enum" not in collection and "paperbase encode" in collection["description"]
    assert "CREATE TABLE" in _text(schema).upper() and "[Vectorstore Schema]" in _text(schema)
