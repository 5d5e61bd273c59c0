"""Single features of the Postman converter, on collections built inside each test."""

from __future__ import annotations

import pytest

from openapi_rag.convert import is_postman_collection, postman_to_openapi
from openapi_rag.errors import ConvertError

SCHEMA_V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
STRING = {"type": "string"}


def request(name, url, method="GET", **extra):
    return {"name": name, "request": {"method": method, "url": url, **extra}, "response": []}


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ({"info": {"name": "x", "schema": SCHEMA_V21}, "item": []}, True),
        ({"info": {"_postman_id": "1", "name": "x"}}, True),
        ({"info": {"name": "x"}, "item": []}, True),
        ({"id": "1", "name": "old", "requests": [], "order": []}, True),  # v1, to explain the refusal
        ({"openapi": "3.0.3", "info": {"title": "x"}, "item": []}, False),
        ({"swagger": "2.0", "info": {"title": "x"}}, False),
        ({"info": {"title": "x"}}, False),
        ([], False),
    ],
)
def test_is_postman_collection(doc, expected):
    assert is_postman_collection(doc) is expected


@pytest.mark.parametrize(
    ("collection", "message"),
    [
        ({"id": "1", "name": "old", "requests": []}, "Postman Collection v1 is not supported"),
        (
            {"info": {"schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}},
            "Postman Collection v1 is not supported",
        ),
        ({"info": {"name": "x"}}, "it needs an `info` object and an `item` list"),
        ([1, 2], "a Postman collection is a JSON object, got list"),
    ],
)
def test_not_a_v2_collection(collection, message):
    with pytest.raises(ConvertError, match=message):
        postman_to_openapi(collection, source="c.json")


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([{"name": "Users", "item": ["oops"]}], "c.json: Users: item #1 must be an object, got str"),
        (
            [{"name": "Users", "item": [{"name": "Get user", "request": {"url": 5}}]}],
            "c.json: Users > Get user: request url must be a string or an object, got int",
        ),
        (
            [{"name": "Users", "item": [{"name": "Empty"}]}],
            "c.json: Users > Empty: an item needs `request` (a request) or `item` (a folder)",
        ),
        ([{"name": "No URL", "request": {"method": "GET"}}], "c.json: No URL: request has no `url`"),
        (
            [request("Bad body", "/x", "POST", body="text")],
            "c.json: Bad body: request body must be an object, got str",
        ),
        (
            [{"name": "A", "request": "/a", "response": {"code": 200}}],
            "c.json: A: `response` must be a list, got dict",
        ),
        ([{"name": "Folder", "item": {}}], "c.json: Folder: `item` must be a list, got dict"),
    ],
)
def test_malformed_items_name_the_item_path(items, message):
    collection = {"info": {"name": "T", "schema": SCHEMA_V21}, "item": items}
    with pytest.raises(ConvertError) as caught:
        postman_to_openapi(collection, source="c.json")
    assert str(caught.value) == message
    assert caught.value.file == "c.json"
    assert message == f"c.json: {caught.value.where}: {caught.value.reason}"


def test_minimal_collection_without_problems_list():
    doc = postman_to_openapi({"info": {}, "item": [{"name": "Ping", "request": "https://x.io/ping"}]})
    assert doc == {
        "openapi": "3.0.3",
        "info": {"title": "Postman collection", "version": "1.0.0"},
        "servers": [{"url": "https://x.io"}],
        "paths": {
            "/ping": {
                "get": {
                    "summary": "Ping",
                    "operationId": "ping",
                    "responses": {"default": {"description": "No saved example response in the collection"}},
                }
            }
        },
    }


@pytest.mark.parametrize(
    ("url", "variables", "server", "path"),
    [
        ("{{baseUrl}}/a", [], {"url": "{baseUrl}"}, "/a"),
        (
            "{{baseUrl}}/a",
            [{"key": "baseUrl", "value": "{{scheme}}://{{h}}"}, {"key": "h", "value": "h.io"}],
            {"url": "{scheme}://h.io"},
            "/a",
        ),
        ("https://{{region}}.example.com/a", [], {"url": "https://{region}.example.com"}, "/a"),
        ("{{host}}/a", [{"id": "host", "value": "api.example.com"}], {"url": "http://api.example.com"}, "/a"),
        ("http://user:pw@x.io:8080/a//b/", [], {"url": "http://x.io:8080"}, "/a/b"),
        ("/relative/path", [], None, "/relative/path"),
        ("{{baseUrl}}", [{"key": "baseUrl", "value": "https://x.io/v2"}], {"url": "https://x.io/v2"}, "/"),
    ],
)
def test_servers_from_url_bases(convert_items, url, variables, server, path):
    doc, _ = convert_items([request("R", url)], variable=variables)
    assert list(doc["paths"]) == [path]
    if server is None:
        assert "servers" not in doc
    else:
        assert {k: v for k, v in doc["servers"][0].items() if k != "variables"} == server


