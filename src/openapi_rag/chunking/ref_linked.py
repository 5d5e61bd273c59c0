"""`ref-linked`: small endpoint chunks that name their schemas, plus chunks for what they link to.

Per service:

- one chunk per operation, written like `ref-inline` but with schemas named, not expanded
  (`depth` 0 by default), and `metadata["schemas"]` listing the schemas it references;
- one chunk per component schema: its fields, types, required flags, descriptions and a
  "used in" line (`metadata`: `schema`, `refs`, `used_by_operations`, `used_by_schemas`);
- one chunk for the error responses that several operations share (`errors`), if any;
- one chunk for authentication (`security`): schemes, scopes, default, open operations.

Schema, error and security chunks cover no operation themselves (`operations` is empty): search
pulls them in through the endpoint chunks' metadata instead of letting a widely used `Error`
schema stand for every operation.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from openapi_rag.chunking.base import TextUnit
from openapi_rag.chunking.describe import (
    capped,
    is_error_code,
    media_schema,
    requirements_text,
    schema_blocks,
)
from openapi_rag.chunking.ref_inline import RefInlineStrategy, bounded_blocks
from openapi_rag.chunking.render import SchemaRenderer, collapse, first_sentence
from openapi_rag.chunking.split import Block
from openapi_rag.model import Chunk, Schema, Service
from openapi_rag.refs.graph import schema_refs
from openapi_rag.spec.limits import env_name

logger = logging.getLogger(__name__)


class RefLinkedStrategy(RefInlineStrategy):
    """Endpoint chunks naming their schemas, plus schema, error and security chunks."""

    name = "ref-linked"
    depth_default = 0

    def chunk_service(self, service: Service) -> list[Chunk]:
        units = self.endpoint_units(service) + self.schema_units(service)
        units += [u for u in (self.errors_unit(service), self.security_unit(service)) if u is not None]
        return self.fit_units(service, units, self.limits.max_unit_chunks)

    def schema_units(self, service: Service) -> list[TextUnit]:
        renderer = SchemaRenderer(service.schemas, 0)
        units = []
        for name, schema in self.linked_schemas(service).items():
            header, blocks = schema_blocks(service, schema, renderer)
            blocks = bounded_blocks(service, f"schema:{name}", blocks, self.limits.max_unit_chars)
            meta = self.base_metadata(service)
            meta.update(
                schema=name,
                refs=list(schema.refs),
                used_by_operations=list(schema.used_by_operations),
                used_by_schemas=list(schema.used_by_schemas),
            )
            units.append(TextUnit(f"schema:{name}", "schema", header, blocks, [], meta))
        return units

    def linked_schemas(self, service: Service) -> dict[str, Schema]:
        """The schemas that get a chunk: all, or the `max_schema_chunks` most used (named by
        operations, then reached by them, then used by other schemas), in the service's order."""
        limit = self.limits.max_schema_chunks
        if len(service.schemas) <= limit:
            return dict(service.schemas)
        named = Counter(name for op in service.operations for name in op.schema_refs)
        order = {name: i for i, name in enumerate(service.schemas)}
        ranked = sorted(
            service.schemas.values(),
            key=lambda s: (-named[s.name], -len(s.used_by_operations), -len(s.used_by_schemas), order[s.name]),
        )
        kept = {s.name for s in ranked[:limit]}
        logger.warning(
            "%s: %d schemas, chunks for the %d most used (limit max_schema_chunks=%d; raise it with %s)",
            service.file, len(service.schemas), limit, limit, env_name("max_schema_chunks"),
        )
        return {name: schema for name, schema in service.schemas.items() if name in kept}

    def errors_unit(self, service: Service) -> TextUnit | None:
        """The error responses that operations share, each with the operations that declare it."""
        renderer = SchemaRenderer(service.schemas, 0)
        groups: dict[tuple[str, str, str], list[str]] = {}
        schemas_of: dict[tuple[str, str, str], set[str]] = {}
        for op in service.operations:
            codes = list(op.responses)
            for code, response in op.responses.items():
                if not is_error_code(code, codes):
                    continue
                response = response if isinstance(response, dict) else {}
                _, schema = media_schema(response.get("content"))
                label = renderer.inline(schema) if schema is not None else ""
                key = (code, first_sentence(response.get("description"), 100), label)
                groups.setdefault(key, []).append(op.id)
                schemas_of.setdefault(key, schema_refs(schema) & service.schemas.keys())
        total = len(service.operations)
        if total > 1:  # shared ones only: an operation's own errors are in its chunk already
            groups = {key: op_ids for key, op_ids in groups.items() if len(op_ids) > 1}
        if not groups:
            return None
        lines = []
        for (code, description, label), op_ids in sorted(groups.items(), key=lambda g: (g[0][0], -len(g[1]))):
            line = f"- {code}" + (f" {description}" if description else "") + (f": {label}" if label else "")
            if len(op_ids) == total and total > 1:
                where = "all operations"
            elif len(op_ids) <= 3:
                where = ", ".join(op_ids)
            else:
                where = f"{len(op_ids)} operations"
            lines.append(f"{line} — in {where}")
        used = {op_id for op_ids in groups.values() for op_id in op_ids}
        meta = self.base_metadata(service)
        meta.update(
            schemas=sorted(set().union(*(schemas_of[key] for key in groups))),
            codes=sorted({code for code, _, _ in groups}),
            used_by_operations=[op.id for op in service.operations if op.id in used],
        )
        header = f"{collapse(service.title)} – error responses"
        return TextUnit("errors", "errors", header, [Block("", lines, "\n")], [], meta)

    def security_unit(self, service: Service) -> TextUnit | None:
        """Security schemes, their scopes, the default requirement, the operations open to all.

        Which operation needs which scopes is in the operation's own chunk (its `security:` line).
        """
        declared = [op for op in service.operations if op.security is not None]
        if not service.security_schemes and not service.security and not declared:
            return None
        lines = []
        for name, scheme in service.security_schemes.items():
            lines += _scheme_lines(str(name), scheme if isinstance(scheme, dict) else {})
        if service.security:
            lines.append(f"- default requirement: {requirements_text(service.security)}")
        secured, open_ops = [], []
        for op in service.operations:
            effective = op.security if op.security is not None else service.security
            (secured if effective and all(req for req in effective) else open_ops).append(op.id)
        if open_ops and (service.security_schemes or service.security):
            lines.append(f"- no authentication for: {', '.join(capped(open_ops))}")
        if not lines:
            return None
        meta = self.base_metadata(service)
        meta.update(schemes=list(service.security_schemes), used_by_operations=secured)
        header = f"{collapse(service.title)} – authentication and security"
        return TextUnit("security", "security", header, [Block("", lines, "\n")], [], meta)


