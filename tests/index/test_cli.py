"""The index, search and show commands end to end (word-hash embedder, small real specs)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from openapi_rag.cli import cli


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_index_search_show(specs, tmp_path):
    idx = str(tmp_path / "idx")
    code, out = run("index", str(specs), "--index", idx, "--embedder", "word-hash", "--json")
    assert code == 0 and len(json.loads(out)["added"]) == 3

    code, out = run("search", "buy museum tickets", "--index", idx, "-k", "3", "--json")
    hits = json.loads(out)
    assert code == 0 and len(hits) == 3
    assert {"service", "method", "path", "id", "score", "summary", "rank"} <= set(hits[0])
    assert hits[0]["id"] == f"{hits[0]['method']} {hits[0]['path']}" == "POST /tickets"

    queries = tmp_path / "q.jsonl"
    queries.write_text('{"query": "buy museum tickets"}\n\n{"query": "price estimate for a ride"}\n')
    code, out = run("search", "--queries", str(queries), "--index", idx, "-k", "2", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["query"] for line in lines] == ["buy museum tickets", "price estimate for a ride"]
    assert all(len(line["results"]) == 2 for line in lines)

    code, out = run("show", "POST /tickets", "--index", idx, "--json")
    assert code == 0 and json.loads(out)["id"] == "POST /tickets"

    code, out = run("search", "--spec", str(specs / "yelp.yaml"), "--index", idx)
    assert code == 0 and "yelp-v3" in out.splitlines()[0]


def test_usage_errors(specs, tmp_path):
    idx = str(tmp_path / "idx")
    run("index", str(specs), "--index", idx, "--embedder", "word-hash")
    result = CliRunner().invoke(cli, ["search", "--index", idx])
    assert result.exit_code == 2 and "exactly one of QUERY" in result.output
    result = CliRunner().invoke(cli, ["search", "x", "--index", idx, "--mode", "bm25", "--threshold", "0.5"])
    assert result.exit_code == 2
    result = CliRunner().invoke(cli, ["show", "GET /nope", "--index", idx])
    assert result.exit_code == 1 and "Error: no operation 'GET /nope'" in result.output
    result = CliRunner().invoke(cli, ["search", "x", "--index", str(tmp_path / "none")])
    assert result.exit_code == 1 and "No index found" in result.output


def test_the_cli_names_the_library_s_default_strategy() -> None:
    """The CLI spells the default as a literal (it does not import the index at start-up)."""
    from openapi_rag.cli.bench_index_cmd import bench_index
    from openapi_rag.index import DEFAULT_STRATEGY

    assert f"(default: {DEFAULT_STRATEGY};" in " ".join(run("index", "--help")[1].split())
    assert next(p.default for p in bench_index.params if p.name == "strategy") == DEFAULT_STRATEGY
