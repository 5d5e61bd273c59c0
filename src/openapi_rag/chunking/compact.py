"""`compact`: a short readable line to embed, a fuller field text for BM25, one chunk per operation.

A small embedder (MiniLM reads 256 tokens) matches a query best against a short statement of what
an operation does, not against its JSON: the embedded text is

    API title – tags – METHOD /path: summary. First sentence of the description. Parameters: a, b.
    Returns: x, y, z.

"Returns" names the top-level fields of the success response (at most `RETURNS`,
`response_fields`): tasks name what they want to read ("the birthday of ...", "how many seasons
...") more often than the operation that returns it (RestBench R@10 .785 → .815 with them, the
other metrics within ±.01; ablation in the README). An operation without a summary is named by
its operationId in words (`operation_summary`). Words the API's authors wrote elsewhere bridge to
the user's: the first sentence of the operation's tag description follows its own sentence
(`EMBED_CONTEXT`, `context.py`); an envelope response names its payload's fields (`UNWRAP`).
Each is a strategy parameter, recorded in the index manifest, with an ablation row (README,
issue 18).

BM25 has no input limit and profits from every identifier and description, so the chunk carries a
separate lexical text in `metadata["bm25_text"]` (`BM25Index.from_chunks` indexes it instead of
`embed_text`): `METHOD /path`, summary, tags, the whole description, each parameter's name and
description, and the same response fields. Each field counts once: repeating the path and
summary to weight them (2x, 3x) moved recall by less than .01 on RestBench and SOCBench-D. Two
index-time additions bring in words no spec holds, both off by default: WordNet aliases on a line
only BM25 reads (`aliases`, `aliases.py`) and requests in users' words written by an LLM
(`views_llm`, `llm_views.py`), read by BM25 and embedded as views (README, issue 18 item 8); a
third, the words a learned sparse model (SPLADE) says the operation implies, is also a line only
BM25 reads (`expansion`, `expansion.py`).
The chunk's `content` (what search returns) is the operation without its request body and examples, as with `thin`.
"""

from __future__ import annotations

import json
from typing import Any

from openapi_rag.chunking.aliases import AliasSettings, AliasWriter
from openapi_rag.chunking.context import operation_context, tag_sentence
from openapi_rag.chunking.endpoint import EndpointStrategy, thin_operation
from openapi_rag.chunking.expansion import ExpansionSettings, ExpansionWriter
from openapi_rag.chunking.jargon import DOMAIN_TERMS, JargonWriter
from openapi_rag.chunking.llm_views import ViewWriter
from openapi_rag.chunking.render import collapse, leading_sentence, operation_summary, short_description
from openapi_rag.chunking.response_fields import request_fields, response_fields
from openapi_rag.llm.base import LLM
from openapi_rag.model import Chunk, Operation, Service
from openapi_rag.search.bm25 import BM25_TEXT, JARGON_TEXT
from openapi_rag.search.views import VIEWS as VIEWS_KEY
from openapi_rag.tokens import Tokenizer

