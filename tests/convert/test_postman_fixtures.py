"""The three hand-written collections in fixtures/, converted and checked field by field."""

from __future__ import annotations

import pytest

STRING = {"type": "string"}
NO_RESPONSES = {"default": {"description": "No saved example response in the collection"}}


@pytest.fixture
def petstore(convert_fixture):
    doc, problems = convert_fixture("petstore_v21.postman_collection.json")
    assert problems == []
    return doc


@pytest.fixture
def shop(convert_fixture):
    return convert_fixture("shop_v20.postman_collection.json")


@pytest.fixture
def catalog(convert_fixture):
    return convert_fixture("catalog_v21.postman_collection.json")


# ---- v2.1 pet store: folders, variables, parameters, JSON and form bodies, auth inheritance ----


def test_petstore_document_level(petstore):
    assert petstore["openapi"] == "3.0.3"
    assert petstore["info"] == {
        "title": "Pet Store",
        "description": "A small **pet store** API.",
        "version": "2.1.0",
    }
    # {{baseUrl}} is defined: its value (trailing slash dropped) is the server.
    assert petstore["servers"] == [{"url": "https://petstore.example.com/api/v1"}]
    assert petstore["tags"] == [
        {"name": "Pets", "description": "Everything about pets"},
        {"name": "Pets > Photos", "description": "Pet photos"},
    ]
    assert petstore["security"] == [{"bearerAuth": []}]
    assert petstore["components"] == {
        "securitySchemes": {
            "bearerAuth": {"type": "http", "scheme": "bearer"},
            "apiKeyAuth": {"type": "apiKey", "name": "X-API-Key", "in": "header"},
        }
    }
    assert {path: list(item) for path, item in petstore["paths"].items()} == {
        "/pets": ["get", "post"],
        "/pets/{petId}": ["get", "put"],
        "/pets/{petId}/photos": ["post"],
        "/photos/feed": ["get"],
        "/health": ["get"],
    }


def test_petstore_list_pets_parameters_and_responses(petstore):
    op = petstore["paths"]["/pets"]["get"]
    assert op["tags"] == ["Pets"]
    assert op["summary"] == "List pets"
    assert op["operationId"] == "listPets"
    assert op["description"] == "Returns the pets, a page at a time."
    assert "security" not in op  # inherits the collection's bearer auth
    # Accept is left out; disabled entries are kept and flagged.
    assert op["parameters"] == [
        {
            "name": "limit",
            "in": "query",
            "required": False,
            "description": "Page size",
            "schema": STRING,
            "example": "20",
        },
        {
            "name": "tag",
            "in": "query",
            "required": False,
            "description": "Filter by tag",
            "schema": STRING,
            "x-postman-disabled": True,
        },
        {
            "name": "X-Request-Id",
            "in": "header",
            "required": False,
            "description": "Correlation id",
            "schema": STRING,
            "example": "req-1",
        },
        {"name": "X-Debug", "in": "header", "required": False, "schema": STRING, "x-postman-disabled": True},
    ]
    assert list(op["responses"]) == ["200", "400"]
    ok = op["responses"]["200"]
    assert ok["description"] == "Pets found"
    assert list(ok["content"]) == ["application/json"]  # charset parameter dropped
    assert ok["content"]["application/json"]["schema"] == {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "name": STRING,
                "tags": {"type": "array", "items": STRING},
                "owner": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}, "email": {"type": "string", "format": "email"}},
                },
                "weight": {"type": "number"},
                "vaccinated": {"type": "boolean"},
                "chip": {"nullable": True},
            },
        },
    }
    assert ok["content"]["application/json"]["example"][0]["owner"] == {"id": 7, "email": "ann@example.com"}
    assert op["responses"]["400"] == {
        "description": "Bad limit",
        "content": {
            "application/problem+json": {
                "schema": {"type": "object", "properties": {"title": STRING, "status": {"type": "integer"}}},
                "example": {"title": "limit must be positive", "status": 400},
            }
        },
    }


