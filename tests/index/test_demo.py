"""`openapi-rag demo`, the README's first command: the real default embedder over the shipped catalog."""

from __future__ import annotations

from click.testing import CliRunner

from openapi_rag.cli import cli


def test_demo_indexes_the_catalog_and_answers(tmp_path):
    index_dir = str(tmp_path / "demo-index")
    result = CliRunner().invoke(cli, ["demo", "--index", index_dir, "-k", "3"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "7 services, 108 operations" in result.output
    blocks = result.output.split("\n$ openapi-rag search ")[1:]
    answers = {block.splitlines()[0]: block for block in blocks}
    museum = next(b for q, b in answers.items() if "museum" in q)
    assert "POST /tickets" in museum
    ride = next(b for q, b in answers.items() if "ride" in q)
    assert "GET /estimates/price" in ride
    again = CliRunner().invoke(cli, ["demo", "--index", index_dir], catch_exceptions=False)
    assert "(0 embedded now)" in again.output
