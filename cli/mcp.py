"""`paperbase mcp`: serve the index to any MCP client over stdio or streamable HTTP (the logic is
`agent.mcp_server`)."""
from __future__ import annotations

from typing import Annotated

import typer

from cli.common import DataDir, app, settings_for


@app.command()
def mcp(
    transport: Annotated[str, typer.Option("--transport", help="stdio (for a client that starts the server) or http (streamable HTTP).")] = "stdio",
    host: Annotated[str, typer.Option(help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="HTTP port.")] = 8765,
    data_dir: DataDir = None,
) -> None:
    """Serve the read-side actions (SQL, vector search, classic retrieve, calculate, view image) as MCP tools and the
    schemas and paper list as resources. Read-only, with the agent's own checks."""
    from agent.mcp_server import serve

    if transport not in ("stdio", "http"):
        raise typer.BadParameter(f"--transport must be stdio or http, not {transport!r}")
    raise typer.Exit(serve(settings_for(data_dir), transport, host=host, port=port))
