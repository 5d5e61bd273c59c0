"""The LLM enrichment stage with a scripted LLM: TSV parsed, merged, filtered."""

from __future__ import annotations

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.enrich import parse_tsv, pick_examples
from tests.llm.doubles import ScriptedLLM

PAGE = (
    "<h2>Search orders</h2><p><code>GET /orders</code></p>"
    "<p>Pass <code>status</code> to filter and <code>limit</code> (an integer, at most 100) for the page size."
    " The Idempotency-Key header is not needed here.</p>"
    "<table><tr><th>Name</th><th>Type</th><th>Description</th></tr>"
    "<tr><td>status</td><td>string</td><td></td></tr></table>"
)


def test_prose_parameters_come_from_the_llm_and_inventions_are_dropped(tmp_path) -> None:
    page = tmp_path / "orders.html"
    page.write_text(PAGE, encoding="utf-8")
    llm = ScriptedLLM(
        [
            "status\tquery\tstring\ttrue\tFilter by order status\n"
            "limit\tquery\tinteger\tfalse\tPage size, at most 100\n"
            "customer_secret\tquery\tstring\tfalse\tinvented\n"
            "this line is chatter"
        ]
    )
    result = crawl_pages([page], llm=llm)
    params = {p["name"]: p for p in result.document["paths"]["/orders"]["get"]["parameters"]}
    assert set(params) == {"status", "limit"}
    # Merge: the table's row stays the base; the enrichment adds the description and `required`.
    assert params["status"]["x-source"] == "table"
    assert params["status"]["description"] == "Filter by order status"
    assert params["status"]["required"] is True
    assert (params["limit"]["x-source"], params["limit"]["schema"]["type"]) == ("prose", "integer")
    assert result.report.parameters["prose"] == 1
    assert any("customer_secret" in d for d in result.report.dropped)
    # Three worked examples precede the section, then the operation itself.
    messages = llm.calls[0]["messages"]
    assert len(messages) == 1 + 3 * 2 + 1
    assert messages[-1]["content"].startswith("GET /orders")


def test_an_llm_failure_costs_only_the_enrichment(tmp_path) -> None:
    page = tmp_path / "orders.html"
    page.write_text(PAGE, encoding="utf-8")

    def fail(messages):
        raise RuntimeError("model offline")

    result = crawl_pages([page], llm=ScriptedLLM(reply_fn=fail))
    assert "/orders" in result.document["paths"]
    assert "LLM enrichment failed" in result.report.warnings[0]


def test_tsv_parsing_and_example_choice() -> None:
    rows = parse_tsv(
        "id\tpath\tinteger\ttrue\tThe id\nname\tbody\tstring\nbad name\tquery\tstring\nx\tnowhere"
    )
    assert [(kind, row.name, row.location, row.type) for kind, row in rows] == [
        ("param", "id", "path", "integer"),
        ("body", "name", "body", "string"),
    ]
    assert pick_examples((2, 2, 1, 1), k=1)[0][0].startswith("List orders")
