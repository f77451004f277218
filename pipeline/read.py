"""The one read API: every reader (the CLI's search, the agent, MCP, evaluate) reads DuckDB and Milvus through here.

Rules:
- One DuckDB connection per `Reader`, kept open between queries (opening one costs more than most queries), and let
  go the moment a writer waits for the file: writers raise a marker while they wait (`store.connection`), and a
  watcher thread closes the reader's idle connection when it appears; the next query reconnects, waiting out the
  writer's short transaction. So a long-lived reader (the agent, MCP) never holds up an ingest.
- SQL is guarded because readers run SQL written by a model: exactly one read statement (`SELECT`, `WITH ... SELECT`,
  `DESCRIBE`, `SHOW`, `SUMMARIZE`) passes; it runs on a read-only connection with external access disabled (no file
  or URL table functions, no COPY, ATTACH, INSTALL/LOAD) and the configuration locked (no SET, PRAGMA changes), under a
  per-query timeout (the query is interrupted) and a row cap (the result says when rows were cut). The statement type
  comes from DuckDB's own parser (`duckdb.extract_statements`), never from matching keywords by hand.
- `search` with a collection searches that one; without one it is hybrid (BM25 fused with the dense text
  collections, `pipeline/vectors/fusion.py`). Either way a cell is listed once, however many window vectors it has.
- One Milvus client per `Reader`, opened on first search and reused for every later one. On the embedded default the
  store is shared between processes (`pipeline.vectors.lite`): a reader searches while an ingest encodes, and when the
  process serving the store goes away the reader reconnects once.
- Page images are looked up by paper id in the database; an id is never used as a path.
- The schema texts the agent sees are rendered from `schemas/` (the database prompt) and from the collections that
  exist (the vectorstore prompt).
Errors a caller can show to a model or a user are `ReadError`s with a one-line message.
"""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from pipeline.config import Settings
from pipeline.store.connection import connect, writer_waiting
from pipeline.store.errors import StoreMissing
from pipeline.vectors import milvus
from pipeline.vectors.errors import is_transient
from pipeline.vectors.search import Hit, hybrid_search as _hybrid, search as _search

# Statement types a reader may run; everything else (INSERT, COPY, ATTACH, PRAGMA, SET, CREATE, ...) is refused.
READ_STATEMENTS = frozenset({"SELECT", "EXPLAIN"})
# DuckDB settings of every guarded connection: the database file is the only thing it may touch.
GUARDED_CONFIG = {"enable_external_access": False, "autoinstall_known_extensions": False,
                  "autoload_known_extensions": False, "lock_configuration": True}


def pdf_file(stored_path: str) -> Path:
    """The file a `metadata.pdf_path` value names (a name that is not valid UTF-8 is stored escaped:
    pipeline/paths.py)."""
    from pipeline.paths import from_db

    return Path(from_db(stored_path))


def open_pdf(path: str | Path):
    """A PyMuPDF document for a PDF path of any name (MuPDF itself takes UTF-8 names only)."""
    from pipeline.render import open_pdf as _open

    return _open(path)


class ReadError(Exception):
    """A read that cannot be answered; the message is one line, fit for a user or a model."""


class QueryRefused(ReadError):
    """The SQL is not exactly one read statement (or tries to reach outside the database)."""


class QueryTimeout(ReadError):
    """The query ran past its time limit and was interrupted."""


class QueryTooLarge(ReadError):
    """The query needed more memory than the guarded connection allows (`read.sql_memory_limit`)."""


class QueryFailed(ReadError):
    """DuckDB rejected or failed the query (syntax, unknown column, ...)."""


class NotFound(ReadError):
    """No such paper or page in the database."""


@dataclass
class SqlResult:
    columns: list[str]
    rows: list[tuple]
    truncated: bool = False  # more rows existed than the cap allowed

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]


