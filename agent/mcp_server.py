"""`paperbase mcp`: a Model Context Protocol server (official `mcp` SDK, low-level server) over one store.

Rules:
- Tools: the agent's read-side actions (RetrieveFromDatabase, RetrieveFromVectorstore, ClassicRetrieve,
  CalculateExpr, ViewImage) under their NeuSym-RAG names, plus `list_papers` and `get_schema`. Descriptions are
  written for a calling agent (what the tool is for, when to prefer it, what comes back), not the ReAct prompt's
  prose; arguments that have a closed set of values carry it as a JSON-schema `enum` read from the live store when
  the tools are listed (collections that exist, encodable tables and columns, paper ids up to `ENUM_PAPERS` papers).
- Every action call runs through `agent.env.Environment`, the agent's own implementation, so the safety is the same:
  one read-only SQL statement, validated collections and filters, arithmetic-only expressions, paper ids looked up
  and never used as paths. Arguments are checked against the schema first; a refusal is a tool error result.
- Results are plain content: the observation's text without the agent's `[Observation]:` / `[Error]:` markers (the
  agent runtime keeps the seeds' wording; an MCP client has `isError`), and a PNG image part for ViewImage.
- Resources (for clients that read them): the database schema text, the vectorstore schema text, the paper list.
- Transports: stdio (the client starts the server) and streamable HTTP (`/mcp`). Store calls run in a worker
  thread, one at a time.
"""
from __future__ import annotations

import base64
import json
import threading
import time
from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server

from agent.config import AgentSettings
from agent.env import CLASSIC_COLLECTION, Environment
from agent.observe import OBSERVATION
from agent.parse import Action
from agent.specs import ActionSpec, specs
from pipeline.config import Settings
from pipeline.read import Reader
from schemas import database_schema
from schemas.vectorstore import collection as schema_collection

ACTIONS = ("RetrieveFromDatabase", "RetrieveFromVectorstore", "ClassicRetrieve", "CalculateExpr", "ViewImage")
TOOLS = (*ACTIONS, "list_papers", "get_schema")
LISTING_TTL_S = 10.0  # how long a call trusts the last listing's enums (a paper ingested since is seen after it)
ENUM_PAPERS = 500  # paper ids listed as an enum up to this many papers; beyond, `list_papers` finds them
_TYPES = {"str": {"type": "string"}, "int": {"type": "integer"}, "float": {"type": "number"},
          "List[float]": {"type": "array", "items": {"type": "number"}}}
RESOURCES = {"paperbase://schema/database": ("database-schema", "text/plain", "The DuckDB schema the SQL tool reads."),
             "paperbase://schema/vectorstore": ("vectorstore-schema", "text/plain", "The vector collections and filters."),
             "paperbase://papers": ("papers", "application/json", "Every stored paper: id, title, venue, year, pages.")}
_READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                   open_world_hint=False)

