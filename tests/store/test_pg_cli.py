"""`--store/--collection` on the commands, `collections`, bad input in one line, a killed writer,
and `serve --workers 2` over one database (#14), against a real server (`pg_fixtures.py`)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.errors import IndexLocked
from openapi_rag.index import Index, build_index
from openapi_rag.store.pg_target import PgTarget
from tests.index.conftest import CATALOG
from tests.store.pg_fixtures import other_database

psycopg = pytest.importorskip("psycopg", reason="the `pg` extra is not installed (make installs it)")

WRITER = Path(__file__).resolve().parents[1] / "index" / "writer_process.py"  # registers `slow-hash`


@pytest.fixture(autouse=True)
def hash_embedders() -> Any:
    """word-hash for in-process commands; slow-hash, as the child processes of WRITER register it."""
    from openapi_rag.embed import register_embedder, unregister_embedder
    from tests.index.conftest import WordHashEmbedder
    from tests.index.writer_process import SlowHashEmbedder

    register_embedder("word-hash", lambda **_: WordHashEmbedder())
    register_embedder("slow-hash", lambda **_: SlowHashEmbedder())
    yield
    unregister_embedder("word-hash")
    unregister_embedder("slow-hash")


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    folder = tmp_path / "specs"
    folder.mkdir()
    for name in ("uber.yaml", "yelp.yaml", "redocly-museum.yaml"):
        shutil.copy(CATALOG / name, folder / name)
    return folder


def _cli(*args: str, delay: float = 0.0, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAPI_RAG_TEST_EMBED_DELAY": str(delay)}
    return subprocess.run(
        [sys.executable, str(WRITER), *args], env=env, capture_output=True, text=True, timeout=120
    )


def _popen(*args: str, delay: float = 0.0) -> subprocess.Popen[str]:
    env = {**os.environ, "OPENAPI_RAG_TEST_EMBED_DELAY": str(delay)}
    return subprocess.Popen(
        [sys.executable, str(WRITER), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_index_search_show_and_collections_through_the_cli(specs: Path, pg_target: PgTarget) -> None:
    env = {"OPENAPI_RAG_STORE": pg_target.dsn}  # the DSN from the environment: not on the command line
    built = _cli(
        "index",
        str(specs),
        "--store",
        pg_target.dsn,
        "--collection",
        pg_target.collection,
        "--embedder",
        "slow-hash",
    )
    assert built.returncode == 0, built.stderr
    runner = CliRunner()
    found = runner.invoke(
        cli, ["search", "museum tickets", "--collection", pg_target.collection, "--json"], env=env
    )
    assert found.exit_code == 0, found.output
    assert '"id": "POST /tickets"' in found.stdout.split("}")[0]
    shown = runner.invoke(
        cli, ["show", "POST /tickets", "--collection", pg_target.collection, "--json"], env=env
    )
    assert shown.exit_code == 0 and '"operationId": "buyMuseumTickets"' in shown.stdout
    listed = runner.invoke(cli, ["collections", "list", "--json"], env=env)
    assert f'"collection": "{pg_target.collection}"' in listed.stdout and '"services": 3' in listed.stdout
    assert runner.invoke(cli, ["collections", "drop", pg_target.collection], env=env).exit_code == 0
    gone = runner.invoke(cli, ["search", "museum", "--collection", pg_target.collection], env=env)
    assert gone.exit_code == 1 and f"no collection '{pg_target.collection}'" in gone.stderr


def test_both_index_and_store_is_a_usage_error(tmp_path: Path, pg_dsn: str) -> None:
    result = CliRunner().invoke(cli, ["search", "x", "--index", str(tmp_path), "--store", pg_dsn])
    assert result.exit_code == 2 and "give --index DIR or --store DSN, not both" in result.stderr


def _one_error_line(result: Any) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def test_an_unreachable_host_is_named_and_nothing_is_written(specs: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["index", str(specs), "--store", "postgresql://catalog@127.0.0.1:9/apis", "--embedder", "word-hash"],
    )
    line = _one_error_line(result)
    assert (
        "cannot reach PostgreSQL at 127.0.0.1:9 (connection refused)" in line and "OPENAPI_RAG_STORE" in line
    )


def test_a_wrong_password_is_refused_in_one_line(pg_server: Any, pg_dsn: str, specs: Path) -> None:
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'pwuser'").fetchone():
            conn.execute("CREATE ROLE pwuser LOGIN PASSWORD 'right-one'")
        hba = Path(pg_server.pgdata) / "pg_hba.conf"
        if "pwuser" not in hba.read_text():
            hba.write_text("local all pwuser scram-sha-256\n" + hba.read_text())
            conn.execute("SELECT pg_reload_conf()")
    time.sleep(0.2)
    wrong = pg_dsn.replace("postgres:@", "pwuser:wrong@")
    result = CliRunner().invoke(cli, ["search", "museum", "--store", wrong], env={"OPENAPI_RAG_STORE": None})
    line = _one_error_line(result)
    assert (
        "refused the login of user 'pwuser' (wrong or missing password)" in line
        and "wrong" not in line.split("password)")[0].replace("wrong or missing", "")
    )


def test_a_database_without_pgvector_says_how_to_install_it(pg_dsn: str, specs: Path) -> None:
    dsn = other_database(pg_dsn, "novector", vector=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'plain'").fetchone():
            conn.execute("CREATE ROLE plain LOGIN")  # no superuser: may not CREATE EXTENSION vector
    plain = dsn.replace("postgres:@", "plain:@")
    result = CliRunner().invoke(cli, ["index", str(specs), "--store", plain, "--embedder", "word-hash"])
    line = _one_error_line(result)
    assert "lacks the pgvector extension" in line and "CREATE EXTENSION vector" in line
    with psycopg.connect(dsn) as conn:
        assert (
            conn.execute("SELECT to_regclass('openapi_rag_collections')").fetchone()[0] is None
        )  # nothing written


def test_a_killed_update_leaves_the_previous_state_and_frees_the_lock(
    specs: Path, pg_target: PgTarget
) -> None:
    args = ["--store", pg_target.dsn, "--collection", pg_target.collection, "--embedder", "slow-hash"]
    build_index([specs], pg_target, embedder="slow-hash")
    before = Index.open(pg_target)
    expected = [h.id for h in before.search("museum tickets", k=3)]
    (specs / "redocly-museum.yaml").write_text(
        (specs / "redocly-museum.yaml").read_text().replace("Museum", "Zoo")
    )
    writer = _popen("index", str(specs), *args, delay=4.0)  # one batch: inside the lock for 4 s
    try:
        deadline = time.monotonic() + 30
        with psycopg.connect(pg_target.dsn) as conn:  # wait until it holds the collection's lock
            while not conn.execute(
                "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            ).fetchone():
                assert time.monotonic() < deadline and writer.poll() is None
                time.sleep(0.05)
        time.sleep(0.5)
        with pytest.raises(IndexLocked, match=f"is being updated by openapi-rag pid {writer.pid} "):
            build_index([specs], pg_target)
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
    finally:
        if writer.poll() is None:
            writer.kill()
    after = Index.open(pg_target)
    assert (
        after.generation == before.generation
        and [h.id for h in after.search("museum tickets", k=3)] == expected
    )
    retried = _cli("index", str(specs), *args, "--json")  # the server freed the dead writer's lock
    assert retried.returncode == 0 and '"changed": [' in retried.stdout


def test_serve_with_two_workers_answers_from_one_database(specs: Path, pg_target: PgTarget) -> None:
    args = ["--store", pg_target.dsn, "--collection", pg_target.collection]
    build_index([specs], pg_target, embedder="slow-hash")
    server = _popen("serve", *args, "--port", "0", "--workers", "2", "--reload-interval", "0.5")
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        base = re.search(r"http://[\d.]+:\d+", line)
        assert base, line
        url = base.group(0)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.2)
        import psutil

        assert len(psutil.Process(server.pid).children()) == 2
        def search(_: int) -> None:
            answer = httpx.get(f"{url}/search", params={"q": "museum tickets", "k": 3}, timeout=10).json()
            assert answer["results"][0]["id"] == "redocly-museum-api POST /tickets"

        def worker_sessions() -> int:
            with psycopg.connect(pg_target.dsn) as conn:
                return conn.execute(
                    "SELECT count(DISTINCT application_name) FROM pg_stat_activity "
                    "WHERE application_name LIKE 'openapi-rag pid %%' AND application_name NOT LIKE %s",
                    (f"openapi-rag pid {os.getpid()} %",),  # not this test's own connections
                ).fetchone()[0]

        # Which worker accepts a new connection is the kernel's choice, and on a busy machine one
        # worker can take ten in a row: concurrent requests (each on its own connection) keep one
        # worker busy while the other accepts, until both have answered from the database.
        with ThreadPoolExecutor(4) as pool:
            for _ in range(20):
                list(pool.map(search, range(4)))
                if (sessions := worker_sessions()) == 2:
                    break
        assert sessions == 2  # the two worker processes, each with its own connections
        (specs / "yelp.yaml").unlink()  # an update by another process is picked up by both workers
        build_index([specs], pg_target)
        time.sleep(1.5)
        for _ in range(6):
            body = httpx.get(f"{url}/services", timeout=10).json()
            services = body["services"] if isinstance(body, dict) else body
            assert sorted(s["service"] for s in services) == ["redocly-museum-api", "uber-api"], services
    finally:
        server.terminate()
        server.wait(30)