def check_read_only(sql: str) -> None:
    """Raise QueryRefused unless `sql` is exactly one read statement."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryFailed(_one_line(exc)) from None
    if len(statements) != 1:
        raise QueryRefused(f"exactly one SQL statement is allowed, got {len(statements)}")
    kind = statements[0].type.name
    if kind not in READ_STATEMENTS:
        raise QueryRefused(f"only read-only queries are allowed, not {kind}")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


@dataclass
class Reader:
    """Read access to one data dir. Use as a context manager (or call `close()`) to release the Milvus client."""

    settings: Settings
    sql_timeout_s: float = 30.0
    max_rows: int = 10_000
    _stack: ExitStack = field(default_factory=ExitStack, repr=False)
    _client: Any = field(default=None, repr=False)
    _ready: set[str] = field(default_factory=set, repr=False)  # collections seen loaded on this client
    _cache: dict = field(default_factory=dict, repr=False)  # BM25 statistics and cell texts, valid while the connection stays open
    _con: Any = field(default=None, repr=False)
    _con_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _watcher: threading.Thread | None = field(default=None, repr=False)
    _deadline: float | None = field(default=None, repr=False)  # when the running query must be interrupted
    _closed: threading.Event = field(default_factory=threading.Event, repr=False)

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._closed.set()
        with self._con_lock:
            self._drop_connection()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join(timeout=1.0)  # its frame holds the connection: gone before the interpreter exits
        self._stack.close()
        self._client = None

    # ---- the DuckDB connection ---------------------------------------------------------------------------

    @contextmanager
    def _reading(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The reader's connection, held for one use; opened (or reopened after a writer) as needed."""
        path = self.settings.duckdb_path
        if not path.exists():
            raise StoreMissing(f"no database at {path}; run `paperbase ingest DIR` first")
        with self._con_lock:
            if self._con is not None and writer_waiting(path).exists():
                self._drop_connection()
            if self._con is None:
                self._con = connect(path, read_only=True, config=self._guarded_config())
                self._watch()
            yield self._con

    def _guarded_config(self) -> dict:
        """GUARDED_CONFIG plus the configured memory and thread caps (`[read]`); nothing spills to a temporary
        directory, so a query that needs more memory stops instead of filling the disk."""
        limits = self.settings.read
        return {**GUARDED_CONFIG, "memory_limit": limits.sql_memory_limit, "threads": limits.sql_threads,
                "temp_directory": ""}

    def _drop_connection(self) -> None:
        self._cache.clear()  # a writer may change statistics and texts once we let go
        if self._con is not None:
            try:
                self._con.close()
            finally:
                self._con = None

    def _watch(self) -> None:
        """Start the thread that lets go of an idle connection as soon as a writer waits for the file, and interrupts
        a query past its deadline (one thread per reader: starting a timer thread per query cost more than most
        queries, 1-4 ms measured)."""
        if self._watcher is not None and self._watcher.is_alive():
            return
        marker = writer_waiting(self.settings.duckdb_path)

        def run() -> None:
            while not self._closed.wait(0.05):
                deadline, con = self._deadline, self._con
                if deadline is not None and con is not None and time.monotonic() > deadline:
                    con.interrupt()
                if self._con is not None and marker.exists() and self._con_lock.acquire(blocking=False):
                    try:
                        self._drop_connection()
                    finally:
                        self._con_lock.release()

        self._watcher = threading.Thread(target=run, name="paperbase-reader-watch", daemon=True)
        self._watcher.start()

    # ---- SQL ---------------------------------------------------------------------------------------------

    def sql(self, query: str, params: list | None = None, *, timeout_s: float | None = None,
            max_rows: int | None = None) -> SqlResult:
        """Run one guarded read statement; at most `max_rows` rows (`truncated` says when more existed)."""
        check_read_only(query)
        cap = self.max_rows if max_rows is None else max_rows
        with self._reading() as con:
            self._deadline = time.monotonic() + (timeout_s or self.sql_timeout_s)
            try:
                cur = con.execute(query, params or [])
                columns = [d[0] for d in cur.description] if cur.description else []
                rows = cur.fetchmany(cap + 1)
            except duckdb.InterruptException:
                raise QueryTimeout(f"the query ran longer than {timeout_s or self.sql_timeout_s:g} s and was stopped") from None
            except duckdb.OutOfMemoryException:
                raise QueryTooLarge(f"the query needed more memory than the {self.settings.read.sql_memory_limit} a "
                                    "query may use (read.sql_memory_limit) and was stopped; select fewer rows or "
                                    "columns, or aggregate first") from None
            except duckdb.PermissionException as exc:
                raise QueryRefused(_one_line(exc)) from None
            except duckdb.Error as exc:
                raise QueryFailed(_one_line(exc)) from None
            finally:
                self._deadline = None
        return SqlResult(columns, rows[:cap], truncated=len(rows) > cap)

    def papers(self) -> list[dict[str, Any]]:
        """Every stored paper: id, title, venue, year, pages."""
        return self.sql("SELECT CAST(paper_id AS VARCHAR) AS paper_id, title, conference_abbreviation, pub_year, "
                        "num_pages FROM metadata ORDER BY title").records()

    def resolve_papers(self, names: list[str], *, one_each: bool = False) -> list[str]:
        """Paper ids for names a person gives (every paper, in title order, when `names` is empty). A name is a paper
        id (or its first 8+ characters), a path of a PDF (the stored path, or a file with the same bytes as a stored
        one), or part of a title (ignoring case and accents; several papers when several titles hold it). Raises NotFound
        for a name that matches nothing, and with `one_each` for one that matches several (naming them)."""
        papers = self.sql("SELECT CAST(paper_id AS VARCHAR), title, pdf_path FROM metadata ORDER BY title",
                          max_rows=10_000_000).rows
        if not names:
            return [p[0] for p in papers]
        chosen: list[str] = []
        for name in names:
            hits = _paper_matches(self, papers, name.strip())
            if not hits:
                raise NotFound(f"no stored paper matches {name!r} (give a paper id, a PDF path or part of a title; "
                               "`paperbase status` lists them)")
            if one_each and len(hits) > 1:
                titles = {p[0]: p[1] for p in papers}
                listed = "; ".join(f"{h} {titles[h] or '(no title)'!r}" for h in hits[:5])
                raise NotFound(f"{name!r} matches {len(hits)} papers ({listed}{'; ...' if len(hits) > 5 else ''}); "
                               "give more of the title, or an id")
            chosen += [h for h in hits if h not in chosen]
        return chosen

    # ---- vectors -----------------------------------------------------------------------------------------

    @property
    def client(self):
        """The reader's one Milvus client (opened on first use)."""
        if self._client is None:
            self._client = self._stack.enter_context(milvus.connect(self.settings))
        return self._client

    def warm(self) -> list[str]:
        """Open the Milvus client and make every collection that exists ready to search (its search copies read, the
        shards without one loaded into Milvus), so the first search of a long-lived reader does not pay for it (on the
        embedded default this also publishes the store for other processes' searches). Returns the collections
        warmed; a store that cannot be opened yet is left for the first search."""
        try:
            if hasattr(self.client, "open"):  # the embedded store opens lazily: a long-lived reader holds it now
                self.client.open()
            names = self.collections()
            for name in names:
                milvus.warm(self.client, name)
                self._ready.add(name)
            return names
        except Exception:  # noqa: BLE001 - no store yet, or a server down: the first search reports it
            return []

    def _reconnect(self) -> None:
        self._stack.close()
        self._stack = ExitStack()
        self._client = None
        self._ready.clear()

    def search(self, query: str, collection: str | None = None, table_name: str | None = None,
               column_name: str | None = None, filter: str | None = None, limit: int = 5,
               ) -> list[Hit]:  # noqa: A002 (the agent's word)
        """Top `limit` cells of one collection, or (collection None) fused over BM25 and the dense text collections
        (`vectors.hybrid`), each cell once, joined back to their DuckDB text (or bbox for image hits)."""
        if not self.settings.duckdb_path.exists():
            raise StoreMissing(f"no database at {self.settings.duckdb_path}; run `paperbase ingest DIR` first")

        def run() -> list[Hit]:
            if collection is None:
                return _hybrid(self.settings, query, table_name, column_name, filter, limit, client=self.client,
                               reading=self._reading, ready=self._ready, cache=self._cache)
            return _search(self.settings, query, collection, table_name, column_name, filter, limit, client=self.client,
                           reading=self._reading, ready=self._ready, cache=self._cache)

        try:
            return run()
        except Exception as exc:
            if not is_transient(exc):
                raise
            # the process that held the shared Milvus Lite store went away: open it (or its new holder) and retry once
            self._reconnect()
            return run()

    def hybrid_search(self, query: str, table_name: str | None = None, column_name: str | None = None,
                      filter: str | None = None, limit: int = 5) -> list[Hit]:  # noqa: A002
        """`search` with no collection: BM25 fused with the dense text collections."""
        return self.search(query, None, table_name, column_name, filter, limit)

    def searched(self, collection: str | None = None) -> dict[str, int]:
        """The collections a `search` with this `collection` (None: hybrid) covers, with how many vectors each holds:
        all zero (or none at all) means the index searched is empty, not that nothing matched."""
        from pipeline.vectors.search import hybrid_collections

        names = [collection] if collection else hybrid_collections(self.settings, self.client)
        existing = milvus.existing(self.client, names)
        return {n: milvus.count_rows(self.client, n) if n in existing else 0 for n in names}

    def collections(self) -> list[str]:
        """Collections that exist in Milvus, in schema order."""
        from schemas.vectorstore import collections

        names = milvus.existing(self.client)
        return [c.name for c in collections() if c.name in names]

    # ---- pages -------------------------------------------------------------------------------------------

    def page_image(self, paper_id: str, page_number: int, bbox: list[float] | None = None, dpi: int = 144) -> bytes:
        """PNG of a stored paper's page (or of `bbox` = [x0, y0, w, h] on it). The id is looked up, never a path."""
        try:
            key = str(uuid.UUID(str(paper_id)))
        except ValueError:
            raise NotFound(f"{paper_id!r} is not a paper id (a UUID from metadata.paper_id)") from None
        rows = self.sql("SELECT pdf_path, num_pages FROM metadata WHERE CAST(paper_id AS VARCHAR) = ?", [key]).rows
        if not rows:
            raise NotFound(f"no paper with id {key} in the database")
        pdf_path, num_pages = rows[0]
        if not isinstance(page_number, int) or not 1 <= page_number <= (num_pages or 0):
            raise NotFound(f"paper {key} has pages 1 to {num_pages}; there is no page {page_number!r}")
        from pipeline.render import page_png

        try:
            return page_png(pdf_path, page_number, bbox, dpi)
        except FileNotFoundError:
            raise NotFound(f"the PDF of paper {key} is no longer at {pdf_path}") from None
        except ValueError as exc:
            raise ReadError(_one_line(exc)) from None

    # ---- prompt texts ------------------------------------------------------------------------------------

    def database_prompt(self) -> str:
        """The `[Database Schema]` body the agent sees (after the line naming the .sql file)."""
        from pipeline.store.schema import render_schema_prompt

        return render_schema_prompt()

    def vectorstore_prompt(self) -> str:
        """The `[Vectorstore Schema]` block for the collections that exist."""
        from schemas.vectorstore import render_prompt

        return render_prompt(self.collections())


