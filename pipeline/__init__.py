"""paperbase's pipeline floor: the ingest runner, the stages and the read API (see docs/architecture.md)."""