def test_petstore_raw_json_body(petstore):
    op = petstore["paths"]["/pets"]["post"]
    assert op["requestBody"] == {
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "name": STRING,
                        "tags": {"type": "array", "items": STRING},
                        "owner": {
                            "type": "object",
                            "properties": {
                                "id": {"type": "integer"},
                                "since": {"type": "string", "format": "date-time"},
                            },
                        },
                    },
                },
                "example": {
                    "name": "Rex",
                    "tags": ["dog", "brown"],
                    "owner": {"id": 7, "since": "2024-05-01T10:00:00Z"},
                },
            }
        },
        "required": True,
    }
    assert op["responses"]["201"]["content"]["application/json"]["example"] == {"id": 2, "name": "Rex"}


def test_petstore_path_variables(petstore):
    item = petstore["paths"]["/pets/{petId}"]
    # `:petId` described by url.variable; the preview language gives the media type.
    assert item["get"]["parameters"] == [
        {
            "name": "petId",
            "in": "path",
            "required": True,
            "description": "The pet's id",
            "schema": STRING,
            "example": "1",
        }
    ]
    assert item["get"]["responses"]["200"]["content"]["application/json"]["example"] == {
        "id": 1,
        "name": "Rex",
    }
    assert item["get"]["responses"]["404"] == {"description": "No such pet"}
    # `/pets/:id` is the same path to OpenAPI: renamed to the first request's `{petId}`.
    assert item["put"]["parameters"] == [{"name": "petId", "in": "path", "required": True, "schema": STRING}]
    assert item["put"]["responses"] == NO_RESPONSES
    # `{{petId}}` in the path: a path parameter described by the collection variable.
    photos = petstore["paths"]["/pets/{petId}/photos"]["post"]
    assert photos["parameters"][0] == {
        "name": "petId",
        "in": "path",
        "required": True,
        "description": "Id of a pet in the store",
        "schema": STRING,
        "example": "42",
    }


def test_petstore_form_data_and_folder_auth(petstore):
    op = petstore["paths"]["/pets/{petId}/photos"]["post"]
    assert op["tags"] == ["Pets > Photos"]
    assert op["security"] == [{"apiKeyAuth": []}]  # from the Photos folder
    assert op["parameters"][1] == {
        "name": "X-Photo-Source",
        "in": "header",
        "required": False,
        "schema": STRING,
        "example": "camera",
    }
    assert op["requestBody"] == {
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "format": "binary", "description": "The image"},
                        "caption": STRING,
                        "metadata": STRING,
                        "album": {"type": "string", "x-postman-disabled": True},
                    },
                },
                "example": {"caption": "Rex at the beach", "metadata": '{"iso": 200}'},
                "encoding": {"metadata": {"contentType": "application/json"}},
            }
        },
        "required": True,
    }


def test_petstore_noauth_and_top_level_request(petstore):
    feed = petstore["paths"]["/photos/feed"]["get"]
    assert feed["security"] == []  # noauth overrides the collection's bearer
    health = petstore["paths"]["/health"]["get"]
    assert "tags" not in health
    assert health["description"] == "Liveness probe."
    assert health["responses"] == {
        "200": {"description": "Healthy", "content": {"text/plain": {"schema": STRING, "example": "OK"}}}
    }


# ---- v2.0 shop: string URLs and headers, undefined variables, urlencoded/xml/text/file, merging ----


def test_shop_document_level(shop):
    doc, problems = shop
    assert doc["info"] == {
        "title": "Legacy Shop",
        "description": "Orders and files, exported as Collection v2.0.",
        "version": "1.2.0",
    }
    # {{host}} is not defined: a server variable with a usable default.
    assert doc["servers"] == [
        {
            "url": "{host}",
            "variables": {
                "host": {
                    "default": "http://localhost",
                    "description": "Postman variable {{host}}, not defined in the collection",
                }
            },
        }
    ]
    assert doc["tags"] == [
        {"name": "Orders", "description": "Order management"},
        {"name": "Orders > Admin", "description": "Back-office only"},
    ]
    assert doc["security"] == [{"basicAuth": []}]  # v2.0 auth: a plain object
    assert doc["components"]["securitySchemes"] == {"basicAuth": {"type": "http", "scheme": "basic"}}
    assert [(p.where, p.message) for p in problems] == [
        (
            "Orders > Admin > Purge cache",
            "HTTP method PURGE cannot be expressed in OpenAPI 3.0; request left out",
        )
    ]
    assert problems[0].file == "shop_v20.postman_collection.json"
    assert list(doc["paths"]) == [
        "/orders",
        "/admin/orders/export.{format}",
        "/admin/orders/import",
        "/orders/{orderId}/notes",
        "/files/{name}",
    ]


