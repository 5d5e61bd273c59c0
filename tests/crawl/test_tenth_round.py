"""Issue 17's tenth round: general rules after VitePress' first contact (vitepress-openapi: each field a
name with `*` for required, then its attributes as label/value runs, "Type" then "integer", "Format"
then '"int32"'; servers listed under a "Servers" heading, each URL with its description beside it),
each on a small fragment of the structure it draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.label_values import join_label_values
from openapi_rag.crawl.page import Block

from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _attribute(label: str, value: str) -> str:
    """One attribute as the theme draws it: the label and the value in spans of their own."""
    return f"<div><span>{label}</span><div><div><span>{value}</span></div></div></div>"


def _field(name: str, *attributes: tuple[str, str], required: bool = False, description: str = "") -> str:
    star = "<span>*</span>" if required else ""
    about = f"<div><p>{description}</p></div>" if description else ""
    shown = "".join(_attribute(label, value) for label, value in attributes)
    mark = "<span>Required</span>" if required else ""
    return f"<div><div><div><span>{name}</span>{star}</div></div>{about}<div>{shown}{mark}</div></div>"


def _operation(method: str, path: str, body: str, servers: str = "") -> str:
    return (
        f"<html><body><main><h1>Pet store</h1>{servers}<hr><div><h1>Call {path}</h1>"
        f"<div><div>{method}</div><div><span><span>{path}</span></span></div></div>"
        f"<p>Does what {path} does.</p>{body}<h2>Responses</h2><div><button>200</button></div>"
        "<div><p>OK</p></div></div></main></body></html>"
    )


def test_label_value_runs_give_a_fields_type_format_and_required(tmp_path: Path) -> None:
    body = (
        "<h2>Parameters</h2><div><h3>Header Parameters</h3>"
        + _field("Authorization", ("Type", "string"), required=True)
        + "</div><div><h3>Query Parameters</h3>"
        + _field("text", ("Type", "string"), required=True)
        + _field("latitude", ("Type", "number"), ("Format", '"double"'), required=True)
        + _field("limit", ("Type", "integer"), ("Default", "20"), ("Maximum", "50"))
        + "</div>"
    )
    operation = _crawl(tmp_path, _operation("GET", "/autocomplete", body))["paths"]["/autocomplete"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert set(params) == {"Authorization", "text", "latitude", "limit"}  # no field named "Type"
    assert params["Authorization"]["in"] == "header" and params["text"]["in"] == "query"
    assert params["latitude"]["schema"]["type"] == "number" and params["latitude"]["required"] is True
    assert params["limit"]["schema"]["type"] == "integer" and not params["limit"].get("required")


def test_a_label_run_joins_only_a_value_not_a_column_label_or_a_field() -> None:
    runs = ["Name", "Type", "Description", "Type", "integer", "Type", "limit *", "Default", "Required", "Type", "A sentence."]
    joined = [b.text for b in join_label_values([Block("text", text=t) for t in runs])]
    assert joined == ["Name", "Type", "Description", "Type: integer", "Type", "limit *", "Default", "Required",
                      "Type", "A sentence."]  # fmt: skip


def test_a_described_field_right_under_a_heading_is_one_when_its_type_is_said_as_such(tmp_path: Path) -> None:
    # "page", its description, then "Type: integer" (a label's): the field's even right under the
    # "Query Parameters" heading, where a name then prose then a bare type word may be a caption.
    body = (
        "<h2>Parameters</h2><div><h3>Query Parameters</h3>"
        "<div><span>page</span></div><div><p>Specify which page to query.</p></div>"
        "<div><span>Type: integer</span></div><div><span>Default: 1</span></div></div>"
    )
    operation = _crawl(tmp_path, _operation("GET", "/movie/{id}/reviews", body))["paths"]["/movie/{id}/reviews"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert params["page"]["in"] == "query" and params["page"]["schema"]["type"] == "integer"


def test_a_server_listed_under_a_servers_heading_with_its_description(tmp_path: Path) -> None:
    servers = "<h2>Servers</h2><div><span>https://api.example.com/v1</span> <span>Production server</span></div>"
    doc = _crawl(tmp_path, _operation("GET", "/pets", "", servers))
    assert doc["servers"][0]["url"] == "https://api.example.com/v1"
    varied = "<h2>Servers</h2><div><span>{scheme}://developer.example.gov/ds-api</span></div>"
    doc = _crawl(tmp_path, _operation("GET", "/pets", "", varied))
    assert doc["servers"][0]["url"] == "https://developer.example.gov/ds-api"


def test_the_real_vitepress_pages_give_fields_and_servers() -> None:
    page = BENCH / "pages" / "vitepress" / "realworld-yelp-com-v3-swagger.html"
    doc = crawl_pages([page]).document
    assert doc["servers"][0]["url"] == "https://api.yelp.com/v3"
    params = {p["name"]: p for p in doc["paths"]["/businesses/search"]["get"]["parameters"]}
    assert params["term"]["in"] == "query" and params["latitude"]["schema"]["type"] == "number"
    assert "Type" not in params