RETURNS = 25
"""Response fields named per operation (0: none)."""
TAKES = 0
"""Request body fields named per operation, "Takes: a, b." after the parameters, and read by BM25
(0: none): a create or update says what it makes by what it is sent (Trello's `POST /cards`,
summarised "addCards()", takes `name, desc, idList`). Off: with 5 or 10 names it lost on the
tuning halves (realworld R@1 .359 → .340, ToolAlpaca MRR .868 → .853) and on the reporting halves
(long requests' R@10 .973 → .919, SOCBench-D R@5 .825 → .800): the body's names (`closed`, `due`,
`fileSource` ...) are the resource's fields, shared by the operations that read it, and blur the
one line of what the operation does (README, issue 18)."""
UNWRAP = True
"""Name the fields of an envelope response's payload rather than the envelope's
(`response_fields.ENVELOPE`): `{status_code, status, ..., data}` is the same on every operation of
such an API and says nothing about any one of them."""
HEADERS = True
"""The embedded line names header parameters too. Leaving them to BM25 (headers often carry
transport and account plumbing, `x-apideck-consumer-id`, the same on every operation of an API) won
on the realworld tuning half (R@5 .549 → .558, MRR .434 → .444) but lost R@10 .028 and R@1 .014
on its reporting half: not adopted."""
EMBED_CONTEXT = True
"""The embedded line also carries the first sentence of the operation's tag description
(`context.py`): the words an API's authors use for a whole group of operations, often the plain
ones a user says."""
EMBED_RESOURCE = False
"""An operation without a description of its own embeds the first sentence of its resource
schema's description instead (`context.py`). Off: no gain on the tuning halves."""
VIEWS = False
"""Each statement of the embedded line (summary, description sentence, tag sentence) is also a
short view of its own, "tags – METHOD /path: statement" (`metadata["views"]`), embedded apart and
max-pooled at search time (`search/views.py`): one vector of the whole line blurs several
statements, and a user saying one of them in other words should be nearer that one alone. Off: it
won on the realworld tuning half (R@5 .549 → .573) but lost on the tuning halves overall (RestBench
MRR .730 → .696, the long requests' R@5 .800 → .733) and on the reporting halves (realworld R@1
.262 → .192, RestBench R@10 .887 → .854); README, issue 18 item 8."""
ALIASES = 0
"""Alias words per operation from WordNet (`aliases.py`), on a line that only BM25 reads; 0: none.
Off: README, issue 18 item 8."""
EXPANSION = 0
"""Words per operation that SPLADE says it implies (`expansion.py`), on a line only BM25 reads; 0:
none. Off: README, issue 18 item 8."""
JARGON = 0
"""User words per operation from the lexicon of API jargon (`jargon.py`), on a line only BM25 reads;
0: none."""
OPTIONAL_PARAMS = (
    "takes",
    "jargon",
    "jargon_embed",
    "jargon_domain_terms",
    "jargon_list",
    "aliases",
    "alias_senses",
    "alias_hypernyms",
    "views_llm",
    "views_llm_bm25",
    "expansion",
    "expansion_min_weight",
    "expansion_source",
)
"""Parameters recorded in the manifest only when on (an index built before they existed stays
comparable), and read back from it when an index is updated without them."""
CONTEXT = False
"""BM25 also reads the tag sentence and the resource schema's name and description (`context.py`).
Off: it lost on the tuning halves (RestBench, SOCBench-D and realworld R@5)."""


def compact_text(
    service: Service,
    op: Operation,
    returns: int = RETURNS,
    *,
    embed_context: bool = EMBED_CONTEXT,
    embed_resource: bool = EMBED_RESOURCE,
    unwrap: bool = UNWRAP,
    headers: bool = HEADERS,
    takes: int = TAKES,
) -> str:
    """The short line embedded for `op` (see the module docstring)."""
    head = " – ".join(part for part in (collapse(service.title), ", ".join(op.tags)) if part)
    body = ". ".join(_statements(service, op, embed_context=embed_context, embed_resource=embed_resource))
    text = f"{head} – {op.id}: {body}" if head else f"{op.id}: {body}"
    names = ", ".join(p.name for p in op.parameters if headers or p.location != "header")
    text = f"{text} Parameters: {names}." if names else text
    sent = _takes(service, op, takes)
    text = f"{text} Takes: {', '.join(sent)}." if sent else text
    fields = _returns(service, op, returns, unwrap)
    return f"{text} Returns: {', '.join(fields)}." if fields else text


def view_texts(
    service: Service,
    op: Operation,
    *,
    embed_context: bool = EMBED_CONTEXT,
    embed_resource: bool = EMBED_RESOURCE,
) -> list[str]:
    """The short views of `op`: each statement of its embedded line on its own, named by the
    operation's tags and `METHOD /path` (`VIEWS`); one statement still gets its view, free of the
    line's API title, parameters and response fields."""
    statements = _statements(service, op, embed_context=embed_context, embed_resource=embed_resource)
    tags = ", ".join(op.tags)
    return [f"{tags} – {op.id}: {s}" if tags else f"{op.id}: {s}" for s in statements]


