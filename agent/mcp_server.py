"""`paperbase mcp`: a Model Context Protocol server (official `mcp` SDK, low-level server) over one store.

Rules:
- Tools are the agent's read-side actions (RetrieveFromDatabase, RetrieveFromVectorstore, ClassicRetrieve,
  CalculateExpr, ViewImage); their JSON schemas are rendered from the action specs (agent/resources/actions.json).
- Every call runs through `agent.env.Environment`, the agent's own implementation, so the safety is the same:
  one read-only SQL statement, validated collections and filters, arithmetic-only expressions, paper ids looked up
  and never used as paths. Arguments are checked against the schema first; a refusal is a tool error result.
- Resources: the database schema text, the vectorstore schema text and the paper list (JSON).
- Transports: stdio (the client starts the server) and streamable HTTP (`/mcp`). Store calls run in a worker
  thread, one at a time.
"""
from __future__ import annotations

import base64
import json
import threading
from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server

from agent.config import AgentSettings
from agent.env import Environment
from agent.parse import Action
from agent.specs import ActionSpec, specs
from pipeline.config import Settings
from pipeline.read import Reader

TOOLS = ("RetrieveFromDatabase", "RetrieveFromVectorstore", "ClassicRetrieve", "CalculateExpr", "ViewImage")
_TYPES = {"str": {"type": "string"}, "int": {"type": "integer"}, "float": {"type": "number"},
          "List[float]": {"type": "array", "items": {"type": "number"}}}
RESOURCES = {"paperbase://schema/database": ("database-schema", "text/plain", "The DuckDB schema the SQL tool reads."),
             "paperbase://schema/vectorstore": ("vectorstore-schema", "text/plain", "The vector collections and filters."),
             "paperbase://papers": ("papers", "application/json", "Every stored paper: id, title, venue, year, pages.")}


def input_schema(spec: ActionSpec) -> dict[str, Any]:
    props = {}
    for p in spec.params:
        props[p.name] = {**_TYPES[p.type], "description": p.description}
        if not p.required:
            props[p.name]["default"] = p.default
    return {"type": "object", "properties": props, "required": [p.name for p in spec.params if p.required],
            "additionalProperties": False}


def tool_list() -> list[types.Tool]:
    return [types.Tool(name=n, description=specs()[n].description + "\nReturns: " + specs()[n].observation,
                       input_schema=input_schema(specs()[n])) for n in TOOLS]


def check_arguments(spec: ActionSpec, args: dict[str, Any]) -> str | None:
    """Why `args` do not fit the spec's schema, or None."""
    known = {p.name: p for p in spec.params}
    unknown = sorted(set(args) - set(known))
    missing = [p.name for p in spec.params if p.required and p.name not in args]
    if unknown or missing:
        return f"{spec.name}: unknown argument(s) {unknown}, missing {missing}"
    for name, value in args.items():
        t = known[name].type
        ok = (isinstance(value, str) if t == "str" else
              isinstance(value, int) and not isinstance(value, bool) if t == "int" else
              isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value))
        if not ok:
            return f"{spec.name}: {name} must be {_TYPES[t]['type']}, got {type(value).__name__}"
    return None


class PaperbaseTools:
    """The synchronous core: tool calls and resource reads over one Reader (serialised by a lock)."""

    def __init__(self, reader: Reader, settings: AgentSettings | None = None):
        self.env = Environment(reader, settings or AgentSettings())
        self.lock = threading.Lock()

    def call(self, name: str, args: dict[str, Any] | None) -> types.CallToolResult:
        if name not in TOOLS:
            return _error(f"unknown tool {name!r}; the tools are {list(TOOLS)}")
        args = dict(args or {})
        problem = check_arguments(specs()[name], args)
        if problem:
            return _error(problem)
        with self.lock:
            obs = self.env.execute(Action(name, args))
        content: list[Any] = [types.TextContent(type="text", text=obs.message_text())]
        if obs.image_png:
            content.append(types.ImageContent(type="image", data=base64.b64encode(obs.image_png).decode("ascii"),
                                              mime_type="image/png"))
        return types.CallToolResult(content=content, is_error=obs.text.lstrip().startswith("[Error]"))

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
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"[Error]: {text}")], is_error=True)


def build_server(tools: PaperbaseTools) -> Server:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await anyio.to_thread.run_sync(tools.call, params.name, params.arguments)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(uri=u, name=n, mime_type=m, description=d)
                                                    for u, (n, m, d) in RESOURCES.items()])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        text = await anyio.to_thread.run_sync(tools.read, uri)
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=RESOURCES[uri][1], text=text)])

    return Server("paperbase", version="1", instructions="Read-only access to a paperbase index of scientific papers: "
                  "SQL over DuckDB, similarity search over Milvus, page images. Read the schema resources first.",
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