def test_undefined_server_variables_get_defaults(convert_items):
    doc, _ = convert_items([request("R", "{{scheme}}://{{region}}.example.com/a")])
    assert doc["servers"] == [
        {
            "url": "{scheme}://{region}.example.com",
            "variables": {
                "scheme": {
                    "default": "https",
                    "description": "Postman variable {{scheme}}, not defined in the collection",
                },
                "region": {
                    "default": "region",
                    "description": "Postman variable {{region}}, not defined in the collection",
                },
            },
        }
    ]


def test_url_variable_types_and_partial_segments(convert_items):
    url = {
        "raw": "https://x.io/users/:userId/files/{{name}}.json",
        "protocol": "https",
        "host": "x.io",
        "path": "/users/:userId/files/{{name}}.json",
        "variable": [
            {"key": "userId", "value": 7, "type": "number", "description": {"content": "User id"}},
            {"key": "name", "value": "{{default}}"},
        ],
    }
    doc, _ = convert_items([request("R", url)])
    assert doc["paths"]["/users/{userId}/files/{name}.json"]["get"]["parameters"] == [
        {
            "name": "userId",
            "in": "path",
            "required": True,
            "description": "User id",
            "schema": {"type": "number"},
            "example": "7",
        },
        {"name": "name", "in": "path", "required": True, "schema": STRING},
    ]


def test_query_without_name_and_header_rules(convert_items):
    headers = [
        {"key": "Content-Type", "value": "application/json"},
        {"key": "authorization", "value": "Bearer x"},
        {"key": "X-Token", "value": "{{token}}"},
        {"key": None, "value": "ignored"},
    ]
    doc, _ = convert_items([request("R", "https://x.io/a?flag&x=1&=2", header=headers)])
    params = doc["paths"]["/a"]["get"]["parameters"]
    # `flag` has no value, so no example; `=2` and the key-less header have no name and are dropped;
    # a `{{variable}}` value is no example either.
    assert [(p["name"], p["in"], p.get("example")) for p in params] == [
        ("flag", "query", None),
        ("x", "query", "1"),
        ("X-Token", "header", None),
    ]


def test_bodies_that_are_absent(convert_items):
    items = [
        request("Empty raw", "/a", "POST", body={"mode": "raw", "raw": "  "}),
        request("Disabled", "/b", "POST", body={"mode": "raw", "raw": "{}", "disabled": True}),
        request("No fields", "/c", "POST", body={"mode": "urlencoded", "urlencoded": []}),
        request("No query", "/d", "POST", body={"mode": "graphql", "graphql": {"query": ""}}),
        request("No mode", "/e", "POST", body={}),
    ]
    doc, problems = convert_items(items)
    assert all("requestBody" not in item["post"] for item in doc["paths"].values())
    assert problems == []


def test_raw_body_media_type_rules(convert_items):
    items = [
        # Content-Type with a variable is ignored: the raw language decides.
        request(
            "Var type",
            "/a",
            "POST",
            header=[{"key": "Content-Type", "value": "{{ct}}"}],
            body={"mode": "raw", "raw": "<a/>", "options": {"raw": {"language": "html"}}},
        ),
        # Neither header nor language: JSON is sniffed, anything else is text.
        request("Sniff json", "/b", "POST", body={"mode": "raw", "raw": '[{"a": 1.5}]'}),
        request("Sniff text", "/c", "POST", body={"mode": "raw", "raw": "hello"}),
        # The header wins over the language.
        request(
            "Vendor json",
            "/d",
            "POST",
            header=[{"key": "content-type", "value": "application/vnd.api+json"}],
            body={"mode": "raw", "raw": '{"data": []}', "options": {"raw": {"language": "text"}}},
        ),
        request("Unknown mode", "/e", "POST", body={"mode": "telepathy"}),
    ]
    doc, problems = convert_items(items)
    content = {
        path: item["post"].get("requestBody", {}).get("content") for path, item in doc["paths"].items()
    }
    assert content == {
        "/a": {"text/html": {"schema": STRING, "example": "<a/>"}},
        "/b": {
            "application/json": {
                "schema": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"a": {"type": "number"}}},
                },
                "example": [{"a": 1.5}],
            }
        },
        "/c": {"text/plain": {"schema": STRING, "example": "hello"}},
        "/d": {
            "application/vnd.api+json": {
                "schema": {"type": "object", "properties": {"data": {"type": "array", "items": {}}}},
                "example": {"data": []},
            }
        },
        "/e": None,
    }
    assert [(p.where, p.message) for p in problems] == [
        ("Unknown mode", "request body mode 'telepathy' is not supported; body left out")
    ]


