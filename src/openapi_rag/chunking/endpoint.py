"""Endpoint split and its variants (Table I of Pesl et al.): one chunk per operation.

`EndpointStrategy` is the shape every per-operation strategy shares, the LLM-based ones to come
included: a subclass says what is embedded (`embed_parts`, computed for a whole service at once so
an LLM can be called in batches) and what is returned (`contents`; by default the embedded text
itself). A text longer than `size` tokens is cut into token windows, each headed by the
operation's header line and `(part i of n)`.

- `endpoint`: `METHOD /path` and the operation object as JSON (`$ref`s left as they are).
- `thin`: the same without `requestBody` and without any `example`/`examples`.
- `fields`: embeds only API title, service description, method and path, summary and
  description; returns the operation as `endpoint` does.
- `endpoint-json`: the operation flattened to `path.to.key: value` lines.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from openapi_rag.chunking.base import Strategy
from openapi_rag.chunking.flatten import flatten
from openapi_rag.chunking.render import collapse
from openapi_rag.chunking.split import fitted_windows, windows_with_header
from openapi_rag.clean.examples import drop_examples
from openapi_rag.model import Chunk, Operation, Service

UNWINDOWED = 1_000_000  # tokens: larger than any real operation, so no operation is cut


def endpoint_json(op: Operation) -> str:
    """`METHOD /path` and the operation object as compact JSON: the paper's endpoint chunk."""
    return f"{op.id}\n{json.dumps(op.raw, ensure_ascii=False, default=str)}"


class EndpointStrategy(Strategy):
    """One chunk per operation, cut into token windows when longer than `size`."""

    name = "endpoint"
    kind = "endpoint"
    # One chunk per operation unless a size is asked for (`--size 1024` is the paper's LlamaIndex
    # setting): the embedder reads the first 256 tokens (method, path, summary, parameters come
    # first) and BM25 reads all of it. Windows of the model's input size would cut a typical
    # real-world operation into four chunks; 1024-token windows still add 38% more chunks on the
    # realworld corpus, mostly response-schema tails that dense search gains nothing from
    # (RestBench and SOCBench-D recall unchanged within .01 either way), for 38% more embedding time.
    default_size = UNWINDOWED

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        """For each operation, the `(header line, body)` of the text to embed."""
        return [(op.id, json.dumps(op.raw, ensure_ascii=False, default=str)) for op in ops]

    def contents(self, service: Service, ops: list[Operation]) -> list[str] | None:
        """For each operation, the text returned by search; None: each chunk's embedded text."""
        return None

    def chunk_service(self, service: Service) -> list[Chunk]:
        ops = service.operations
        if not ops:
            return []
        pairs = self.embed_parts(service, ops)
        texts = [f"{header}\n{body}" if body else header for header, body in pairs]
        contents = self.contents(service, ops)
        pieces: list[list[tuple[str, int]]] = []
        for (header, body), text, count in zip(pairs, texts, self.tokenizer.count_many(texts), strict=True):
            if count <= self.size:
                pieces.append([(text, count)])
            else:
                pieces.append(windows_with_header(header, body, self.size, self.overlap, self.tokenizer))
        chunks: list[Chunk] = []
        for i, (op, group) in enumerate(zip(ops, pieces, strict=True)):
            chunks += self.parts(
                service,
                op.id,
                group,
                kind=self.kind,
                operations=[op.id],
                metadata=self.operation_metadata(service, op),
                content=contents[i] if contents is not None else None,
            )
        return chunks


class ThinStrategy(EndpointStrategy):
    """Endpoint split without `requestBody` and without `example`/`examples` values."""

    name = "thin"

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        return [(op.id, json.dumps(thin_operation(op.raw), ensure_ascii=False, default=str)) for op in ops]


def thin_operation(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy of an operation object without `requestBody` and example values."""
    thin = copy.deepcopy({k: v for k, v in raw.items() if k != "requestBody"})
    drop_examples(thin)  # example values only: a property *named* `example` stays
    return thin


class FieldsStrategy(EndpointStrategy):
    """Embeds only the fields that say what an operation is for; returns the whole operation.

    The paper's order is title, service description, endpoint, endpoint description; here the
    endpoint line comes first so that windows of a long text all name it. A service description
    longer than a third of `size` is cut short (it is the same in every chunk of the service).
    """

    name = "fields"

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        service_description = collapse(service.description)
        room = max(self.size // 3, 1)
        if service_description and self.tokenizer.count(service_description) > room:
            service_description = fitted_windows(service_description, room, 0, self.tokenizer)[0][0] + " …"
        out = []
        for op in ops:
            lines = [f"Title: {collapse(service.title)}"]
            if service_description:
                lines.append(f"Service description: {service_description}")
            if collapse(op.summary):
                lines.append(f"Endpoint summary: {collapse(op.summary)}")
            if collapse(op.description):
                lines.append(f"Endpoint description: {collapse(op.description)}")
            out.append((f"Endpoint: {op.id}", "\n".join(lines)))
        return out

    def contents(self, service: Service, ops: list[Operation]) -> list[str] | None:
        return [endpoint_json(op) for op in ops]


class EndpointJsonStrategy(EndpointStrategy):
    """Endpoint split with each operation flattened to `path.to.key: value` lines."""

    name = "endpoint-json"

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        return [(op.id, "\n".join(flatten(op.raw))) for op in ops]