DESCRIPTIONS = {
    "RetrieveFromDatabase": (
        "Run one read-only SQL query (DuckDB dialect) over the database of parsed papers. Tables: metadata (one row "
        "per paper: title, authors, year, venue, abstract), pages, sections, chunks (page text in pieces), tables, "
        "images (figure captions), equations, reference (bibliography); every table but metadata points at its "
        "paper with ref_paper_id. Prefer it for exact facts and whole texts: a title, the authors, counts, a "
        "table's content, a section's text, the page a figure is on; call get_schema once for the columns. Returns "
        "the rows as JSON lines (at most {max_rows} rows; long results are cut and say so)."),
    "RetrieveFromVectorstore": (
        "Similarity search over the encoded cells of the database: finds the passages, captions or images closest "
        "to a query. Prefer it when you do not know where the answer is written; then read the hit's row with "
        "RetrieveFromDatabase if you need more. The text_bm25_en collection matches words (best for names, numbers "
        "and terms), the sentence-transformers collections match meaning, the CLIP collection searches figure and "
        "table images. Returns hits as JSON lines: score, pdf_id, page_number, table_name, column_name, "
        "primary_key, text."),
    "ClassicRetrieve": (
        "The simplest search: the passages of page text (chunks.text_content) closest in meaning to a query, over "
        "every paper (MiniLM embeddings). Use it for a first look; use RetrieveFromVectorstore to match words "
        "(BM25), to search another column, or to restrict the search to one paper or page."),
    "CalculateExpr": (
        "Evaluate an arithmetic expression exactly: numbers, + - * / // % **, parentheses, lists, and functions "
        "such as abs, round, min, max, sum, len, sqrt, log, exp. Prefer it to doing arithmetic yourself: "
        "differences, ratios and averages of numbers read from the papers. Returns the result."),
    "ViewImage": (
        "Render a page of a stored paper, or a region of it, as a PNG image, to read what text extraction misses: "
        "figures, charts, table layouts, equations. Bounding boxes come from the bounding_box column of the images "
        "and tables rows (PDF points, [x, y, width, height]); without one the whole page is shown."),
    "list_papers": (
        "List the stored papers: paper_id, title, year, venue and number of pages, in title order. Start here to "
        "find the id of the paper a question is about (the other tools filter and look up by that id). "
        "title_contains narrows the list to titles holding a fragment (case-insensitive). Returns JSON lines."),
    "get_schema": (
        "The schemas the other tools work over: the database (every table and column, what each holds, which are "
        "encoded for search) and the vector store (collections, their fields, the filter syntax). Read it once "
        "before writing SQL or a search filter."),
}
ARGUMENTS = {  # per-tool argument descriptions for a calling agent (the action specs' prose is the ReAct prompt's)
    "RetrieveFromDatabase": {"sql": "One SELECT (or WITH ... SELECT) statement. Compare ids as text, e.g. "
                             "CAST(paper_id AS VARCHAR) = '...'. No writes, no files, no second statement."},
    "RetrieveFromVectorstore": {
        "query": "What to look for, in words (a phrase or a question).",
        "collection_name": "The collection to search (see the tool description for what each matches).",
        "table_name": "The table whose encoded cells are searched; chunks holds the page text.",
        "column_name": "The encoded column of table_name that is searched. Valid pairs: {pairs}.",
        "filter": "Optional Milvus boolean expression over the fields {fields}, e.g. \"pdf_id == '<paper id>' and "
                  "page_number <= 3\" or \"pdf_id in ['<id>', '<id>']\". Operators: and, or, not, ==, !=, <, <=, "
                  ">, >=, in, like. Empty: no restriction.",
        "limit": "How many hits to return."},
    "ClassicRetrieve": {"query": "What to look for, in words.", "limit": "How many passages to return."},
    "CalculateExpr": {"expr": "The expression, e.g. (84.3 - 79.1) / 79.1 * 100."},
    "ViewImage": {"paper_id": "The paper's id (list_papers gives them).", "page_number": "The page, from 1.",
                  "bounding_box": "Optional region [x, y, width, height] in PDF points; [] for the whole page."},
}


