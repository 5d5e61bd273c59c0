"""A rebuilt index is picked up without a restart, and no request fails or sees half of it; workers share."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import httpx

from openapi_rag.index import build_index
from tests.serve.conftest import CATALOG, Server


def test_rebuild_under_traffic_is_picked_up_with_no_error(tmp_path: Path, index_dir: Path):
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(CATALOG / "uber.yaml", specs / "uber.yaml")
    idx = tmp_path / "idx"
    build_index([specs], idx)
    server = Server(["serve", "--index", str(idx), "--port", "0", "--reload-interval", "0.2"])
    base = server.url
    failures: list[str] = []
    answered = 0
    stop = threading.Event()

    def traffic() -> None:
        nonlocal answered
        with httpx.Client(timeout=60) as http:
            while not stop.is_set():
                try:
                    response = http.get(f"{base}/search", params={"q": "price estimate", "k": 3})
                    body = response.json()
                except (httpx.HTTPError, ValueError) as exc:  # recorded: a thread's exception is lost
                    failures.append(repr(exc))
                    continue
                if response.status_code != 200 or not body["results"]:
                    failures.append(f"{response.status_code} {body}")
                answered += 1

    try:
        assert httpx.get(f"{base}/healthz").json()["operations"] == 5
        threads = [threading.Thread(target=traffic) for _ in range(3)]
        for thread in threads:
            thread.start()
        shutil.copy(CATALOG / "spotify.json", specs / "spotify.json")
        build_index([specs], idx)  # written beside, swapped in atomically
        deadline = time.monotonic() + 60
        while httpx.get(f"{base}/healthz").json()["operations"] != 45:
            assert time.monotonic() < deadline, "the rebuilt index was never picked up"
            time.sleep(0.1)
        time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join()
        assert failures == [] and answered > 0
        hits = httpx.get(f"{base}/search", params={"q": "top tracks of an artist", "k": 1}).json()["results"]
        assert hits[0]["service"] == "spotify-web-api"
        assert httpx.get(f"{base}/healthz").json()["reloads"] == 1
    finally:
        stop.set()
        server.stop()


def test_two_workers_share_one_socket_and_report_metrics_together(index_dir: Path):
    server = Server(["serve", "--index", str(index_dir), "--port", "0", "--workers", "2"])
    try:
        with httpx.Client(timeout=30) as http:
            for _ in range(12):  # new connections: the kernel spreads them over both workers
                with httpx.Client(timeout=30) as fresh:
                    assert fresh.get(f"{server.url}/search", params={"q": "my playlists"}).status_code == 200
            text = http.get(f"{server.url}/metrics").text
        line = next(
            x for x in text.splitlines() if x.startswith('openapi_rag_requests_total{route="/search"')
        )
        assert float(line.split()[-1]) == 12.0  # counted across workers (multiprocess mode)
    finally:
        log = server.stop()
    assert "2 worker(s)" in log
