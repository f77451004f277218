"""The single source of truth for the database and vectorstore schemas.

The JSON files beside this module are data; everything else (DuckDB DDL, Milvus collections, the schema
text shown to the agent) is rendered from the typed views below.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    description: str
    encodable: str | None = None  # "text" | "image" | None


@dataclass(frozen=True)
class ForeignKey:
    column: str
    ref_table: str
    ref_column: str


@dataclass(frozen=True)
class Table:
    name: str
    description: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    foreign_keys: tuple[ForeignKey, ...] = field(default_factory=tuple)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(f"{self.name}.{name}")


@dataclass(frozen=True)
class DatabaseSchema:
    name: str
    description: str
    tables: tuple[Table, ...]

    def table(self, name: str) -> Table:
        for tbl in self.tables:
            if tbl.name == name:
                return tbl
        raise KeyError(name)

    @property
    def table_names(self) -> list[str]:
        return [t.name for t in self.tables]

    def encodable_columns(self, modality: str | None = None) -> list[tuple[str, str, str]]:
        """(table, column, modality) triples in schema order."""
        return [
            (t.name, c.name, c.encodable)
            for t in self.tables
            for c in t.columns
            if c.encodable and (modality is None or c.encodable == modality)
        ]


def load_json(name: str) -> dict | list:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def database_schema() -> DatabaseSchema:
    raw = load_json("database.json")
    tables = []
    for t in raw["tables"]:
        fks = []
        for fk in t.get("foreign_keys", []):
            ref_table, ref_column = fk["references"].split(".")
            fks.append(ForeignKey(fk["column"], ref_table, ref_column))
        tables.append(
            Table(
                name=t["name"],
                description=t["description"],
                columns=tuple(Column(c["name"], c["type"], c["description"], c.get("encodable")) for c in t["columns"]),
                primary_key=tuple(t["primary_key"]),
                foreign_keys=tuple(fks),
            )
        )
    return DatabaseSchema(raw["database"], raw["description"], tuple(tables))