def input_schema(spec: ActionSpec, allowed: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The action's arguments as a JSON schema; `allowed` adds per-argument keywords (enum, minimum, ...)."""
    texts = ARGUMENTS.get(spec.name, {})
    props = {}
    for p in spec.params:
        props[p.name] = {**_TYPES[p.type], "description": texts.get(p.name, p.description)}
        if not p.required:
            props[p.name]["default"] = p.default
        props[p.name].update((allowed or {}).get(p.name, {}))
    return {"type": "object", "properties": props, "required": [p.name for p in spec.params if p.required],
            "additionalProperties": False}


def live_values(reader: Reader, settings: AgentSettings) -> dict[str, Any]:
    """What the store holds now: collections, encodable (table, column) pairs, filter fields, paper ids."""
    try:
        names = reader.collections()
    except Exception:  # noqa: BLE001 - no vector store yet: tools still list, their calls say what is missing
        names = []
    modalities = {schema_collection(n).modality for n in names}
    pairs = [(t, c) for t, c, m in database_schema().encodable_columns() if m in modalities] if names else \
        [(t, c) for t, c, _ in database_schema().encodable_columns()]
    fields = sorted({f.name for n in names for f in schema_collection(n).fields if f.name != "vector"
                     and not f.storage_only}) or ["pdf_id", "page_number", "primary_key"]
    papers = reader.sql("SELECT CAST(paper_id AS VARCHAR) FROM metadata ORDER BY title", max_rows=ENUM_PAPERS).rows
    return {"collections": names, "pairs": pairs, "fields": fields, "papers": [p[0] for p in papers],
            "papers_complete": len(papers) < ENUM_PAPERS, "max_rows": settings.max_rows, "max_limit": settings.max_limit}


def _enum(values: list[Any]) -> dict[str, Any]:
    return {"enum": list(dict.fromkeys(values))} if values else {}


def tool_list(live: dict[str, Any] | None = None) -> list[types.Tool]:
    """The tools with descriptions for a calling agent and enums from `live` (see `live_values`)."""
    live = live or {"collections": [], "pairs": [(t, c) for t, c, _ in database_schema().encodable_columns()],
                    "fields": ["pdf_id", "page_number", "primary_key"], "papers": [], "papers_complete": False,
                    "max_rows": AgentSettings().max_rows, "max_limit": AgentSettings().max_limit}
    pairs = live["pairs"]
    limit = {"minimum": 1, "maximum": live["max_limit"]}
    allowed: dict[str, dict[str, dict[str, Any]]] = {
        "RetrieveFromVectorstore": {"collection_name": _enum(live["collections"]),
                                    "table_name": _enum([t for t, _ in pairs]),
                                    "column_name": _enum([c for _, c in pairs]), "limit": limit},
        "ClassicRetrieve": {"limit": limit},
        "ViewImage": {"paper_id": _enum(live["papers"]) if live["papers_complete"] else {},
                      "page_number": {"minimum": 1}},
    }
    out = []
    for name in ACTIONS:
        schema = input_schema(specs()[name], allowed.get(name))
        if name == "RetrieveFromVectorstore":
            props = schema["properties"]
            props["column_name"]["description"] = props["column_name"]["description"].format(
                pairs=", ".join(f"{t}.{c}" for t, c in pairs))
            props["filter"]["description"] = props["filter"]["description"].format(fields=", ".join(live["fields"]))
            if not live["collections"]:
                props["collection_name"]["description"] += " No collection has vectors yet: run `paperbase encode`."
        description = DESCRIPTIONS[name].format(max_rows=live["max_rows"])
        if name == "ClassicRetrieve" and live["collections"] and CLASSIC_COLLECTION not in live["collections"]:
            description += f" (Unavailable here: the {CLASSIC_COLLECTION} collection is not encoded.)"
        out.append(types.Tool(name=name, description=description, input_schema=schema, annotations=_READ_ONLY))
    out.append(types.Tool(name="list_papers", description=DESCRIPTIONS["list_papers"], annotations=_READ_ONLY,
                          input_schema={"type": "object", "additionalProperties": False, "required": [], "properties": {
                              "title_contains": {"type": "string", "default": "",
                                                 "description": "Only titles holding this fragment; empty: all."},
                              "limit": {"type": "integer", "default": 100, "minimum": 1, "maximum": 10_000,
                                        "description": "How many papers to list."},
                              "offset": {"type": "integer", "default": 0, "minimum": 0,
                                         "description": "Papers to skip (for paging through a large library)."}}}))
    out.append(types.Tool(name="get_schema", description=DESCRIPTIONS["get_schema"], annotations=_READ_ONLY,
                          input_schema={"type": "object", "additionalProperties": False, "required": [], "properties": {
                              "part": {"type": "string", "enum": ["database", "vectorstore", "both"],
                                       "default": "both", "description": "Which schema to return."}}}))
    return out


def check_arguments(tool: types.Tool, args: dict[str, Any]) -> str | None:
    """Why `args` do not fit the tool's input schema (types, enums, bounds), or None."""
    schema = tool.input_schema
    props = schema["properties"]
    unknown = sorted(set(args) - set(props))
    missing = [n for n in schema["required"] if n not in args]
    if unknown or missing:
        return f"{tool.name}: unknown argument(s) {unknown}, missing {missing}"
    for name, value in args.items():
        p = props[name]
        t = p["type"]
        ok = (isinstance(value, str) if t == "string" else
              isinstance(value, int) and not isinstance(value, bool) if t == "integer" else
              isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value))
        if not ok:
            return f"{tool.name}: {name} must be {t}, got {type(value).__name__}"
        if "enum" in p and value not in p["enum"]:
            return f"{tool.name}: {name} must be one of {p['enum'][:20]}{' ...' if len(p['enum']) > 20 else ''}, got {value!r}"
        if t == "integer" and not p.get("minimum", value) <= value <= p.get("maximum", value):
            bounds = (f"between {p['minimum']} and {p['maximum']}" if "minimum" in p and "maximum" in p else
                      f"at least {p['minimum']}" if "minimum" in p else f"at most {p['maximum']}")
            return f"{tool.name}: {name} must be {bounds}, got {value}"
    return None


def plain(text: str) -> str:
    """An observation's text without the agent's markers: `[Observation]:`, then `[Error]:` / `[Warning]:`."""
    text = text[len(OBSERVATION):] if text.startswith(OBSERVATION) else text
    text = text.strip("\n").lstrip(" ")
    for marker in ("[Error]: ", "[Warning]: "):
        if text.startswith(marker):
            return text[len(marker):]
    return text