def test_shop_string_url_query_and_header_string(shop):
    doc, _ = shop
    op = doc["paths"]["/orders"]["get"]
    assert op["operationId"] == "searchOrders"
    assert op["parameters"] == [
        {
            "name": "status",
            "in": "query",
            "required": False,
            "schema": {"type": "array", "items": STRING},
            "example": ["open", "paid"],
        },
        {"name": "q", "in": "query", "required": False, "schema": STRING, "example": "red shoes"},
        {"name": "X-Client", "in": "header", "required": False, "schema": STRING, "example": "web"},
    ]


def test_shop_same_method_and_path_are_merged(shop):
    doc, _ = shop
    op = doc["paths"]["/orders"]["post"]
    assert op["summary"] == "Create order (form)"
    assert op["operationId"] == "createOrderForm"
    assert op["tags"] == ["Orders"]
    assert op["description"] == "Create order (json): Same endpoint, JSON body."
    content = op["requestBody"]["content"]
    assert list(content) == ["application/x-www-form-urlencoded", "application/json"]
    assert content["application/x-www-form-urlencoded"] == {
        "schema": {
            "type": "object",
            "properties": {
                "customer": {"type": "string", "description": "Customer id"},
                "quantity": STRING,
                "note": {"type": "string", "x-postman-disabled": True},
            },
        },
        "example": {"customer": "c-17", "quantity": "2"},
    }
    assert content["application/json"]["example"] == {"customer": "c-17", "items": [{"sku": "A1", "qty": 2}]}
    assert content["application/json"]["schema"]["properties"]["items"] == {
        "type": "array",
        "items": {"type": "object", "properties": {"sku": STRING, "qty": {"type": "integer"}}},
    }
    # Two saved 201 responses: one merged schema (integer + number → number), named examples.
    assert op["responses"] == {
        "201": {
            "description": "Order created; Order created (json)",
            "content": {
                "application/json": {
                    "schema": {"type": "object", "properties": {"id": STRING, "total": {"type": "number"}}},
                    "examples": {
                        "Order_created": {"summary": "Order created", "value": {"id": "o-1", "total": 20}},
                        "Order_created_json": {
                            "summary": "Order created (json)",
                            "value": {"id": "o-3", "total": 20.5},
                        },
                    },
                }
            },
        }
    }


def test_shop_nested_folder_xml_text_and_file_bodies(shop):
    doc, _ = shop
    export = doc["paths"]["/admin/orders/export.{format}"]["get"]
    assert export["tags"] == ["Orders > Admin"]
    assert export["parameters"] == [{"name": "format", "in": "path", "required": True, "schema": STRING}]
    # No code, status "OK" → 200; media type from the response's Content-Type.
    assert export["responses"] == {
        "200": {
            "description": "XML export",
            "content": {
                "application/xml": {"schema": STRING, "example": '<orders><order id="o-1"/></orders>'}
            },
        }
    }
    imported = doc["paths"]["/admin/orders/import"]["post"]
    assert imported["requestBody"]["content"] == {
        "application/xml": {"schema": STRING, "example": '<orders><order id="o-2"/></orders>'}
    }
    note = doc["paths"]["/orders/{orderId}/notes"]["post"]
    assert "tags" not in note
    assert note["requestBody"]["content"] == {
        "text/plain": {"schema": STRING, "example": "Please gift wrap."}
    }
    upload = doc["paths"]["/files/{name}"]["put"]
    assert upload["requestBody"] == {
        "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
        "required": True,
    }


# ---- v2.1 catalog: oauth2, several servers, graphql, lenient JSON, odd auth types ----


