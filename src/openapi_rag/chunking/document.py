"""No split and JSON split (Table I of Pesl et al.): token windows over a whole document.

- `whole`: the bundled document as indented JSON, cut into windows of `size` tokens overlapping
  by `overlap` (defaults 100 and 0, the paper's Whole(100,0)).
- `json`: the document flattened to one `path.to.key: value` line per leaf, then windowed.

Each window lists the operations whose path template it contains (see `pathmatch`), in the
order the document declares them, and their summaries in `metadata["summaries"]`.
"""

from __future__ import annotations

import json

from openapi_rag.chunking.base import Strategy
from openapi_rag.chunking.flatten import flatten
from openapi_rag.chunking.pathmatch import PathIndex
from openapi_rag.chunking.split import fitted_windows
from openapi_rag.model import Chunk, Service


class WholeStrategy(Strategy):
    """Token windows over the whole document (no split)."""

    name = "whole"
    kind = "document"
    default_size = 100
    default_overlap = 0

    def document_text(self, service: Service) -> str:
        return json.dumps(service.document, ensure_ascii=False, indent=2, default=str)

    def chunk_service(self, service: Service) -> list[Chunk]:
        text = self.document_text(service)
        index = PathIndex(text, (op.path for op in service.operations))
        chunks: list[Chunk] = []
        position = 0
        for piece, count in fitted_windows(text, self.size, self.overlap, self.tokenizer):
            # Windows are slices of `text`, in order: find each from where the last one started.
            start = text.find(piece, position)
            position = start
            found = index.paths_in(start, start + len(piece))
            ops = [op for op in service.operations if op.path in found]
            meta = self.base_metadata(service)
            meta.update(
                tags=sorted({t for op in ops for t in op.tags}),
                summaries={op.id: op.summary for op in ops if op.summary},
            )
            chunks += self.parts(
                service,
                "document",
                [(piece, count)],
                kind=self.kind,
                operations=[op.id for op in ops],
                metadata=meta,
            )
        return _number(chunks, self.chunk_id(service, "document"))


class JsonStrategy(WholeStrategy):
    """Token windows over the document flattened to one `path.to.key: value` line per leaf."""

    name = "json"

    def document_text(self, service: Service) -> str:
        return "\n".join(flatten(service.document))


def _number(chunks: list[Chunk], parent: str) -> list[Chunk]:
    """Give the windows of one document ids `parent#i` and `part`/`parts`/`parent` metadata."""
    n = len(chunks)
    for i, chunk in enumerate(chunks, 1):
        chunk.id = f"{parent}#{i}"
        chunk.metadata.update(part=i, parts=n, parent=parent)
    return chunks
