"""Prefect environment defaults, applied before Prefect is imported. Explicit user settings always win."""
from __future__ import annotations

import os
from pathlib import Path

DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",  # no telemetry from servers we start
    "DO_NOT_TRACK": "1",
    # The ephemeral server runs migrations on first start; on 2 busy cores that took 30-40 s here.
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "PREFECT_UI_SHOW_PROMOTIONAL_CONTENT": "false",
    # Run and task INFO lines ("Task run 'ingest x.pdf' - Finished in state Completed()") went to the terminal and
    # broke into the live progress rows. The console handler now shows warnings and errors only; the API handler keeps
    # every level, so a run's log stays complete in the Prefect UI / `prefect flow-run logs`.
    "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "WARNING",
}


SERVED_API_FILE = "prefect-api.url"  # in the data dir while `paperbase serve` runs its own local server


def configured_api(data_dir: Path) -> str | None:
    """The Prefect API a one-off `paperbase ingest` records its flow run against, found without importing Prefect:
    PREFECT_API_URL (the environment, else the active profile in PREFECT_HOME/profiles.toml), else the local server
    of a `paperbase serve` of this data dir (it leaves the URL in SERVED_API_FILE while it serves; a file a killed
    serve left behind fails the health probe and is ignored). None: no server; the run is a plain in-process one."""
    url = os.environ.get("PREFECT_API_URL") or _profile_api_url()
    if url:
        return url
    served = Path(data_dir) / SERVED_API_FILE
    try:
        url = served.read_text().strip()
    except OSError:
        return None
    import httpx

    try:
        return url if httpx.get(f"{url}/health", timeout=1.0).status_code == 200 else None
    except httpx.HTTPError:
        return None


def _profile_api_url() -> str | None:
    import tomllib

    home = Path(os.environ.get("PREFECT_HOME") or "~/.prefect").expanduser()
    try:
        profiles = tomllib.loads((home / "profiles.toml").read_text())
    except (OSError, ValueError):
        return None
    active = os.environ.get("PREFECT_PROFILE") or profiles.get("active") or "ephemeral"
    return (profiles.get("profiles", {}).get(active, {}) or {}).get("PREFECT_API_URL") or None


def configure_prefect() -> None:
    for key, value in DEFAULTS.items():
        os.environ.setdefault(key, value)


def prefect_home() -> Path:
    """Where Prefect keeps profiles and the ephemeral/local server database (PREFECT_HOME, default ~/.prefect)."""
    from prefect.settings import PREFECT_HOME

    return Path(PREFECT_HOME.value()).expanduser()


def ensure_api() -> None:
    """Make sure a Prefect API is up before the first flow run of this process.

    With PREFECT_API_URL set, that server is used (its UI shows the runs). Without it Prefect starts an ephemeral
    server on the SQLite database in PREFECT_HOME; two processes starting one at once race on its migrations and
    one fails, so the start is serialized on a file lock in PREFECT_HOME. Later runs reuse the started server."""
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL

    from pipeline.locks import file_lock

    if PREFECT_API_URL.value():
        return
    home = prefect_home()
    with file_lock(home / ".paperbase-ephemeral.lock", timeout=600, what="Prefect ephemeral start lock"):
        with get_client(sync_client=True) as client:
            client.api_healthcheck()
