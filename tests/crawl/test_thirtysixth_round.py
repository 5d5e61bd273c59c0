"""Issue 17's thirty-sixth round: general rules written on the development set (benchmarks/crawl/dev), never on the
benchmark's 38 specs nor the held-out eleven: a field drawn with an empty type cell among typed fields, named as a
documented schema but for its first letter's case, has that schema's fields; a declaration whose combined type
spans lines in parentheses ("value?: Partial(string) & Partial({" … "})[])") is one field; a reference ending in
brackets ("#/components/schemas/Address[]") is a list; a parameter drawn as one run of its name, its type and a
required mark ("body metadata_template (required)") is no prose, so its link names the body's schema; an error's
reason phrase alone ("Bad Request") labels that response, not the request. Each on a small fragment of the
structure (each fails without its rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.declarations import declaration_rows
from openapi_rag.crawl.labels import label_kind, label_status


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(f"<html><body><h1>Assets API</h1>{html}</body></html>", encoding="utf-8")
    return crawl_pages([page]).document


def _body_fields(document: dict, path: str) -> set[str]:
    body = document["paths"][path]["post"].get("requestBody") or {}
    return set(((body.get("content") or {}).get("application/json", {}).get("schema") or {}).get("properties") or {})


def _names(schema: dict, depth: int = 0) -> set[str]:
    """Property names at every level (an array's items' too), as the scorer counts them."""
    out: set[str] = set()
    while schema.get("type") == "array":
        schema = schema.get("items") or {}
    for name, child in (schema.get("properties") or {}).items():
        out.add(name)
        out |= _names(child, depth + 1)
    return out


def _table(*rows: tuple[str, str]) -> str:
    body = "".join(f"<tr><td>{name}</td><td>{type_}</td><td></td></tr>" for name, type_ in rows)
    return (
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def test_an_untyped_field_named_as_a_schema_has_its_fields(tmp_path: Path) -> None:
    # "bookDepreciationSetting | (no type)" among typed fields, the page's components documenting
    # "BookDepreciationSetting" under its own heading: the field is that schema
    page = (
        "<h2>POST /AssetTypes</h2><p>adds a fixed asset type</p><h3>Request Body</h3>"
        '<p><a href="#assettype">AssetType</a></p><h3>Responses</h3><h4>200</h4><p>created</p>'
        "<h2>GET /Settings</h2><p>searches settings</p><h3>Responses</h3><h4>200</h4><p>found</p>"
        "<h1>Components</h1>"
        f"<h2>AssetType</h2>{_table(('assetTypeName', 'string'), ('bookDepreciationSetting', ''), ('locks', 'integer'))}"
        f"<h2>BookDepreciationSetting</h2>{_table(('depreciationMethod', 'string'), ('depreciationRate', 'number'))}"
    )
    body = _crawl(tmp_path, page)["paths"]["/AssetTypes"]["post"]["requestBody"]["content"]["application/json"]
    assert _names(body["schema"]) == {
        "assetTypeName", "bookDepreciationSetting", "locks", "depreciationMethod", "depreciationRate",
    }  # fmt: skip


def test_rows_that_state_no_type_name_no_schema(tmp_path: Path) -> None:
    # A list whose rows state no type at all (the page's tags: "Employees | An employee …") names no section,
    # though a section of the page is headed "Employees"; nor does a row named exactly as a section
    from openapi_rag.crawl.row_schemas import with_references
    from openapi_rag.crawl.tables import FieldRow

    named = {"Employees": [FieldRow("apiKey", type="string")], "Team": [FieldRow("id", type="string")]}
    tags = [FieldRow("employees"), FieldRow("companies")]
    assert [row.name for row in with_references(tags, named)] == ["employees", "companies"]
    exact = [FieldRow("Team"), FieldRow("name", type="string")]
    assert [row.name for row in with_references(exact, named)] == ["Team", "name"]
    field = [FieldRow("team"), FieldRow("name", type="string")]
    assert [row.name for row in with_references(field, named)] == ["team", "id", "name"]


def test_a_combined_type_over_several_lines_is_one_field() -> None:
    block = "\n".join(
        [
            "{",
            "  custom_fields: {",
            "    id?: string",
            "    value?: Partial(string) & Partial(number) & Partial(boolean) & Partial({",
            "     }) & Partial(     undefined?: Partial(string) & Partial(number) & Partial({",
            "      })[])",
            "  }[]",
            "  social_links: {",
            "    url: string",
            "  }[]",
            "}",
        ]
    )
    rows = declaration_rows(block)
    assert rows is not None
    assert [row[0] for row in rows[1:]] == ["custom_fields", "» id", "» value", "social_links", "» url"]
    assert rows[3][1] == "string"  # the first type it combines


def test_a_reference_in_brackets_is_a_list() -> None:
    rows = declaration_rows("{\n  addresses:#/components/schemas/Address[]\n  gender:#/components/schemas/Gender\n}")
    assert rows is not None
    assert rows[1][1] == "array #/components/schemas/Address"
    assert rows[2][1] == "#/components/schemas/Gender"


def test_a_parameter_run_with_a_long_schema_name_names_the_body(tmp_path: Path) -> None:
    # "Request body", then "body metadata_template (required)" (the type a link to the model), longer than a short
    # run: a declaration, not prose; the link names the body's schema
    page = (
        "<div><pre><code><span>post</span> /metadata/add.json</code></pre></div>"
        "<div>(<span>metadataAddJsonPost</span>)</div><div>Add a new custom metadata field.</div>"
        '<h3>Request body</h3><div><div>body <a href="#metadata_template">metadata_template</a> (required)</div>'
        "<div><span>Body Parameter</span> — </div></div><h3>Responses</h3><h4>200</h4> OK"
        "<h2>Models</h2><div><h3><code>metadata_template</code></h3><div>"
        "<div>key (optional)</div><div><span>String</span></div>"
        "<div>view_template (optional)</div><div><span>String</span></div></div></div>"
    )
    body = _crawl(tmp_path, page)["paths"]["/metadata/add.json"]["post"]["requestBody"]
    assert set(body["content"]["application/json"]["schema"]["properties"]) == {"key", "view_template"}


def test_a_reason_phrase_labels_its_response() -> None:
    label = "multiline description | object | application/json | schema | example | bad request | returns the app"
    assert label_kind(label) == "response" and label_status(label) == "400"
    assert label_status("object | schema | payload too large") == "413"
    assert label_kind("request body | application/json") == "request"


def test_error_panels_captioned_by_their_reason_stay_off_the_request(tmp_path: Path) -> None:
    # "RESPONSE", the status tabs, then one panel per status: its caption ("Returns the app", "Bad request"), its
    # schema's table. The error panels' fields are no request body's
    def panel(caption: str, *fields: str) -> str:
        rows = "".join(f"<tr><td>{name}</td><td>string</td><td>optional</td><td></td></tr>" for name in fields)
        return (
            f"<div><p>{caption}</p></div><div><button>EXAMPLE</button><button>SCHEMA</button></div>"
            "<div>application/json</div><div>object</div><div>Multiline description</div>"
            "<table><thead><tr><th>name</th><th>type</th><th>required</th><th>description</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    page = (
        "<h2>Creates an app</h2><div>post /v1/apps</div><div>REQUEST</div>"
        "<div>REQUEST BODY * application/json</div><div>object</div><div>Multiline description</div>"
        "<table><thead><tr><th>name</th><th>type</th><th>required</th><th>description</th></tr></thead>"
        "<tbody><tr><td>friendly_name</td><td>string</td><td>optional</td><td></td></tr></tbody></table>"
        "<div>RESPONSE</div><div><button>201</button><button>400</button><button>401</button></div>"
        + panel("Returns the app", "sid", "friendly_name")
        + panel("Bad request", "code", "more_info")
        + panel("Unauthorized", "code", "more_info")
        + "<h2>Deletes an app</h2><div>delete /v1/apps/{sid}</div><div>RESPONSE</div><div>204</div>"
    )
    created = _crawl(tmp_path, page)["paths"]["/v1/apps"]["post"]
    assert set(created["requestBody"]["content"]["application/json"]["schema"]["properties"]) == {"friendly_name"}


def test_an_error_panel_s_next_part_is_that_error_s(tmp_path: Path) -> None:
    # No strip of tabs near ("RESPONSE", "201" alone): the success's panel, "Bad request"'s, then panels whose
    # captions say no status ("The specified resource was not found", "Unprocessable"): the fields that follow an
    # error's with nothing between them saying whose are that error's, not the success's
    def panel(caption: str, *fields: str) -> str:
        rows = "".join(f"<tr><td>{name}</td><td>string</td><td>optional</td><td></td></tr>" for name in fields)
        return (
            f"<div><p>{caption}</p></div><div><button>EXAMPLE</button><button>SCHEMA</button></div>"
            "<div>application/json</div><div>object</div><div>Multiline description</div>"
            "<table><thead><tr><th>name</th><th>type</th><th>required</th><th>description</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    page = (
        "<h2>Lists apps</h2><div>get /v1/apps</div><div>RESPONSE</div><div>201</div>"
        + panel("Returns the apps", "sid", "friendly_name")
        + panel("Bad request", "code", "more_info")
        + panel("The specified resource was not found", "code", "detail")
        + panel("Unprocessable", "code", "type_name")
        + panel("Unexpected error", "code", "downstream_errors")
        + "<h2>Deletes an app</h2><div>delete /v1/apps/{sid}</div><div>RESPONSE</div><div>204</div>"
    )
    responses = _crawl(tmp_path, page)["paths"]["/v1/apps"]["get"]["responses"]
    successes = {code: r for code, r in responses.items() if code.startswith("2") and "content" in r}
    assert {code: set(r["content"]["application/json"]["schema"]["properties"]) for code, r in successes.items()} == {
        "201": {"sid", "friendly_name"}
    }  # no success (a "200" made up) holds the errors' fields


def test_a_dotted_schema_name_under_a_media_type_names_the_body(tmp_path: Path) -> None:
    # The operation's heading, its media type alone ("application/json"), then a namespaced schema's name alone (a
    # link) before any response: the body's schema, as under a "Request Body" label
    page = (
        "<h3>POST /v1/apps</h3><p>Creates an app.</p><p>application/json</p>"
        '<p><a href="#/definitions/iam.v1.account.AppCreateRequest">iam.v1.account.AppCreateRequest</a></p>'
        "<h4>201 Created</h4><p>Returns the app</p>"
        "<h3>DELETE /v1/apps/{sid}</h3><p>Deletes an app.</p><h4>204 No Content</h4><p>Deleted</p>"
        "<h2>Definitions</h2><h3>iam.v1.account.AppCreateRequest</h3>"
        + _table(("friendly_name", "string"), ("owner_sid", "string"))
    )
    body = _crawl(tmp_path, page)["paths"]["/v1/apps"]["post"]["requestBody"]["content"]["application/json"]
    assert set(body["schema"]["properties"]) == {"friendly_name", "owner_sid"}


def test_a_table_of_header_names_is_no_response_body(tmp_path: Path) -> None:
    # A response's fields, then a table with no label whose names are all HTTP headers': the response's headers
    page = (
        "<h3>GET /v1/keys</h3><p>Lists keys.</p><h4>200 OK</h4><p>OK</p>"
        f"{_table(('sid', 'string'), ('friendly_name', 'string'))}"
        "<table><tbody><tr><td>Access-Control-Allow-Origin</td><td>The origins allowed</td><td>string</td></tr>"
        "<tr><td>Access-Control-Allow-Methods</td><td>The methods allowed</td><td>string</td></tr></tbody></table>"
        "<h3>DELETE /v1/keys/{sid}</h3><p>Deletes a key.</p><h4>204 No Content</h4><p>Deleted</p>"
    )
    schema = _crawl(tmp_path, page)["paths"]["/v1/keys"]["get"]["responses"]["200"]["content"]["application/json"]
    assert set(schema["schema"]["properties"]) == {"sid", "friendly_name"}


def test_a_scheme_heading_s_name_after_the_responses_is_no_field(tmp_path: Path) -> None:
    # "Security", a heading per scheme with its "Type: basic" run; each operation's requirement drawn after its
    # responses as a table of the scheme's name alone: no field of the response
    page = (
        "<h2>Security</h2><h3>accountSid_authToken</h3><p>Type: basic</p><h2>Paths</h2>"
        "<h3>GET /v1/keys</h3><p>Lists keys.</p><h4>200 OK</h4><p>OK</p>"
        f"{_table(('sid', 'string'), ('friendly_name', 'string'))}"
        '<table><tbody><tr><td><a href="#security-accountSid_authToken">accountSid_authToken</a></td><td></td></tr>'
        "</tbody></table>"
        "<h3>DELETE /v1/keys/{sid}</h3><p>Deletes a key.</p><h4>204 No Content</h4><p>Deleted</p>"
    )
    schema = _crawl(tmp_path, page)["paths"]["/v1/keys"]["get"]["responses"]["200"]["content"]["application/json"]
    assert set(schema["schema"]["properties"]) == {"sid", "friendly_name"}


def test_a_query_parameter_drawn_as_its_keys_is_one_object(tmp_path: Path) -> None:
    # "filter[city]", "filter[email]", "sort[by]" (OpenAPI's deepObject style, a row per key): the parameters
    # "filter" and "sort", objects
    rows = "".join(
        f"<tr><td>{name}</td><td>query</td><td>string</td><td></td></tr>"
        for name in ("limit", "filter[city]", "filter[email]", "sort[by]")
    )
    page = (
        "<h3>GET /employees</h3><p>Lists employees.</p>"
        "<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead>"
        f"<tbody>{rows}</tbody></table><h4>200 OK</h4><p>OK</p>"
        "<h3>DELETE /employees/{id}</h3><p>Deletes one.</p><h4>204 No Content</h4><p>Deleted</p>"
    )
    listed = _crawl(tmp_path, page)["paths"]["/employees"]["get"]["parameters"]
    assert [(p["name"], p["in"], p["schema"]["type"]) for p in listed] == [
        ("limit", "query", "string"), ("filter", "query", "object"), ("sort", "query", "object"),
    ]  # fmt: skip


def test_an_example_call_in_a_code_block_is_no_template(tmp_path: Path) -> None:
    # The introduction's example calls ("/emailed/1.json" alone in a code block) fill in the template an operation's
    # request line documents ("get /emailed/{period}.json"): the operation's sample URL keeps its template
    page = (
        "<p>Get most emailed articles for the last day:</p><pre><code>/emailed/1.json</code></pre>"
        "<p>get /emailed/{period}.json</p><p>get /viewed/{period}.json</p>"
        "<h3>Most emailed articles.</h3><h4>Path Parameters</h4>"
        "<table><thead><tr><th>Name</th><th>In</th><th>Type</th></tr></thead>"
        "<tbody><tr><td>period</td><td>path</td><td>integer</td></tr></tbody></table>"
        "<p>Request Example for get /emailed/ {period} .json</p>"
        "<pre><code>curl 'https://api.example.com/svc/v2/emailed/1.json'</code></pre>"
        '<p>Status: 200</p><pre><code>{"status": "OK", "num_results": 1}</code></pre>'
        "<h3>Most viewed articles.</h3><p>Request Example for get /viewed/ {period} .json</p>"
        "<pre><code>curl 'https://api.example.com/svc/v2/viewed/1.json'</code></pre>"
    )
    paths = _crawl(tmp_path, page)["paths"]
    assert "/emailed/1.json" not in paths and "/emailed/{period}.json" in paths


def _asciidoc_operation(number: str, name: str, line: str, body: str, datatype: str) -> str:
    return (
        f"<h4>2.1.{number}. {name}</h4><p>{line}</p><h5>Parameters</h5>{body}<h5>Responses</h5>"
        "<table><thead><tr><th>Code</th><th>Message</th><th>Datatype</th></tr></thead>"
        f"<tbody><tr><td>200</td><td>OK</td><td>{datatype}</td></tr></tbody></table>"
    )


_MODELS = (
    "<h2>3. Models</h2><h3>3.1. Asset</h3><table><thead><tr><th>Field Name</th><th>Required</th><th>Type</th>"
    "</tr></thead><tbody><tr><td>assetId</td><td></td><td>UUID</td></tr><tr><td>assetName</td><td>X</td>"
    "<td>String</td></tr></tbody></table>"
)


def test_a_heading_over_operations_heads_no_schema(tmp_path: Path) -> None:
    # A tag's section "2.1. Asset" over its operations (the first one's body parameter table right under it) and the
    # models' "3.1. Asset": the schema "Asset" is the model's fields, not the body parameter's row
    body = (
        "<h6>Body Parameter</h6><table><thead><tr><th>Name</th><th>Description</th><th>Required</th></tr></thead>"
        "<tbody><tr><td>Asset</td><td>Fixed asset you are creating Asset</td><td>X</td></tr></tbody></table>"
    )
    page = (
        "<h2>2. Endpoints</h2><h3>2.1. Asset</h3>"
        + _asciidoc_operation("1", "createAsset", "POST /Assets", body, "Asset")
        + _asciidoc_operation("2", "getAssetById", "GET /Assets/{id}", "", "Asset")
        + _MODELS
    )
    document = _crawl(tmp_path, page)
    assert _body_fields(document, "/Assets") == {"assetId", "assetName"}
    got = document["paths"]["/Assets/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(got["properties"]) == {"assetId", "assetName"}


def test_a_schema_name_whose_underscores_became_spaces_names_its_section(tmp_path: Path) -> None:
    # "[_viewed period json_get_200_response]" in a status table's Datatype column (a markup took the generated
    # name's underscores for emphasis): the section "ViewedPeriodJsonGet200Response"
    page = (
        "<h2>2. Endpoints</h2>"
        + _asciidoc_operation(
            "1", "viewedPeriodJsonGet", "GET /viewed/{period}.json", "", "[_viewed period json_get_200_response]"
        )
        + _asciidoc_operation("2", "emailedPeriodJsonGet", "GET /emailed/{period}.json", "", "")
        + "<h2>3. Models</h2><h3>3.1. ViewedPeriodJsonGet200Response</h3><table><thead><tr><th>Field Name</th>"
        "<th>Required</th><th>Type</th></tr></thead><tbody><tr><td>status</td><td></td><td>String</td></tr>"
        "<tr><td>num_results</td><td></td><td>Integer</td></tr></tbody></table>"
    )
    got = _crawl(tmp_path, page)["paths"]["/viewed/{period}.json"]["get"]["responses"]["200"]
    assert set(got["content"]["application/json"]["schema"]["properties"]) == {"status", "num_results"}


def test_a_body_parameter_s_one_untyped_row_is_the_body_itself(tmp_path: Path) -> None:
    # "Body parameters": one row "menu *" with no type (its schema left for a script to draw), the request sample
    # showing the body's fields: "menu" names the body, it is no field of it
    page = (
        '<h1>menusPost</h1><pre><code>curl -X POST "https://api.example.com/v1/menus" -d \'{"name": "Lunch", '
        '"available": true}\'</code></pre><div>Body parameters</div><table><tr><th>Name</th><th>Description</th>'
        "</tr><tr><td>menu <span>*</span></td><td><p></p><div></div></td></tr></table><h2>Responses</h2>"
        "<h3>201</h3><p>Created</p>"
        '<h1>menusGet</h1><pre><code>curl -X GET "https://api.example.com/v1/menus"</code></pre>'
    )
    assert _body_fields(_crawl(tmp_path, page), "/v1/menus") == {"name", "available"}


def test_rows_spilled_on_one_line_after_a_list_are_the_table_s(tmp_path: Path) -> None:
    # A Markdown table closed by a cell's line break: the cell's rest comes as paragraphs and a list, then the later
    # rows on one line, each closed by a pipe and the next opened by one ("… | | limit | query | integer | | No | … |")
    page = (
        "<h3>GET /companies</h3><p>List Companies</p><p><strong>Input parameters</strong></p><table><thead><tr>"
        "<th>Parameter</th><th>In</th><th>Type</th><th>Default</th><th>Nullable</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>apiKey</td><td>header</td><td>string</td><td>N/A</td><td>No</td><td>Your API key.</td></tr>"
        "</tbody></table><p>Authenticate your requests with it.</p><ul><li>Bearer authorization header</li></ul>"
        "<p>Keep it secret. | | cursor | query | string | | Yes | Cursor to start from. | | limit | query | integer | 20 "
        "| No | Number of results to return. |</p><h3>Response 200 OK</h3><p>The companies</p>"
        "<h3>DELETE /companies/{id}</h3><p>Delete Company</p><h3>Response 200 OK</h3><p>Deleted</p>"
    )
    listed = _crawl(tmp_path, page)["paths"]["/companies"]["get"]["parameters"]
    assert {(p["name"], p["in"]) for p in listed} >= {("cursor", "query"), ("limit", "query")}


def test_a_reason_phrase_ended_as_a_sentence_names_its_status() -> None:
    # A panel's caption ends the phrase with a full stop ("Bad Request.", "Unauthorized.")
    label = "multiline description | object | application/json | schema | example | bad request. | created."
    assert label_kind(label) == "response" and label_status(label) == "400"
    assert label_status("object | unauthorized. | multiline description") == "401"


_PET_MODELS = (
    "<h2>Models</h2><h3>NewPet</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>"
    "<tbody><tr><td>name</td><td>String</td><td></td></tr><tr><td>tag</td><td>String</td><td></td></tr></tbody></table>"
)


def test_the_one_row_typed_by_a_schema_is_the_body(tmp_path: Path) -> None:
    # "pet | NewPet (a link to the model) | Pet to add to the store", no place stated, the operation's only such row:
    # the body (a Swagger 2 body parameter by any name), not a parameter "pet"
    page = (
        "<h1><strong>addPet</strong></h1><p><strong>POST</strong> /pets</p><h3>Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead><tbody>"
        '<tr><td><strong>pet</strong></td><td><a href="#NewPet"><strong>NewPet</strong></a></td>'
        "<td>Pet to add to the store</td><td></td></tr></tbody></table><h3>Return type</h3><p>null</p>"
        + _PET_MODELS
    )
    document = _crawl(tmp_path, page)
    assert _body_fields(document, "/pets") == {"name", "tag"}
    assert not document["paths"]["/pets"]["post"].get("parameters")


def test_a_body_row_described_by_a_schema_s_name_is_that_schema(tmp_path: Path) -> None:
    # "Body Parameter": "pet | Pet to add to the store NewPet | X", the schema's name (a link) ending the description
    page = (
        "<h4>1.1.1. addPet</h4><p>POST /pets</p><h5>Parameters</h5><h6>Body Parameter</h6>"
        "<table><thead><tr><th>Name</th><th>Description</th><th>Required</th></tr></thead><tbody><tr><td>pet</td>"
        '<td><p>Pet to add to the store <a href="#NewPet"><em>NewPet</em></a></p></td><td>X</td></tr></tbody></table>'
        "<h5>Responses</h5><table><thead><tr><th>Code</th><th>Message</th><th>Datatype</th></tr></thead>"
        "<tbody><tr><td>200</td><td>pet response</td><td></td></tr></tbody></table>"
        "<h4>1.1.2. deletePet</h4><p>DELETE /pets/{id}</p>" + _PET_MODELS
    )
    assert _body_fields(_crawl(tmp_path, page), "/pets") == {"name", "tag"}
