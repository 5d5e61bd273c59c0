"""The mock server over real HTTP: validation by openapi-core, answers from the description."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from openapi_rag.generate.call.mock import SERVICE_HEADER, MockAPI, MockServer


@pytest.fixture(scope="module")
def mock_url(call_services: list) -> Iterator[str]:
    with MockServer(MockAPI(call_services)) as server:
        assert server.host == "127.0.0.1"
        yield server.url


def test_valid_requests_get_the_success_status_and_the_example(mock_url: str) -> None:
    with httpx.Client(base_url=mock_url, trust_env=False) as client:
        added = client.post("/playlists/3cEY/tracks", json={"uris": ["spotify:track:4iV5"]})
        assert added.status_code == 201
        assert added.headers["X-Mock-Operation"] == "spotify-web-api POST /playlists/{playlist_id}/tracks"
        assert "snapshot_id" in added.json()
        assert client.delete("/policies/54321").status_code == 204
        history = client.get(
            "/account/transactions", params={"start_date": "2024-01-01", "end_date": "2024-02-01"}
        )
        assert history.status_code == 200 and isinstance(history.json(), list)


def test_invalid_requests_get_the_reason(mock_url: str) -> None:
    with httpx.Client(base_url=mock_url, trust_env=False) as client:
        missing = client.get("/search", params={"q": "x"})
        assert missing.status_code == 400 and "type" in missing.json()["reason"]
        bad_date = client.get(
            "/account/transactions", params={"start_date": "yesterday", "end_date": "2024-02-01"}
        )
        assert bad_date.status_code == 400 and "start_date" in bad_date.json()["reason"]
        body = client.post("/account/transfer", json={"from_account": "1"})
        assert body.status_code == 422 and "to_account" in body.json()["reason"]
        wrong_type = client.post("/playlists/3cEY/tracks", json={"uris": 5})
        assert wrong_type.status_code == 422 and "array" in wrong_type.json()["reason"]
        assert client.get("/nope").status_code == 404
        not_allowed = client.patch("/playlists/x/tracks")
        assert not_allowed.status_code == 405 and "GET" in not_allowed.json()["reason"]


def test_the_service_header_pins_one_service(mock_url: str) -> None:
    with httpx.Client(base_url=mock_url, trust_env=False) as client:
        other = client.delete("/policies/54321", headers={SERVICE_HEADER: "spotify-web-api"})
        assert other.status_code == 404


def test_a_key_is_required_when_set(call_services: list) -> None:
    with MockServer(MockAPI(call_services[:1], key="s3cret")) as server:
        with httpx.Client(base_url=server.url, trust_env=False) as client:
            assert client.get("/account/balance").status_code == 401
            ok = client.get("/account/balance", headers={"Authorization": "Bearer s3cret"})
            assert ok.status_code == 200


def test_bodies_over_the_limit_are_refused(call_services: list, monkeypatch: pytest.MonkeyPatch) -> None:
    from openapi_rag.generate.call import mock

    monkeypatch.setattr(mock, "MAX_BODY_BYTES", 64)
    with (
        MockServer(MockAPI(call_services[:1])) as server,
        httpx.Client(base_url=server.url, trust_env=False) as client,
    ):
        answer = client.post("/account/transfer", json={"from_account": "1" * 100})
        assert answer.status_code == 413