def test_urlencoded_repeated_fields_and_graphql_variables_object(convert_items):
    fields = [{"key": "id", "value": "1"}, {"key": "id", "value": "2"}]
    graphql = {"query": "{ me { id } }", "variables": {"a": 1}}
    doc, _ = convert_items(
        [
            request("Form", "/f", "POST", body={"mode": "urlencoded", "urlencoded": fields}),
            request("Gql", "/g", "POST", body={"mode": "graphql", "graphql": graphql}),
        ]
    )
    form = doc["paths"]["/f"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
    assert form == {
        "schema": {"type": "object", "properties": {"id": {"type": "array", "items": STRING}}},
        "example": {"id": ["1", "2"]},
    }
    gql = doc["paths"]["/g"]["post"]["requestBody"]["content"]["application/json"]
    assert gql["example"] == {"query": "{ me { id } }", "variables": {"a": 1}}


@pytest.mark.parametrize(
    ("auth", "scheme_name", "scheme", "scopes"),
    [
        ({"type": "digest", "digest": []}, "digestAuth", {"type": "http", "scheme": "digest"}, []),
        ({"type": "jwt"}, "jwtAuth", {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}, []),
        (
            {"type": "apikey", "apikey": [{"key": "value", "value": "secret"}]},
            "apiKeyAuth",
            {"type": "apiKey", "name": "X-API-Key", "in": "header"},
            [],
        ),
        (
            # v2.0 style: a plain object, `grantType`.
            {
                "type": "oauth2",
                "oauth2": {"grantType": "client_credentials", "accessTokenUrl": "https://a.io/t"},
            },
            "oauth2",
            {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://a.io/t", "scopes": {}}}},
            [],
        ),
        (
            {
                "type": "oauth2",
                "oauth2": [
                    {"key": "grant_type", "value": "password_credentials"},
                    {"key": "accessTokenUrl", "value": "https://a.io/t"},
                    {"key": "refreshTokenUrl", "value": "https://a.io/r"},
                    {"key": "scope", "value": "a,b"},
                ],
            },
            "oauth2",
            {
                "type": "oauth2",
                "flows": {
                    "password": {
                        "tokenUrl": "https://a.io/t",
                        "refreshUrl": "https://a.io/r",
                        "scopes": {"a": "", "b": ""},
                    }
                },
            },
            ["a", "b"],
        ),
        (
            # No grant type: the URLs decide (only an authorization URL → implicit).
            {"type": "oauth2", "oauth2": [{"key": "authUrl", "value": "https://a.io/auth"}]},
            "oauth2",
            {
                "type": "oauth2",
                "flows": {"implicit": {"authorizationUrl": "https://a.io/auth", "scopes": {}}},
            },
            [],
        ),
    ],
)
def test_auth_types(convert_items, auth, scheme_name, scheme, scopes):
    doc, problems = convert_items([request("R", "/r", auth=auth)])
    assert doc["components"]["securitySchemes"] == {scheme_name: scheme}
    assert doc["paths"]["/r"]["get"]["security"] == [{scheme_name: scopes}]
    assert "security" not in doc
    assert problems == []


def test_oauth2_with_undefined_url_variable_is_reported(convert_items):
    auth = {"type": "oauth2", "oauth2": [{"key": "accessTokenUrl", "value": "{{idp}}/token"}]}
    doc, problems = convert_items([request("R", "/r")], auth=auth)
    assert doc["components"]["securitySchemes"]["oauth2"]["flows"] == {
        "clientCredentials": {"tokenUrl": "{{idp}}/token", "scopes": {}}
    }
    assert [p.message for p in problems] == [
        "oauth2 URL '{{idp}}/token' uses a variable the collection does not define"
    ]
    assert problems[0].where == "collection auth"


def test_distinct_schemes_of_one_kind_get_distinct_names(convert_items):
    def key_auth(name):
        return {"type": "apikey", "apikey": [{"key": "key", "value": name}]}

    doc, _ = convert_items(
        [request("A", "/a", auth=key_auth("X-A")), request("B", "/b", auth=key_auth("X-B"))]
    )
    assert doc["components"]["securitySchemes"] == {
        "apiKeyAuth": {"type": "apiKey", "name": "X-A", "in": "header"},
        "apiKeyAuth2": {"type": "apiKey", "name": "X-B", "in": "header"},
    }
    assert doc["paths"]["/b"]["get"]["security"] == [{"apiKeyAuth2": []}]


def test_merged_operation_with_and_without_auth(convert_items):
    bearer = {"type": "bearer", "bearer": [{"key": "token", "value": "t"}]}
    items = [
        request(
            "Get me", "/me", description="Signed in.", header=[{"key": "X-A", "value": "1", "disabled": True}]
        ),
        request("Get me anonymously", "/me", auth={"type": "noauth"}, header=[{"key": "X-A", "value": "2"}]),
    ]
    doc, _ = convert_items(items, auth=bearer)
    op = doc["paths"]["/me"]["get"]
    assert op["security"] == [{"bearerAuth": []}, {}]  # `{}`: auth is optional
    assert op["description"] == "Signed in.\n\nGet me anonymously"
    # Enabled in one request: not flagged as disabled; example from the enabled one.
    assert op["parameters"] == [
        {"name": "X-A", "in": "header", "required": False, "schema": STRING, "example": "2"}
    ]


def test_folder_auth_inheritance_and_inherit_type(convert_items):
    basic = {"type": "basic", "basic": []}
    items = [
        {
            "name": "Outer",
            "auth": basic,
            "item": [
                {"name": "Inner", "auth": {"type": "inherit"}, "item": [request("Deep", "/deep")]},
                {"name": "Open", "auth": {"type": "noauth"}, "item": [request("Free", "/free")]},
            ],
        }
    ]
    doc, _ = convert_items(items)
    assert doc["paths"]["/deep"]["get"]["security"] == [{"basicAuth": []}]
    assert "security" not in doc["paths"]["/free"]["get"]  # no auth, like the collection: nothing to say
    assert [t["name"] for t in doc["tags"]] == ["Outer", "Outer > Inner", "Outer > Open"]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["Get user", "get-user", "Get user"], ["getUser", "getUser2", "getUser3"]),
        (["2FA verify"], ["op2faVerify"]),
        (["Получить пользователя"], ["получитьПользователя"]),
        (["***"], ["getUsersId"]),
        (["List users by ID"], ["listUsersByID"]),
    ],
)
def test_operation_ids(convert_items, names, expected):
    items = [request(name, f"/users/:id/{n}" if n else "/users/:id") for n, name in enumerate(names)]
    doc, _ = convert_items(items)
    ids = [op["operationId"] for item in doc["paths"].values() for op in item.values()]
    assert ids == expected