def _statements(service: Service, op: Operation, *, embed_context: bool, embed_resource: bool) -> list[str]:
    """What the embedded line says `op` does: its summary, its description's first sentence and its
    tag's sentence, each once."""
    summary = operation_summary(op)
    sentence = leading_sentence(op.description)
    if sentence.lower() == summary.lower():  # many specs repeat the summary as description
        sentence = ""
    if not sentence and embed_resource:
        sentence = operation_context(service, op).resource
    tag = tag_sentence(service, op) if embed_context else ""
    if tag and tag.lower() in (summary.lower(), sentence.lower()):
        tag = ""
    return [part for part in (summary, sentence, tag) if part]


def lexical_text(
    service: Service,
    op: Operation,
    returns: int = RETURNS,
    *,
    context: bool = CONTEXT,
    unwrap: bool = UNWRAP,
    takes: int = TAKES,
) -> str:
    """The fuller text BM25 indexes for `op` (see the module docstring)."""
    params = " ".join(f"{p.name} {collapse(p.description)}".strip() for p in op.parameters)
    params = " ".join(part for part in (params, *_takes(service, op, takes)) if part)
    fields = " ".join(_returns(service, op, returns, unwrap))
    borrowed = operation_context(service, op).words() if context else ""
    parts = (
        op.id,
        operation_summary(op),
        " ".join(op.tags),
        collapse(op.description),
        params,
        fields,
        borrowed,
    )
    return " ".join(part for part in parts if part)


def _takes(service: Service, op: Operation, limit: int) -> list[str]:
    return request_fields(service, op, limit=limit) if limit > 0 else []


def _returns(service: Service, op: Operation, limit: int, unwrap: bool) -> list[str]:
    return response_fields(service, op, limit=limit, unwrap=unwrap) if limit > 0 else []