def test_catalog_oauth2_and_auth_fallbacks(catalog):
    doc, problems = catalog
    assert doc["security"] == [{"oauth2": ["catalog:read", "catalog:write"]}]
    assert doc["components"]["securitySchemes"] == {
        "oauth2": {
            "type": "oauth2",
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": "https://auth.example.org/authorize",
                    "tokenUrl": "https://auth.example.org/token",
                    "scopes": {"catalog:read": "", "catalog:write": ""},
                }
            },
        },
        "oauth2Bearer": {"type": "http", "scheme": "bearer", "description": "OAuth 2.0 access token"},
        "apiKeyAuth": {"type": "apiKey", "name": "api_key", "in": "query"},
        "hawkAuth": {
            "type": "apiKey",
            "name": "Authorization",
            "in": "header",
            "description": "Postman auth type `hawk`",
        },
    }
    paths = doc["paths"]
    assert paths["/v2/items/{sku}"]["get"]["security"] == [{"oauth2Bearer": []}]
    assert paths["/v2/items/{sku}"]["delete"]["security"] == [{"hawkAuth": []}]
    assert paths["/lookup"]["get"]["security"] == [{"apiKeyAuth": []}]
    assert [(p.where, p.message) for p in problems] == [
        ("Items > Broken body", "request body is declared as JSON but does not parse; kept without a schema"),
        ("Partners", "oauth2 auth without the URLs its flow needs; described as a bearer token"),
        (
            "Partners > Signed request",
            "auth type 'hawk' has no OpenAPI equivalent; described as an Authorization header",
        ),
    ]


def test_catalog_servers(catalog):
    doc, _ = catalog
    # Most used first; ties keep first-seen order.
    assert doc["servers"] == [
        {"url": "https://api.example.org:8443"},
        {"url": "https://partners.example.org"},
        {"url": "https://api.example.org"},
    ]
    paths = doc["paths"]
    assert paths["/graphql"]["servers"] == [{"url": "https://api.example.org"}]
    assert paths["/v2/items/{sku}"]["servers"] == [{"url": "https://partners.example.org"}]
    assert "servers" not in paths["/items/{itemId}"]  # on the main server


def test_catalog_graphql_body(catalog):
    doc, _ = catalog
    op = doc["paths"]["/graphql"]["post"]
    assert "tags" not in op
    assert op["requestBody"]["content"] == {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {
                    "query": STRING,
                    "variables": {"type": "object", "properties": {"id": STRING}},
                },
            },
            "example": {
                "query": "query Item($id: ID!) { item(id: $id) { id name } }",
                "variables": {"id": "i-1"},
            },
        }
    }


def test_catalog_url_object_and_saved_response_examples(catalog):
    doc, _ = catalog
    op = doc["paths"]["/items/{itemId}"]["get"]
    assert op["operationId"] == "getItem"
    # {{itemId}}'s collection value is itself a variable: no example.
    assert op["parameters"] == [
        {"name": "itemId", "in": "path", "required": True, "schema": STRING},
        {
            "name": "fields",
            "in": "query",
            "required": False,
            "description": "Fields to return",
            "schema": STRING,
            "example": "name",
        },
    ]
    assert op["responses"]["200"] == {
        "description": "Item; Item on sale",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "id": STRING,
                        "price": {"type": "number"},
                        "stock": {"type": "integer", "nullable": True},
                        "sale": {"type": "boolean"},
                    },
                },
                "examples": {
                    "Item": {"summary": "Item", "value": {"id": "i-1", "price": 10, "stock": None}},
                    "Item_on_sale": {
                        "summary": "Item on sale",
                        "value": {"id": "i-2", "price": 7.5, "stock": 3, "sale": True},
                    },
                },
            }
        },
    }
    assert op["responses"]["410"] == {"description": "Gone"}  # status text only
    # Same request name in another folder: a unique operationId.
    assert doc["paths"]["/v2/items/{sku}"]["get"]["operationId"] == "getItem2"


def test_catalog_lenient_and_broken_json_bodies(catalog):
    doc, _ = catalog
    created = doc["paths"]["/items"]["post"]["requestBody"]["content"]["application/json"]
    # Comments stripped, the bare {{price}} placeholder quoted.
    assert created == {
        "schema": {"type": "object", "properties": {"name": STRING, "price": STRING, "url": STRING}},
        "example": {"name": "Lamp", "price": "{{price}}", "url": "https://example.org/lamp"},
    }
    broken = doc["paths"]["/items/{itemId}"]["patch"]
    assert broken["requestBody"]["content"] == {"application/json": {"schema": {}}}