class PaperbaseTools:
    """The synchronous core: tool listing, tool calls and resource reads over one Reader (serialised by a lock)."""

    def __init__(self, reader: Reader, settings: AgentSettings | None = None):
        self.env = Environment(reader, settings or AgentSettings())
        self.lock = threading.Lock()
        self._listed: tuple[float, list[types.Tool]] | None = None

    def tools(self, max_age_s: float = 0.0) -> list[types.Tool]:
        """The tools with the store's current values; a listing younger than `max_age_s` is reused (calls check
        their arguments against it, so a call does not re-read the store's collections and papers)."""
        if self._listed is not None and time.monotonic() - self._listed[0] < max_age_s:
            return self._listed[1]
        with self.lock:
            self.env._collections = None  # the store may have been encoded since the last listing
            listed = tool_list(live_values(self.env.reader, self.env.settings))
        self._listed = (time.monotonic(), listed)
        return listed

    def call(self, name: str, args: dict[str, Any] | None) -> types.CallToolResult:
        if name not in TOOLS:
            return _error(f"unknown tool {name!r}; the tools are {list(TOOLS)}")
        args = dict(args or {})
        tool = next(t for t in self.tools(max_age_s=LISTING_TTL_S) if t.name == name)
        problem = check_arguments(tool, args)
        if problem:
            return _error(problem)
        if name == "list_papers":
            return self._list_papers(**args)
        if name == "get_schema":
            part = args.get("part", "both")
            text = "\n\n".join(self.read(u) for u, p in (("paperbase://schema/database", "database"),
                                                        ("paperbase://schema/vectorstore", "vectorstore"))
                               if part in (p, "both"))
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=False)
        with self.lock:
            obs = self.env.execute(Action(name, args))
        content: list[Any] = [types.TextContent(type="text", text=plain(obs.message_text()))]
        if obs.image_png:
            content.append(types.ImageContent(type="image", data=base64.b64encode(obs.image_png).decode("ascii"),
                                              mime_type="image/png"))
        return types.CallToolResult(content=content, is_error=obs.text.lstrip().startswith("[Error]"))

    def _list_papers(self, title_contains: str = "", limit: int = 100, offset: int = 0) -> types.CallToolResult:
        with self.lock:
            rows = self.env.reader.sql(
                "SELECT CAST(paper_id AS VARCHAR) AS paper_id, title, pub_year AS year, conference_abbreviation AS "
                "venue, num_pages AS pages FROM metadata WHERE lower(coalesce(title, '')) LIKE '%' || lower(?) || '%' "
                "ORDER BY title, paper_id LIMIT ? OFFSET ?", [title_contains, limit, offset], max_rows=limit).records()
        if not rows:
            text = f"no stored paper's title holds {title_contains!r}" if title_contains else "no papers are stored"
        else:
            text = "\n".join(json.dumps(r, ensure_ascii=False, default=str) for r in rows)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=False)

    def read(self, uri: str) -> str:
        reader = self.env.reader
        with self.lock:
            if uri == "paperbase://schema/database":
                return reader.database_prompt()
            if uri == "paperbase://schema/vectorstore":
                return reader.vectorstore_prompt()
            if uri == "paperbase://papers":
                return json.dumps(reader.papers(), ensure_ascii=False, default=str)
        raise ValueError(f"unknown resource {uri!r}; the resources are {list(RESOURCES)}")


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def build_server(tools: PaperbaseTools) -> Server:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await anyio.to_thread.run_sync(tools.tools))

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await anyio.to_thread.run_sync(tools.call, params.name, params.arguments)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(uri=u, name=n, mime_type=m, description=d)
                                                    for u, (n, m, d) in RESOURCES.items()])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        text = await anyio.to_thread.run_sync(tools.read, uri)
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=RESOURCES[uri][1], text=text)])

    return Server("paperbase", version="1", instructions="Read-only access to a paperbase index of scientific papers. "
                  "Start with list_papers (paper ids) and get_schema (tables, columns, collections); then "
                  "RetrieveFromDatabase for exact facts and texts, RetrieveFromVectorstore or ClassicRetrieve to find "
                  "passages, ViewImage to look at a page, CalculateExpr for arithmetic.",
                  on_list_tools=list_tools, on_call_tool=call_tool, on_list_resources=list_resources,
                  on_read_resource=read_resource)


def serve(settings: Settings, transport: str = "stdio", *, host: str = "127.0.0.1", port: int = 8765) -> int:
    """Serve until the client leaves (stdio) or the process is stopped (http); returns the exit code."""
    if not settings.duckdb_path.exists():
        import sys

        print(f"no database at {settings.duckdb_path}; run `paperbase ingest DIR` first", file=sys.stderr)
        return 1
    with Reader(settings) as reader:
        server = build_server(PaperbaseTools(reader))
        if transport == "http":
            import uvicorn

            reader.warm()  # a long-lived server: load the store once, now, and share it with CLI searches

            uvicorn.run(server.streamable_http_app(), host=host, port=port, log_level="warning")
            return 0
        from mcp.server.stdio import stdio_server

        async def main() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(main)
    return 0