class CompactStrategy(EndpointStrategy):
    """One chunk per operation: a short line embedded, a fuller text for BM25, thin JSON returned.

    Args:
        returns: response fields named per operation (0: none).
        takes: request body fields named per operation (`TAKES`; 0: none).
        context: BM25 also reads the tag sentence and the resource schema (`CONTEXT`).
        embed_context: embed the tag description's first sentence (`EMBED_CONTEXT`).
        embed_resource: embed the resource schema's sentence where the operation has no
            description (`EMBED_RESOURCE`).
        unwrap: name an envelope response's payload fields (`UNWRAP`).
        headers: name header parameters in the embedded line (`HEADERS`).
        views: write each statement as a short view of its own (`VIEWS`).
        aliases: WordNet alias words per operation for BM25 (`ALIASES`, `aliases.py`; 0: none).
        alias_senses: how many of a word's most frequent senses give aliases.
        alias_hypernyms: also the words of each sense's first hypernym.
        views_llm: an LLM (name or object) that writes user-phrased views of each operation at
            index time (`llm_views.py`); None: none.
        views_llm_bm25: BM25 also reads those views.
        expansion: words per operation implied by SPLADE, for BM25 (`EXPANSION`, `expansion.py`; 0: none).
        expansion_min_weight: the least SPLADE weight an implied word needs.
        expansion_source: what SPLADE reads: "line", the embedded line; "statements", only
            `METHOD /path` and what the operation does (no API title, parameters or response fields).
        jargon: user words per operation from the lexicon of API jargon, for BM25 (`JARGON`,
            `jargon.py`; 0: none).
        jargon_embed: the embedded line also ends with those words' phrases ("Users say: ...").
        jargon_list: the words go on a text of their own (`metadata["jargon_text"]`), searched as a
            list of its own at `SearchSettings.jargon_weight`, instead of on the line BM25 reads
            (words added there change BM25's weight of every other word).
        jargon_domain_terms: distinct terms of a lexicon domain an API must name before that
            domain's words are written for it (`jargon.DOMAIN_TERMS`; 0: every domain everywhere).
        Other arguments as `Strategy`.
    """

    name = "compact"

    def __init__(
        self,
        *,
        size: int | None = None,
        overlap: int | None = None,
        tokenizer: Tokenizer | str | None = None,
        returns: int = RETURNS,
        takes: int = TAKES,
        context: bool = CONTEXT,
        embed_context: bool = EMBED_CONTEXT,
        embed_resource: bool = EMBED_RESOURCE,
        unwrap: bool = UNWRAP,
        headers: bool = HEADERS,
        views: bool = VIEWS,
        aliases: int = ALIASES,
        alias_senses: int = 1,
        alias_hypernyms: bool = False,
        views_llm: str | LLM | None = None,
        views_llm_bm25: bool = True,
        expansion: int = EXPANSION,
        expansion_min_weight: float = 1.0,
        expansion_source: str = "line",
        jargon: int = JARGON,
        jargon_embed: bool = False,
        jargon_domain_terms: int = DOMAIN_TERMS,
        jargon_list: bool = False,
    ) -> None:
        super().__init__(size=size, overlap=overlap, tokenizer=tokenizer)
        self.returns = max(0, returns)
        self.takes = max(0, takes)
        self.context = context
        self.embed_context = embed_context
        self.embed_resource = embed_resource
        self.unwrap = unwrap
        self.headers = headers
        self.views = views
        self.aliases = AliasSettings(
            limit=max(0, aliases), senses=max(1, alias_senses), hypernyms=alias_hypernyms
        )
        self._alias_writer: AliasWriter | None = None
        self.views_llm = views_llm
        self.views_llm_bm25 = views_llm_bm25
        self.view_writer = ViewWriter(views_llm) if views_llm is not None else None
        self.expansion = ExpansionSettings(limit=max(0, expansion), min_weight=expansion_min_weight)
        if expansion_source not in ("line", "statements"):
            raise ValueError(f"expansion_source must be 'line' or 'statements', not {expansion_source!r}")
        self.expansion_source = expansion_source
        self.jargon = JargonWriter(jargon, domain_terms=max(0, jargon_domain_terms)) if jargon > 0 else None
        self.jargon_embed = jargon_embed and self.jargon is not None
        self._jargon_of: tuple[Service, JargonWriter] | None = None  # the last service's writer
        self.jargon_list = jargon_list and self.jargon is not None

    @property
    def params(self) -> dict[str, Any]:
        return {
            **super().params,
            "returns": self.returns,
            **({"takes": self.takes} if self.takes else {}),  # recorded when on, as the optional ones
            "context": self.context,
            **self._embedded,
            "views": self.views,
            # recorded only when on: a manifest written before aliases existed stays comparable
            **(self._alias_params if self.aliases.limit else {}),
            **(self._views_llm_params if self.views_llm is not None else {}),
            **(self._expansion_params if self.expansion.limit else {}),
            **(self._jargon_params if self.jargon else {}),
        }

    @property
    def _jargon_params(self) -> dict[str, Any]:
        assert self.jargon is not None
        # the lexicon's digest says which words were written: a later lexicon re-chunks on update
        return {
            "jargon": self.jargon.limit,
            "jargon_embed": self.jargon_embed,
            "jargon_domain_terms": self.jargon.domain_terms,
            **({"jargon_list": True} if self.jargon_list else {}),
            "jargon_lexicon": self.jargon.lexicon.digest,
        }

    def _jargon_writer(self, service: Service) -> JargonWriter:
        """The lexicon's writer for the domains of `service` (`JargonWriter.for_service`), kept for
        the service's next call."""
        assert self.jargon is not None
        if self._jargon_of is None or self._jargon_of[0] is not service:
            self._jargon_of = (service, self.jargon.for_service(service.operations))
        return self._jargon_of[1]

    def jargon_line(self, service: Service, op: Operation) -> str:
        """The lexicon's user words BM25 reads for `op` ("" when `jargon` is off)."""
        return " ".join(self._jargon_writer(service).operation_phrases(op)[1]) if self.jargon else ""

    @property
    def _expansion_params(self) -> dict[str, Any]:
        params = {"expansion": self.expansion.limit, "expansion_min_weight": self.expansion.min_weight}
        # the source is recorded only when not the first one: manifests written before it compare
        return params | (
            {"expansion_source": self.expansion_source} if self.expansion_source != "line" else {}
        )

    @property
    def _views_llm_params(self) -> dict[str, Any]:
        llm = self.views_llm
        return {
            "views_llm": llm.model_id if isinstance(llm, LLM) else llm,
            "views_llm_bm25": self.views_llm_bm25,
        }

    @property
    def _alias_params(self) -> dict[str, Any]:
        a = self.aliases
        return {"aliases": a.limit, "alias_senses": a.senses, "alias_hypernyms": a.hypernyms}

    def alias_line(self, op: Operation) -> str:
        """The alias words BM25 reads for `op` ("" when aliases are off)."""
        if not self.aliases.limit:
            return ""
        if self._alias_writer is None:  # WordNet loads once, on the first operation
            self._alias_writer = AliasWriter(self.aliases)
        return " ".join(self._alias_writer.aliases(op.id, short_description(op), op.operation_id or ""))

    @property
    def _embedded(self) -> dict[str, bool]:
        return {
            "embed_context": self.embed_context,
            "embed_resource": self.embed_resource,
            "unwrap": self.unwrap,
            "headers": self.headers,
        }

    @property
    def _line_params(self) -> dict[str, Any]:
        return {**self._embedded, "takes": self.takes}

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        return [
            (self._with_jargon(compact_text(service, op, self.returns, **self._line_params), service, op), "")
            for op in ops
        ]

    def _with_jargon(self, line: str, service: Service, op: Operation) -> str:
        if not self.jargon_embed:
            return line
        phrases = self._jargon_writer(service).operation_phrases(op)[0]
        return f"{line} Users say: {', '.join(phrases)}." if phrases else line

    def contents(self, service: Service, ops: list[Operation]) -> list[str] | None:
        return [
            f"{op.id}\n{json.dumps(thin_operation(op.raw), ensure_ascii=False, default=str)}" for op in ops
        ]

    def chunk_service(self, service: Service) -> list[Chunk]:
        chunks = super().chunk_service(service)
        written = self.view_writer.views_many(service.operations) if self.view_writer else {}
        own = {
            op.id: lexical_text(
                service, op, self.returns, context=self.context, unwrap=self.unwrap, takes=self.takes
            )
            for op in service.operations
        }
        implied = self._implied(service, own)
        lexical = {
            op.id: " ".join(
                part
                for part in (
                    own[op.id],
                    self.alias_line(op),
                    "" if self.jargon_list else self.jargon_line(service, op),
                    implied.get(op.id, ""),
                    " ".join(written.get(op.id, ())) if self.views_llm_bm25 else "",
                )
                if part
            )
            for op in service.operations
        }
        jargon_texts = (
            {op.id: self.jargon_line(service, op) for op in service.operations} if self.jargon_list else {}
        )
        embedded = {"embed_context": self.embed_context, "embed_resource": self.embed_resource}
        views = {
            op.id: [*(view_texts(service, op, **embedded) if self.views else ()), *written.get(op.id, ())]
            for op in service.operations
        }
        for chunk in chunks:
            chunk.metadata[BM25_TEXT] = lexical[chunk.operations[0]]
            if jargon_texts.get(chunk.operations[0]):
                chunk.metadata[JARGON_TEXT] = jargon_texts[chunk.operations[0]]
            if views.get(chunk.operations[0]):
                chunk.metadata[VIEWS_KEY] = views[chunk.operations[0]]
        return chunks

    def _implied(self, service: Service, own: dict[str, str]) -> dict[str, str]:
        """Each operation's SPLADE-implied words, one line ({} when `expansion` is off)."""
        if not self.expansion.limit or not service.operations:
            return {}
        ops = service.operations
        embedded = [text for text, _ in self.embed_parts(service, ops)]
        said = [f"{line} {own[op.id]}" for line, op in zip(embedded, ops, strict=True)]
        if self.expansion_source == "statements":
            context = {"embed_context": self.embed_context, "embed_resource": self.embed_resource}
            read = [f"{op.id}: {'. '.join(_statements(service, op, **context))}" for op in ops]
        else:
            read = embedded
        words = ExpansionWriter(self.expansion).expansions(read, said)
        return {op.id: " ".join(w) for op, w in zip(ops, words, strict=True)}
