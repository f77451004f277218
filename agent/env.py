"""The environment: run one parsed action against the store and return its observation.

Rules:
- Reads only through `pipeline.read.Reader`: SQL through `Reader.sql` (one read-only statement, timeout, row cap),
  similarity search through `Reader.search`, pages through `Reader.page_image` (ids looked up, never paths).
- Inputs are checked before they reach the store: collection, (table, column) pair, filter grammar
  (`schemas.filters`), limit, bounding box; arithmetic goes through `agent.calc`, never `eval`.
- Nothing raises: every refusal or failure is an `[Error]: ...` observation the model can read.
"""
from __future__ import annotations

from typing import Any

from agent import observe
from agent.calc import CalcError, calculate, format_result
from agent.config import AgentSettings
from agent.parse import Action
from pipeline.read import QueryFailed, QueryRefused, QueryTimeout, ReadError, Reader
from schemas import database_schema
from schemas.filters import FilterError, validate_filter
from schemas.vectorstore import collection as schema_collection

CLASSIC_COLLECTION = "text_sentence_transformers_all_minilm_l6_v2"
CLASSIC_SOURCE = ("chunks", "text_content")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class Environment:
    def __init__(self, reader: Reader, settings: AgentSettings | None = None):
        self.reader = reader
        self.settings = settings or AgentSettings()
        self._collections: list[str] | None = None

    def execute(self, action: Action) -> observe.Observation:
        handler = getattr(self, f"_{action.name}", None)
        if handler is None:
            return observe.error(f"unknown action {action.name}")
        try:
            return handler(**action.args)
        except Exception as exc:  # a bug or an unexpected store error must not end the run
            return observe.error(f"{action.name} failed: {type(exc).__name__}: {_one_line(exc)}")

    # ---- actions -----------------------------------------------------------------------------------------

    def _RetrieveFromDatabase(self, sql: str) -> observe.Observation:
        s = self.settings
        try:
            result = self.reader.sql(sql, timeout_s=s.sql_timeout_s, max_rows=s.max_rows)
        except QueryRefused as exc:
            return observe.error(f"the SQL is refused: {exc} (only one read-only SELECT on the database is allowed)")
        except QueryTimeout as exc:
            return observe.error(f"the SQL timed out: {exc}")
        except QueryFailed as exc:  # upstream puts execution errors on a new line, parser errors on the same one
            lead = "" if str(exc).startswith("Parser Error") else "\n"
            return observe.Observation(lead + observe.SQL_RUNTIME.format(message=exc))
        except ReadError as exc:
            return observe.error(str(exc))
        if not result.rows:
            return observe.Observation(observe.SQL_EMPTY)
        return observe.rows(result.records(), more=result.truncated, max_rows=s.max_rows, max_tokens=s.max_tokens)

    def _RetrieveFromVectorstore(self, query: str, collection_name: str, table_name: str, column_name: str,
                                 filter: str = "", limit: int = 5) -> observe.Observation:  # noqa: A002
        problem = self._check_search(collection_name, table_name, column_name, limit)
        if problem:
            return observe.error(problem)
        try:
            validate_filter(filter, collection_name)
        except FilterError as exc:
            return observe.Observation(observe.FILTER_INVALID.format(filter=filter, reason=exc))
        return self._search(query, collection_name, table_name, column_name, filter, limit)

    def _ClassicRetrieve(self, query: str, limit: int = 5) -> observe.Observation:
        if limit < 1:
            return observe.error(f"limit must be a positive integer, got {limit}")
        if CLASSIC_COLLECTION not in self.collections():
            return observe.error(f"collection {CLASSIC_COLLECTION} is not in the vectorstore; run `paperbase encode`")
        return self._search(query, CLASSIC_COLLECTION, *CLASSIC_SOURCE, "", limit)

    def _CalculateExpr(self, expr: str) -> observe.Observation:
        try:
            return observe.Observation(observe.CALCULATED.format(result=format_result(calculate(expr))))
        except CalcError as exc:
            return observe.error(str(exc))

    def _ViewImage(self, paper_id: str, page_number: int, bounding_box: list[float] | None = None) -> observe.Observation:
        if not self.settings.vision:
            return observe.error("ViewImage is unavailable: the current model does not accept images")
        bbox = list(bounding_box or [])
        if bbox and (len(bbox) != 4 or bbox[2] <= 0 or bbox[3] <= 0 or bbox[0] < 0 or bbox[1] < 0):
            return observe.error(f"bounding_box must be [x_min, y_min, delta_x, delta_y] with positive sizes, got {bbox}")
        try:
            png = self.reader.page_image(paper_id, page_number, bbox or None, dpi=self.settings.image_dpi)
        except ReadError as exc:
            return observe.error(str(exc))
        region = f" (bounding box {bbox})" if bbox else ""
        return observe.Observation(observe.IMAGE_SHOWN.format(page=page_number, paper_id=paper_id, region=region), image_png=png)

    def _GenerateAnswer(self, answer: Any) -> observe.Observation:
        return observe.answer_echo(answer)

    # ---- helpers -----------------------------------------------------------------------------------------

    def collections(self) -> list[str]:
        if self._collections is None:
            self._collections = self.reader.collections()
        return self._collections

    def _check_search(self, collection_name: str, table_name: str, column_name: str, limit: int) -> str | None:
        existing = self.collections()
        if collection_name not in existing:
            return f"collection {collection_name!r} is not in the vectorstore; choose one of {existing}"
        modality = schema_collection(collection_name).modality
        pairs = [(t, c) for t, c, m in database_schema().encodable_columns() if m == modality]
        if (table_name, column_name) not in pairs:
            return (f"({table_name!r}, {column_name!r}) is not an encodable (table_name, column_name) pair of the "
                    f"{modality} collection {collection_name!r}; see the encodable list in the vectorstore schema")
        if limit < 1:
            return f"limit must be a positive integer, got {limit}"
        return None

    def _search(self, query: str, collection_name: str, table_name: str, column_name: str, filter: str,  # noqa: A002
                limit: int) -> observe.Observation:
        s = self.settings
        try:
            hits = self.reader.search(query, collection_name, table_name, column_name, filter or None,
                                      min(limit, s.max_limit))
        except ReadError as exc:
            return observe.error(str(exc))
        except Exception as exc:  # pymilvus rejects a filter it cannot evaluate; models unavailable; ...
            text = _one_line(exc)
            if filter and "Milvus" in type(exc).__name__:  # shown as upstream: <MilvusException: (code=..., message=...)>
                return observe.Observation(observe.FILTER_INVALID.format(filter=filter, reason=text))
            return observe.error(f"similarity search failed: {type(exc).__name__}: {text}")
        if not hits:
            return observe.Observation(observe.NO_HITS.format(query=query))
        return observe.rows([observe.hit_record(h) for h in hits], max_rows=s.max_rows, max_tokens=s.max_tokens)
