"""Issue 17's twenty-sixth round: general gaps. A request line that closes an overview's last section (an h2
"Servers" over its URLs, then the operation's view: its line, a "Copy link" button, its title a shallower heading)
heads what follows, so the first operation of a page keeps its parameters and responses; a status run whose caption
runs long ("401 Bad or expired token. This can happen if …") labels the content after it; a field whose type is a
link to a schema the page draws as fields is an object; a button's label between a request line and its title heading
names no operation, and a form control's caption is no prose. Each on a small fragment of the structure (each fails
without its rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page_words import PageWords
from openapi_rag.crawl.row_schemas import schema_from_rows, with_references
from openapi_rag.crawl.tables import FieldRow


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, type_: str, about: str) -> str:
    return f"<div><div>{name}</div><div><div><span>{type_}</span></div><p>{about}</p></div></div>"


def _view(method: str, path: str, title: str, fields: str, status: str = "200 OK") -> str:
    """One operation's view: a header with the request line and a button, the title, a responses section."""
    return (
        f"<div><article><header><div><span>{method}</span><code>{path}</code><button>Copy link</button></div>"
        f"<h1>{title}</h1><p>What {title.lower()} does for the caller.</p></header>"
        f"<section><button>Responses</button><div><div><span>{status}</span></div>"
        f"<div><code>application/json</code><div><span>object</span>{fields}</div></div></div></section>"
        "</article></div>"
    )


_OVERVIEW = (
    "<div><header><h1>Pets API</h1><p>Version 1.0.0</p></header>"
    "<section><h2>Endpoint highlights</h2><button><span>GET</span><code>/pets</code></button>"
    "<button><span>GET</span><code>/owners</code></button></section>"
    "<section><h2>Servers</h2><div><code>https://api.example.com/v1</code></div><p>Production</p></section>"
    "<footer><p>Powered by a renderer</p></footer></div>"
)


def test_a_line_closing_the_overview_heads_the_first_operation(tmp_path: Path) -> None:
    html = (
        "<html><body>"
        + _OVERVIEW
        + _view("GET", "/pets", "List pets", _field("id", "integer", "The id.") + _field("name", "string", "Its name."))
        + _view("GET", "/owners", "List owners", _field("email", "string", "The owner's address."))
        + "</body></html>"
    )
    paths = _crawl(tmp_path, html)["paths"]
    first = paths["/pets"]["get"]
    schema = first["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"id", "name"}
    assert schema["properties"]["id"]["type"] == "integer"
    assert first["summary"] == "List pets"  # the button beside the line ("Copy link") names nothing
    second = paths["/owners"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(second["properties"]) == {"email"}


def test_a_form_control_caption_is_no_prose(tmp_path: Path) -> None:
    console = "<div><label>Custom server URL for this call <span>(optional override)</span><input value=''></label></div>"
    html = (
        "<html><body><h1>Pets</h1><h2>List pets</h2><pre><code>GET /pets</code></pre>"
        "<p>Returns every pet the caller may see, newest first.</p>" + console + "</body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert "Custom server URL" not in operation.get("description", "")
    assert "newest first" in operation.get("description", "")


def test_a_long_status_caption_labels_its_content(tmp_path: Path) -> None:
    """"204 Playback started" (no content), then "401 Bad or expired token. …" over the error's fields: those are
    the 401's, not the 204's."""
    caption = (
        "401 Bad or expired token. This can happen if the user revoked a token or the access token has expired."
    )
    html = (
        "<html><body><h1>Player</h1><h2>Pause playback</h2><pre><code>PUT /me/player/pause</code></pre>"
        "<h3>Responses</h3><div><p>204 Playback started</p></div>"
        f"<div><p>{caption}</p></div><div><p>application/json</p></div>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>message</td><td>string</td><td>A short description of the cause of the error.</td></tr>"
        "<tr><td>status</td><td>integer</td><td>The HTTP status code.</td></tr>"
        "</tbody></table></body></html>"
    )
    responses = _crawl(tmp_path, html)["paths"]["/me/player/pause"]["put"]["responses"]
    assert "content" not in responses.get("204", {})
    schema = responses["401"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"message", "status"}


def test_a_field_linked_to_a_drawn_schema_is_an_object() -> None:
    """A field whose type is only a link to a schema the page draws as fields ("ExternalUrlObject"), on the way
    down already (a cycle) or past the levels followed: an object, never the default string."""
    named = {"Node": [FieldRow("id", type="string"), FieldRow("parent", ref="Node")]}
    rows = with_references([FieldRow("node", ref="Node")], named)
    assert [(r.name, r.depth, r.type) for r in rows] == [
        ("node", 0, "object"),
        ("id", 1, "string"),
        ("parent", 1, "object"),  # the cycle is not entered again, but it is still an object
    ]
    schema = schema_from_rows(rows, PageWords("node id parent"), [])
    assert schema["properties"]["node"]["properties"]["parent"]["type"] == "object"
