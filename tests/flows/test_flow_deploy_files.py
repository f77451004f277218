"""docker-compose.yml, .env.example and the worker Dockerfile, checked by parsing (Docker cannot run here)."""
from __future__ import annotations

import re
from importlib.metadata import version

import pytest

from tests.flows.flowhelpers import REPO

yaml = pytest.importorskip("yaml")
COMPOSE = REPO / "docker-compose.yml"
VAR = re.compile(r"(?<!\$)\$\{([A-Z0-9_]+)(?::?[-?][^}]*)?\}")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_services_volumes_and_health_checks(compose):
    services = compose["services"]
    assert set(services) >= {"etcd", "minio", "milvus", "prefect-server", "worker"}
    for name, svc in services.items():
        assert "healthcheck" in svc and svc["healthcheck"]["test"], f"{name} has no health check"
    named = set(compose["volumes"])
    for name in ("etcd", "minio", "milvus", "worker"):
        mounts = [v.split(":")[0] for v in services[name]["volumes"]]
        assert any(m in named for m in mounts), f"{name} keeps no data in a named volume"
    worker = services["worker"]
    assert all(dep["condition"] == "service_healthy" for dep in worker["depends_on"].values())
    assert set(worker["depends_on"]) == {"prefect-server", "milvus"}
    assert set(services["milvus"]["depends_on"]) == {"etcd", "minio"}


def test_worker_runs_our_flows_against_the_servers(compose):
    worker = compose["services"]["worker"]
    assert worker["build"]["dockerfile"] == "docker/Dockerfile" and (REPO / "docker" / "Dockerfile").exists()
    assert worker["command"][0] == "serve"
    env = worker["environment"]
    assert env["PREFECT_API_URL"] == "http://prefect-server:4200/api"
    assert env["PAPERBASE_VECTORS__MILVUS_URI"] == "http://milvus:19530"
    assert env["DO_NOT_TRACK"] == "1" and env["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"
    server = compose["services"]["prefect-server"]
    assert server["environment"]["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"


def test_pinned_versions_match_the_pinned_clients(compose):
    def default(image: str) -> str:
        m = VAR.search(image)
        return image.split(":", 1)[1] if not m else re.search(r":-([^}]+)\}", image).group(1)

    services = compose["services"]
    milvus = default(services["milvus"]["image"])
    assert re.fullmatch(r"v\d+\.\d+\.\d+", milvus), "Milvus must be pinned to an exact release"
    assert milvus.lstrip("v").split(".")[0] == version("pymilvus").split(".")[0]  # same major line as the client
    assert default(services["prefect-server"]["image"]).startswith(version("prefect") + "-")
    for name in ("etcd", "minio", "prefect-db"):
        assert "latest" not in default(services[name]["image"])


def test_env_example_covers_every_compose_variable():
    used = set(VAR.findall(COMPOSE.read_text()))
    example = {line.split("=", 1)[0].lstrip("# ").strip() for line in (REPO / ".env.example").read_text().splitlines()
               if "=" in line}
    assert used - example == set(), "compose variables missing from .env.example"


def test_dockerfile_installs_cpu_torch_and_the_cli():
    text = (REPO / "docker" / "Dockerfile").read_text()
    torch_pin = next(d for d in _pyproject_deps() if d.startswith("torch=="))
    assert f"--index-url https://download.pytorch.org/whl/cpu {torch_pin}" in text
    assert 'ENTRYPOINT ["paperbase"]' in text and "USER paperbase" in text


def _pyproject_deps() -> list[str]:
    import tomllib

    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]


def test_a_served_run_says_what_it_did_in_one_line():
    from flows.ingest import run_summary

    out = {"files": [{"path": "/in/a.pdf", "status": "ok"}, {"path": "/in/b.pdf", "status": "partial"},
                     {"path": "/in/c.pdf", "status": "failed"}, {"path": "/in/d.pdf", "status": "skipped"}],
           "stages": {"summarize": {"status": "ok"}, "encode": {"status": "failed"}}}
    line = run_summary(out, known={"/in/b.pdf", "/in/d.pdf"}, seconds=12.34)
    assert line == "run: 1 new, 1 changed, 1 failed, 1 unchanged; encode failed; took 12.3 s"
