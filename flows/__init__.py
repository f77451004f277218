"""Prefect flows around the plain pipeline stages (parse -> store -> summarize -> encode).

`pipeline/` never imports Prefect or this package; the top-floor CLI imports `flows.runner` when a command needs it.
Importing this package first sets Prefect's environment defaults (telemetry off, patient
ephemeral start), because Prefect reads its settings when it is imported.
"""
from flows.env import configure_prefect

configure_prefect()