def test_responses_status_codes_and_same_example_twice(convert_items):
    body = '{"ok": true}'
    responses = [
        {"name": "Fine", "code": "200", "body": body},
        {"name": "Fine again", "code": 200, "body": body},
        {"name": "Teapot", "status": "I'm a Teapot", "body": "short and stout"},
        {
            "name": "Odd",
            "code": 999,
            "status": "Whatever",
            "header": [{"key": "Content-Type", "value": "text/csv"}],
            "body": "a,b",
        },
    ]
    item = {"name": "R", "request": {"method": "GET", "url": "/r"}, "response": responses}
    doc, _ = convert_items([item])
    assert doc["paths"]["/r"]["get"]["responses"] == {
        "200": {
            "description": "Fine; Fine again",
            "content": {
                "application/json": {
                    "schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                    "example": {"ok": True},  # identical examples are kept once
                }
            },
        },
        "418": {
            "description": "Teapot",
            "content": {"text/plain": {"schema": STRING, "example": "short and stout"}},
        },
        "default": {"description": "Odd", "content": {"text/csv": {"schema": STRING, "example": "a,b"}}},
    }


def test_unnamed_items_and_request_level_descriptions(convert_items):
    items = [
        {
            "item": [
                {
                    "request": {
                        "url": "/a",
                        "description": {"content": "From the request", "type": "text/plain"},
                    },
                    "description": "From the item",
                }
            ]
        },
    ]
    doc, _ = convert_items(items, info={"name": "T", "version": "", "description": {"content": "Top"}})
    assert doc["info"] == {"title": "T", "description": "Top", "version": "1.0.0"}
    assert doc["tags"] == [{"name": "#1"}]
    op = doc["paths"]["/a"]["get"]
    assert op["summary"] == "#1"
    assert op["description"] == "From the request\n\nFrom the item"


def test_malformed_collection_auth():
    collection = {"info": {"name": "T"}, "item": [], "auth": "bearer"}
    with pytest.raises(ConvertError) as caught:
        postman_to_openapi(collection, source="c.json")
    assert str(caught.value) == "c.json: collection auth: auth must be an object, got str"
