"""Render the database schema in `schemas/` as DuckDB DDL and as the text the agent is shown."""
from __future__ import annotations

from schemas import DatabaseSchema, Table, database_schema


def _constraints(table: Table) -> list[str]:
    lines = [f"PRIMARY KEY ({', '.join(table.primary_key)})"] if table.primary_key else []
    lines += [f"FOREIGN KEY ({fk.column}) REFERENCES {fk.ref_table}({fk.ref_column})" for fk in table.foreign_keys]
    return lines


def render_table_prompt(table: Table) -> str:
    """One table as the agent sees it: a comment, then annotated CREATE TABLE.

    The quirks (a trailing ',' after the last column's comment) are those of the upstream prompt, which the
    seeds fix byte for byte.
    """
    constraints = _constraints(table)
    lines = [f"/* table {table.name}: {table.description}\n*/", f"CREATE TABLE IF NOT EXISTS {table.name} ("]
    for i, col in enumerate(table.columns):
        tail = "," if i == len(table.columns) - 1 and constraints else ""
        lines.append(f"\t{col.name} {col.type}, -- {col.description}{tail}")
    lines += [f"\t{c}," for c in constraints[:-1]] + [f"\t{c}" for c in constraints[-1:]]
    lines.append(");")
    return "\n".join(lines)


def render_schema_prompt(schema: DatabaseSchema | None = None) -> str:
    """The `[Database Schema]` body (everything after the first line naming the .sql path)."""
    schema = schema or database_schema()
    parts = [f"/* database {schema.name}: {schema.description}\n*/"]
    parts += [render_table_prompt(t) for t in schema.tables]
    return "\n".join(parts) + "\n"


def render_ddl(schema: DatabaseSchema | None = None, *, foreign_keys: bool = False) -> list[str]:
    """Executable CREATE TABLE statements.

    Foreign keys are shown to the agent but not enforced by default: DuckDB cannot delete a parent row that is
    referenced in the same transaction, which would break the per-paper replace. Referential integrity is kept
    by the writer (a paper's rows are always replaced together).
    """
    schema = schema or database_schema()
    statements = []
    for table in schema.tables:
        cols = [f"{c.name} {c.type}" for c in table.columns]
        cons = [f"PRIMARY KEY ({', '.join(table.primary_key)})"] if table.primary_key else []
        if foreign_keys:
            cons += [f"FOREIGN KEY ({fk.column}) REFERENCES {fk.ref_table}({fk.ref_column})" for fk in table.foreign_keys]
        statements.append(f'CREATE TABLE IF NOT EXISTS "{table.name}" (\n  ' + ",\n  ".join(cols + cons) + "\n)")
    statements += render_indexes(schema)
    return statements


def render_indexes(schema: DatabaseSchema | None = None) -> list[str]:
    """An index on every foreign-key column: what the agent filters and joins on (`WHERE ref_paper_id = '…'`, a
    page's rows). Paper ids are random UUIDs, so without one every per-paper query scans its whole table (zonemaps
    cannot skip); with one DuckDB looks the rows up (bench/scale.py duckdb: flat in the number of papers)."""
    schema = schema or database_schema()
    return [f'CREATE INDEX IF NOT EXISTS "{table.name}_{fk.column}" ON "{table.name}" ({fk.column})'
            for table in schema.tables for fk in table.foreign_keys]
