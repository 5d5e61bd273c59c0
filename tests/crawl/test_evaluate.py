"""The SpeCrawler metrics on toy data (hand-computed) and `eval-crawl` on two real pages."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.crawl.benchmark import micro_f1_ci
from openapi_rag.crawl.evaluate import Op, Param, extract_operations, operation_key, score_page
from tests.crawl.conftest import PAGES, TRUTH


def _op(key: tuple[str, str], request: dict[str, tuple], response: list[str]) -> Op:
    return Op(
        key,
        {n: Param(n, *v) for n, v in request.items()},
        {n: Param(n, "response", "string", False) for n in response},
        "",
    )


def test_counts_and_agreements_hand_computed() -> None:
    truth = {
        ("GET", "/a"): _op(
            ("GET", "/a"), {"id": ("path", "integer", True), "q": ("query", "string", False)}, ["x", "y"]
        ),
        ("POST", "/a"): _op(("POST", "/a"), {}, []),
    }
    predicted = {
        ("GET", "/a"): _op(
            ("GET", "/a"), {"id": ("path", "string", True), "z": ("query", "string", None)}, ["x"]
        ),
        ("GET", "/b"): _op(("GET", "/b"), {}, []),
    }
    score = score_page("p", truth, predicted)
    assert (score.ops.tp, score.ops.fp, score.ops.fn) == (1, 1, 1)
    assert score.request.prf() == {"precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert score.response.prf()["recall"] == 0.5 and score.response.prf()["precision"] == 1.0
    assert (score.location.value(), score.type.value(), score.required.value()) == (1.0, 0.5, 1.0)


def test_a_page_without_its_server_is_matched_by_the_relative_path() -> None:
    # The truth's server has a base path (/v1) the page never shows: strict keys miss, relative hit.
    def op(base: str) -> Op:
        found = _op(operation_key("GET", base, "/a/{id}"), {"id": ("path", "integer", True)}, ["x"])
        found.relative = operation_key("GET", "", "/a/{id}")
        return found

    truth, predicted = op("/v1"), op("")
    score = score_page("p", {truth.key: truth}, {predicted.key: predicted})
    assert (score.ops.tp, score.ops.fn) == (0, 1)
    assert (score.ops_relative.tp, score.ops_relative.fp, score.ops_relative.fn) == (1, 0, 0)
    assert score.request.tp == 1 and score.response.tp == 1


def test_operation_keys_join_the_server_path_and_blank_the_variables() -> None:
    assert operation_key("get", "/v1", "/users/{id}") == ("GET", "/v1/users/{}")
    assert operation_key("GET", "", "/users/:id/") == ("GET", "/users/{}")


def test_truth_counts_fields_shown_only_in_examples() -> None:
    ops = extract_operations(TRUTH / "socbench-04-consumer-02-Hotel.json")
    assert {"type", "pricePerNight", "status"} <= set(ops[("POST", "/v1/rooms")].request)


def test_truth_types_come_from_the_schema_before_its_example(tmp_path: Path) -> None:
    # A whole number in a schema's own example does not make its `number` property an integer, nor
    # its required property optional; fields only the example names still count.
    body = {
        "type": "object",
        "required": ["rate"],
        "properties": {"rate": {"type": "number"}},
        "example": {"rate": 10, "note": "x"},
    }
    spec = {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/taxes": {
                "post": {"requestBody": {"content": {"application/json": {"schema": body}}}, "responses": {}}
            }
        },
    }
    (tmp_path / "t.json").write_text(json.dumps(spec), encoding="utf-8")
    request = extract_operations(tmp_path / "t.json")[("POST", "/taxes")].request
    assert (request["rate"].type, request["rate"].required) == ("number", True)
    assert request["note"].type == "string"


def test_a_required_flag_written_as_a_string_means_what_it_says() -> None:
    # RestBench's Spotify spec writes `required: "false"`; bool("false") would make it required.
    search = extract_operations(TRUTH / "restbench-spotify.json")[("GET", "/v1/search")].request
    flags = {name: search[name].required for name in ("q", "limit", "include_external")}
    assert flags == {"q": True, "limit": False, "include_external": False}


def test_micro_f1_interval() -> None:
    low, high = micro_f1_ci([(8, 2, 2), (5, 0, 5), (10, 0, 0)])
    assert 0 < low <= (2 * 23) / (2 * 23 + 2 + 7) <= high <= 1
    assert all(math.isnan(v) for v in micro_f1_ci([]))


def test_eval_crawl_cli_on_two_real_pages(tmp_path: Path) -> None:
    pages = tmp_path / "pages" / "widdershins"
    pages.mkdir(parents=True)
    truth = tmp_path / "truth"
    truth.mkdir()
    for name in ("realworld-v3-0-petstore-expanded", "socbench-11-real-01-Property"):
        shutil.copy(PAGES / "widdershins" / f"{name}.html", pages)
        source = next(TRUTH.glob(f"{name}.*"))
        shutil.copy(source, truth)
    out = tmp_path / "out"
    run = CliRunner().invoke(
        cli, ["eval-crawl", "--pages", str(tmp_path / "pages"), "--truth", str(truth), "--out", str(out)]
    )
    assert run.exit_code == 0, run.output
    assert run.stdout.startswith("| pages (renderer) |")
    summary = json.loads((out / "summary.json").read_text())["widdershins"]
    assert summary["pages"] == 2
    assert summary["operations"]["recall"] == 1.0 and summary["operations"]["precision"] == 1.0
    assert summary["request"]["f1"] > 0.8
    assert summary["valid_openapi"] == 1.0
    assert 0.3 < summary["description_similarity"] <= 1.0
    assert (out / "crawled" / "widdershins" / "realworld-v3-0-petstore-expanded.json").is_file()
    assert len((out / "pages.jsonl").read_text().splitlines()) == 2


def test_eval_crawl_with_no_matching_pages_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    run = CliRunner().invoke(
        cli,
        [
            "eval-crawl",
            "--pages",
            str(tmp_path / "pages"),
            "--truth",
            str(TRUTH),
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert run.exit_code == 1
    assert "no pages whose name matches" in run.output


@pytest.mark.slow
def test_benchmark_targets_on_the_rule_writing_renderer(tmp_path: Path) -> None:
    from openapi_rag.crawl.benchmark import run_eval

    summary = run_eval(PAGES / "widdershins", TRUTH, tmp_path)["widdershins"]
    assert summary["operations"]["recall"] >= 0.95 and summary["operations"]["precision"] >= 0.95
    assert summary["valid_openapi"] == 1.0
    assert summary["request"]["f1"] >= 0.90
    assert summary["response"]["f1"] >= 0.80
