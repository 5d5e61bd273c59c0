"""Fitting texts into the embedding model's input: token windows and splits at logical boundaries.

Two ways to cut a text that is too long:

- `windows_with_header`: token windows (size, overlap) over a body, each headed by a line naming
  what it belongs to (`GET /users (part 2 of 3)`), for the paper's token-based strategies.
- `fit_blocks`: for the readable texts of the reference-aware strategies, which are built from
  `Block`s (a head and items, such as `requestBody: Campaign (object) — ` and its properties).
  Parts are filled with whole blocks; a block too big for any part flows across parts between
  its items, its head repeated in each part; only a single oversized item is cut into windows.

Tokenizing is what costs, so every piece of text is counted once (`measure`, in one batch) and
counts of joined pieces are summed. That is exact for WordPiece (MiniLM), which never merges
tokens across whitespace or punctuation, and every join here is at whitespace or punctuation.
For other tokenizers (BPE) the finished texts are recounted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from openapi_rag.tokens import Tokenizer, windows

# Below this many tokens of room a header-and-groups split makes no sense: plain windows instead.
_MIN_ROOM = 8
# Tokenizers whose count of `a + sep + b` is count(a) + count(sep) + count(b) when sep holds
# whitespace or punctuation (BERT's pre-tokenizer splits there first).
ADDITIVE_TOKENIZERS = frozenset({"minilm"})


@dataclass
class Block:
    """A logical unit of a chunk text: `head` followed by `items` joined with `sep`.

    The counts are filled in by `measure`.
    """

    head: str = ""
    items: list[str] = field(default_factory=list)
    sep: str = ", "
    head_count: int = 0
    sep_count: int = 0
    item_counts: list[int] = field(default_factory=list)

    def text(self) -> str:
        return self.head + self.sep.join(self.items)

    def count(self) -> int:
        return self.head_count + sum(self.item_counts) + self.sep_count * max(len(self.items) - 1, 0)


def join_blocks(header: str, blocks: Sequence[Block]) -> str:
    """The full text: the header line, then one line per non-empty block."""
    lines = [header, *(b.text() for b in blocks)]
    return "\n".join(line for line in lines if line)


def measure(units: Sequence[tuple[str, Sequence[Block]]], tokenizer: Tokenizer) -> list[int]:
    """Count every header, head and item in one batch; fill the blocks' counts.

    Returns:
        The token count of `join_blocks(header, blocks)` for each unit (exact for additive
        tokenizers, an estimate otherwise).
    """
    seps = sorted({block.sep for _, blocks in units for block in blocks})
    strings = list(seps)
    for header, blocks in units:
        strings.append(header)
        for block in blocks:
            strings.append(block.head)
            strings.extend(block.items)
    counts = iter(tokenizer.count_many(strings))
    sep_counts = {sep: next(counts) for sep in seps}
    newline = tokenizer.count("\n")
    totals: list[int] = []
    for header, blocks in units:
        total = next(counts)
        lines = 1 if header else 0  # empty lines are left out of the text
        for block in blocks:
            block.head_count = next(counts)
            block.item_counts = [next(counts) for _ in block.items]
            block.sep_count = sep_counts[block.sep]
            if block.text():
                total += block.count()
                lines += 1
        totals.append(total + newline * max(lines - 1, 0))
    return totals


def part_header(header: str, part: int, parts: int) -> str:
    return f"{header} (part {part} of {parts})"


def fitted_windows(text: str, size: int, overlap: int, tokenizer: Tokenizer) -> list[tuple[str, int]]:
    """Token windows of `text` with their counts, each guaranteed to count at most `size` tokens.

    A window cut inside a word starts with a word piece that can count as more tokens on its
    own (`##ization` is one token, `ization` two), so windows are recounted and, when one is over,
    cut again a little smaller.
    """
    target = size
    while True:
        pieces = windows(text, target, min(overlap, target - 1), tokenizer)
        counts = tokenizer.count_many(pieces)
        excess = max((c - size for c in counts), default=0)
        if excess <= 0 or target <= 1:
            return list(zip(pieces, counts, strict=True))
        target = max(1, target - excess)


def windows_with_header(
    header: str, body: str, size: int, overlap: int, tokenizer: Tokenizer
) -> list[tuple[str, int]]:
    """Token windows over `body`, each headed by `header (part i of n)`; every text fits `size`."""
    header = shorten(header, size, tokenizer)
    room = size - _header_cost(header, tokenizer)
    pieces = fitted_windows(body, room, overlap, tokenizer)
    if len(pieces) == 1:
        texts = [f"{header}\n{pieces[0][0]}"]
    else:
        texts = [f"{part_header(header, i, len(pieces))}\n{p}" for i, (p, _) in enumerate(pieces, 1)]
    return recounted(texts, size, tokenizer)


def recounted(texts: list[str], size: int, tokenizer: Tokenizer) -> list[tuple[str, int]]:
    """`(text, count)` for each text; one still over `size` (a BPE join) is cut into windows."""
    out: list[tuple[str, int]] = []
    for text, count in zip(texts, tokenizer.count_many(texts), strict=True):
        out.extend([(text, count)] if count <= size else fitted_windows(text, size, 0, tokenizer))
    return out


def _header_cost(header: str, tokenizer: Tokenizer) -> int:
    # The widest part header we will write, and the newline after it (a token for BPE tokenizers).
    return tokenizer.count(part_header(header, 999, 999) + "\n")


def shorten(header: str, size: int, tokenizer: Tokenizer) -> str:
    """A header takes at most a third of a chunk (some summaries are whole paragraphs)."""
    limit = max(size // 3, 2)
    if tokenizer.count(header) <= limit:
        return header
    return fitted_windows(header, limit - 1, 0, tokenizer)[0][0] + " …"


def fit_blocks(
    header: str, blocks: Sequence[Block], total: int, size: int, tokenizer: Tokenizer
) -> list[tuple[str, int]]:
    """`join_blocks(header, blocks)` as texts of at most `size` tokens, with their counts.

    Args:
        header: the first line; every part of a split text starts with `header (part i of n)`.
        blocks: measured blocks (see `measure`).
        total: the measured count of the whole text.
    """
    additive = tokenizer.name in ADDITIVE_TOKENIZERS
    if total <= size:
        text = join_blocks(header, blocks)
        return [(text, total)] if additive else recounted([text], size, tokenizer)
    header = shorten(header, size, tokenizer)
    room = size - _header_cost(header, tokenizer)
    blocks = [b for b in blocks if b.text()]
    if room < _MIN_ROOM:
        return fitted_windows(join_blocks(header, blocks), size, 0, tokenizer)
    newline = tokenizer.count("\n")
    layout = _Layout(room, newline)
    for block in blocks:
        count = block.count()
        if count <= room:
            layout.add(block.text(), count)
        else:
            _flow(block, layout, tokenizer)
    n = len(layout.parts)
    heads = [part_header(header, i, n) for i in range(1, n + 1)]
    texts = [head + "\n" + "\n".join(lines) for head, (lines, _) in zip(heads, layout.parts, strict=True)]
    if not additive:
        return recounted(texts, size, tokenizer)
    head_counts = tokenizer.count_many(heads)
    return [
        (text, head_count + newline + used)
        for text, head_count, (_, used) in zip(texts, head_counts, layout.parts, strict=True)
    ]


class _Layout:
    """Parts being filled: each a list of lines and their token count (newlines between included)."""

    def __init__(self, room: int, newline: int) -> None:
        self.room = room
        self.newline = newline
        self.parts: list[tuple[list[str], int]] = []

    def free(self) -> int:
        """Tokens left in the open part for one more line (0 when no part is open)."""
        if not self.parts:
            return 0
        lines, used = self.parts[-1]
        return self.room - used - (self.newline if lines else 0)

    def new_part(self) -> None:
        self.parts.append(([], 0))

    def add(self, line: str, count: int) -> None:
        """Add a whole line, opening a new part when it does not fit the open one."""
        if count > self.free():
            self.new_part()
        lines, used = self.parts[-1]
        self.parts[-1] = ([*lines, line], used + count + (self.newline if lines else 0))


def _flow(block: Block, layout: _Layout, tokenizer: Tokenizer) -> None:
    """Lay out a block bigger than a part: groups of its items, each group under the block's head."""
    head_cost, sep_cost = block.head_count, block.sep_count
    item_room = layout.room - head_cost
    if item_room < _MIN_ROOM or not block.items:
        for piece, count in fitted_windows(block.text(), layout.room, 0, tokenizer):
            layout.add(piece, count)
        return
    items: list[str] = []
    counts: list[int] = []
    for item, count in zip(block.items, block.item_counts, strict=True):
        if count <= item_room:
            items.append(item)
            counts.append(count)
        else:
            for piece, piece_count in fitted_windows(item, item_room, 0, tokenizer):
                items.append(piece)
                counts.append(piece_count)
    group: list[str] = []
    cost = head_cost
    available = layout.free()
    if available < head_cost + counts[0]:  # not even the first item fits beside what is there
        layout.new_part()
        available = layout.free()
    for item, count in zip(items, counts, strict=True):
        extra = count + (sep_cost if group else 0)
        if group and cost + extra > available:
            layout.add(block.head + block.sep.join(group), cost)
            layout.new_part()
            available = layout.free()
            group, cost, extra = [], head_cost, count
        group.append(item)
        cost += extra
    layout.add(block.head + block.sep.join(group), cost)