def _paper_matches(reader: Reader, papers: list[tuple], name: str) -> list[str]:
    """Ids for one name (see `Reader.resolve_papers`): an exact id, else a PDF path, else an id prefix, else titles."""
    from pathlib import Path

    key = name.lower()
    if any(p[0] == key for p in papers):
        return [key]
    path = Path(name).expanduser()
    if name and path.is_file():
        real = str(path.resolve())
        hits = [p[0] for p in papers if p[2] and str(pdf_file(p[2]).expanduser().resolve()) == real]
        if hits:
            return hits
        import hashlib

        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        try:  # a copy of a stored PDF, elsewhere: the same bytes, by the ledger's checksum
            rows = reader.sql("SELECT DISTINCT CAST(paper_id AS VARCHAR) FROM ledger.files WHERE sha256 = ? AND "
                              "paper_id IS NOT NULL", [digest]).rows
        except ReadError:  # a store without a ledger (built by hand)
            rows = []
        known = {p[0] for p in papers}
        return [r[0] for r in rows if r[0] in known]
    if len(key) >= 8 and all(c in "0123456789abcdef-" for c in key):
        hits = [p[0] for p in papers if p[0].startswith(key)]
        if hits:
            return hits
    fragment = _folded(name)
    return [p[0] for p in papers if fragment and fragment in _folded(p[1] or "")]


def _folded(text: str) -> str:
    """Text compared as people type it: accents dropped ("Nyström" holds "nystrom"), case folded, blanks single."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


__all__ = ["Reader", "SqlResult", "Hit", "ReadError", "QueryRefused", "QueryTimeout", "QueryTooLarge", "QueryFailed",
           "NotFound", "check_read_only", "READ_STATEMENTS"]