def _scheme_lines(name: str, scheme: dict[str, Any]) -> list[str]:
    kind = str(scheme.get("type", ""))
    if kind == "apiKey":
        what = f"API key in {scheme.get('in', '?')} `{scheme.get('name', '?')}`"
    elif kind == "http":
        what = f"HTTP {scheme.get('scheme', '')} authentication".replace("  ", " ")
        if scheme.get("bearerFormat"):
            what += f" ({scheme['bearerFormat']})"
    elif kind == "oauth2":
        flows = scheme.get("flows") if isinstance(scheme.get("flows"), dict) else {}
        what = "OAuth 2" + (f" ({', '.join(flows)} flow)" if flows else "")
    elif kind == "openIdConnect":
        what = f"OpenID Connect ({scheme.get('openIdConnectUrl', '')})"
    elif kind == "mutualTLS":
        what = "mutual TLS"
    else:
        what = kind or "unknown scheme"
    description = first_sentence(scheme.get("description"), 150)
    lines = [f"- {name}: {what}" + (f" — {description}" if description else "")]
    if kind == "oauth2":
        scopes: dict[str, str] = {}
        for flow in (scheme.get("flows") or {}).values():
            if isinstance(flow, dict) and isinstance(flow.get("scopes"), dict):
                for scope, text in flow["scopes"].items():
                    scopes.setdefault(str(scope), first_sentence(text, 100))
        lines += [f"- scope {scope}" + (f": {text}" if text else "") for scope, text in scopes.items()]
    return lines
