"""Postman `auth` blocks → OpenAPI security schemes and security requirements.

bearer, basic, digest and jwt become `http` schemes, apikey an `apiKey` scheme (header or query),
oauth2 an `oauth2` scheme with the flow its grant type names. oauth2 without the URLs its flow
needs falls back to an `http` bearer scheme; types OpenAPI cannot express (oauth1, hawk, awsv4,
ntlm, edgegrid, asap, ...) become an `Authorization` header apiKey named after the Postman type.
Both lossy cases are reported as problems.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.convert.postman_url import resolve_variables
from openapi_rag.convert.postman_values import VARIABLE_RE, Context

Requirement = dict[str, list[str]]

_HTTP_SCHEMES = {
    "basic": ("basicAuth", {"type": "http", "scheme": "basic"}),
    "bearer": ("bearerAuth", {"type": "http", "scheme": "bearer"}),
    "digest": ("digestAuth", {"type": "http", "scheme": "digest"}),
    "jwt": ("jwtAuth", {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}),
}
# Postman grant type → (OpenAPI flow, whether it needs authorizationUrl, whether it needs tokenUrl).
_OAUTH2_FLOWS = {
    "authorization_code": ("authorizationCode", True, True),
    "authorization_code_with_pkce": ("authorizationCode", True, True),
    "implicit": ("implicit", True, False),
    "password_credentials": ("password", False, True),
    "password": ("password", False, True),
    "client_credentials": ("clientCredentials", False, True),
}


def inherits(auth: Any) -> bool:
    """No `auth` (or `{"type": "inherit"}`) means: use the parent folder's or the collection's."""
    return auth is None or (isinstance(auth, dict) and auth.get("type") in (None, "inherit"))


def auth_params(auth: dict[str, Any]) -> dict[str, Any]:
    """v2.1 lists `[{key, value}]` under the type's name; v2.0 gives a plain object."""
    params = auth.get(str(auth.get("type")))
    if isinstance(params, list):
        return {str(p["key"]): p.get("value") for p in params if isinstance(p, dict) and "key" in p}
    return dict(params) if isinstance(params, dict) else {}


class SecuritySchemes:
    """Collects the security schemes a collection uses, one component name per distinct scheme."""

    def __init__(self, ctx: Context, collection_vars: dict[str, dict[str, Any]]):
        self.ctx = ctx
        self.collection_vars = collection_vars
        self.schemes: dict[str, dict[str, Any]] = {}

    def requirement(self, auth: Any, where: str) -> list[Requirement]:
        """The security requirement list for a (non-inherited) Postman auth; `[]` for noauth."""
        if not isinstance(auth, dict):
            raise self.ctx.error(f"auth must be an object, got {type(auth).__name__}", where)
        auth_type = str(auth.get("type")).lower()
        if auth_type == "noauth":
            return []
        base, scheme, scopes = self._scheme(auth_type, auth_params(auth), where)
        return [{self._name_for(base, scheme): scopes}]

    def _name_for(self, base: str, scheme: dict[str, Any]) -> str:
        name, n = base, 1
        while name in self.schemes and self.schemes[name] != scheme:
            n += 1
            name = f"{base}{n}"
        self.schemes[name] = scheme
        return name

    def _scheme(
        self, auth_type: str, params: dict[str, Any], where: str
    ) -> tuple[str, dict[str, Any], list[str]]:
        if auth_type in _HTTP_SCHEMES:
            base, scheme = _HTTP_SCHEMES[auth_type]
            return base, dict(scheme), []
        if auth_type == "apikey":
            location = str(params.get("in") or "header").lower()
            location = location if location in ("header", "query") else "header"
            default_name = "X-API-Key" if location == "header" else "api_key"
            name = self._text(params.get("key")) or default_name
            return "apiKeyAuth", {"type": "apiKey", "name": name, "in": location}, []
        if auth_type == "oauth2":
            return self._oauth2(params, where)
        self.ctx.warn(
            f"auth type {auth_type!r} has no OpenAPI equivalent; described as an Authorization header",
            where,
        )
        scheme = {
            "type": "apiKey",
            "name": "Authorization",
            "in": "header",
            "description": f"Postman auth type `{auth_type}`",
        }
        return f"{auth_type}Auth", scheme, []

    def _oauth2(self, params: dict[str, Any], where: str) -> tuple[str, dict[str, Any], list[str]]:
        auth_url = self._text(params.get("authUrl"))
        token_url = self._text(params.get("accessTokenUrl"))
        refresh_url = self._text(params.get("refreshTokenUrl"))
        scopes = self._text(params.get("scope")).replace(",", " ").split()
        grant = self._text(params.get("grant_type") or params.get("grantType"))
        if grant not in _OAUTH2_FLOWS:  # unspecified: pick the flow the URLs allow
            grant = "authorization_code" if auth_url and token_url else "implicit" if auth_url else ""
            grant = grant or ("client_credentials" if token_url else "")
        if grant:
            flow_name, needs_auth, needs_token = _OAUTH2_FLOWS[grant]
            if (auth_url or not needs_auth) and (token_url or not needs_token):
                flow: dict[str, Any] = {}
                if needs_auth:
                    flow["authorizationUrl"] = auth_url
                if needs_token:
                    flow["tokenUrl"] = token_url
                if refresh_url:
                    flow["refreshUrl"] = refresh_url
                flow["scopes"] = {scope: "" for scope in scopes}
                for url in (auth_url, token_url):
                    if VARIABLE_RE.search(url):
                        self.ctx.warn(
                            f"oauth2 URL {url!r} uses a variable the collection does not define", where
                        )
                return "oauth2", {"type": "oauth2", "flows": {flow_name: flow}}, scopes
        self.ctx.warn("oauth2 auth without the URLs its flow needs; described as a bearer token", where)
        scheme = {"type": "http", "scheme": "bearer", "description": "OAuth 2.0 access token"}
        return "oauth2Bearer", scheme, []

    def _text(self, value: Any) -> str:
        if value is None:
            return ""
        return resolve_variables(
            str(value), self.collection_vars, max_chars=self.ctx.limits.max_variable_chars
        ).strip()
