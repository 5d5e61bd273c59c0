"""The `markdown` step: drop markdown markup, keep the words.

Removed: heading `#`s and setext underlines, horizontal rules, blockquote `>`, list bullets
(ordered-list numbers stay: they carry order), code fence lines and inline-code backticks (the code
stays), emphasis and strikethrough markers, images (alt text too: mostly badges), links and
reference links (`[text](url)` -> `text`), link definitions, table pipes and delimiter rows.

Careful regular expressions rather than a markdown library: we do not render, only drop markup, and
a CommonMark parser would also reinterpret text that was never meant as markdown (YAML-indented
prose read as code blocks, `<placeholders>` as HTML, `*` wildcards, snake_case), would add a
dependency and would run several times slower over the millions of strings of a large corpus.
Code (fenced blocks, inline spans) and bare URLs are left as they are, so `**kwargs`, `# comment`
or `a_b_c` inside them survive. Backslash escapes are kept: they are rare in API prose and common
in the regular expressions and Windows paths that descriptions quote.
"""

from __future__ import annotations

import re

# A quick test: strings without any of these cannot hold markup we remove.
_HINT = re.compile(r"[`*#|>~\[]|(?<![\w_])_|^[ \t]*(?:[-+][ \t]|={3,}|-{3,})", re.MULTILINE)

_FENCE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n(?P<code>.*?)(?:^[ \t]*(?P=fence)[`~]*[ \t]*$|\Z)",
    re.MULTILINE | re.DOTALL,
)
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
_RULE = re.compile(r"^[ \t]{0,3}(?:={3,}|(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$\n?", re.MULTILINE)
_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+", re.MULTILINE)
_BULLET = re.compile(r"^[ \t]*[-*+][ \t]+(?=\S)", re.MULTILINE)
_LINK_DEF = re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+.*$\n?", re.MULTILINE)
_TABLE_DELIM = re.compile(
    r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$\n?|"
    r"^[ \t]*\|[ \t]*:?-+:?[ \t]*\|[ \t]*$\n?",
    re.MULTILINE,
)
_TABLE_ROW = re.compile(r"^[ \t]*\|.*$", re.MULTILINE)
_PIPE_ROW = re.compile(r"^.*\|.*$", re.MULTILINE)
_CELL_SPLIT = re.compile(r"[ \t]*(?<!\\)\|[ \t]*")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.{1,2000}?)(?<!`)\1(?!`)", re.DOTALL)

_IMAGE = re.compile(
    r"!\[[^\]\n]*\](?:\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+\"[^\"\n]*\")?\)|\[[^\]\n]*\])[ \t]*"
)
_LINK = re.compile(r"\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+\"[^\"\n]*\")?\)")
_REF_LINK = re.compile(r"\[([^\[\]\n]+)\]\[[^\[\]\n]*\]")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)>")
# Spans are bounded (500 characters, one line) so a line full of unmatched `**` stays linear.
_EMPHASIS = re.compile(
    r"(?P<url>https?://[^\s<>\"'`]+)"
    r"|(?<![\w*])\*\*(?=\S)(?P<s1>[^\n]{1,500}?)(?<=\S)\*\*(?![\w*])"
    r"|(?<!\w)__(?=\S)(?P<s2>[^\n]{1,500}?)(?<=\S)__(?!\w)"
    r"|(?<![\w*])\*(?=[^\s*])(?P<e1>[^\n*]{1,500}?)(?<=[^\s*])\*(?![\w*])"
    r"|(?<![\w_])_(?=[^\s_])(?P<e2>[^\n_]{1,500}?)(?<=[^\s_])_(?![\w_])"
    r"|~~(?=\S)(?P<del>[^\n]{1,500}?)(?<=\S)~~"
)
_WORD = re.compile(r"[^\W_]")
_HARD_BREAK = re.compile(r"(?:\\| {2,})$", re.MULTILINE)
_TRAILING = re.compile(r"[ \t]+$", re.MULTILINE)
_BLANK_LINES = re.compile(r"\n{3,}")


def _emphasis(match: re.Match[str]) -> str:
    if match.group("url"):
        return match.group()
    inner = next(g for g in match.group("s1", "s2", "e1", "e2", "del") if g is not None)
    if not _WORD.search(inner):  # `*/*`, `_-_`: wildcards and art, not emphasis
        return match.group()
    return _EMPHASIS.sub(_emphasis, inner)  # nested: ***a***, **_a_**


def _table(text: str) -> str:
    has_delim = _TABLE_DELIM.search(text) is not None
    text = _TABLE_DELIM.sub("", text)

    def row(match: re.Match[str]) -> str:
        line = match.group().strip()
        if has_delim or (line.startswith("|") and line.endswith("|")):
            cells = (cell.strip() for cell in _CELL_SPLIT.split(line.strip("|")))
            return " ".join(cell for cell in cells if cell)
        return match.group()

    return (_PIPE_ROW if has_delim else _TABLE_ROW).sub(row, text)


def _inline(text: str) -> str:
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    return _EMPHASIS.sub(_emphasis, text)


def _prose(text: str) -> str:
    text = _LINK_DEF.sub("", text)
    text = _HEADING.sub(lambda m: m.group(1) or "", text)
    text = _RULE.sub("", text)
    text = _QUOTE.sub("", text)
    text = _BULLET.sub("", text)
    if "|" in text:
        text = _table(text)
    text = _HARD_BREAK.sub("", text)
    # Inline code keeps its content and loses its backticks; the rest loses inline markup.
    parts: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_inline(text[last : span.start()]))
        parts.append(span.group(2).strip(" ") or span.group(2))
        last = span.end()
    parts.append(_inline(text[last:]))
    return "".join(parts)


def strip_markdown(text: str) -> str:
    """`text` without markdown markup (the same object if there was none)."""
    if not _HINT.search(text):
        return text
    parts: list[str] = []
    last = 0
    for block in _FENCE.finditer(text):
        parts.append(_prose(text[last : block.start()]))
        parts.append(block.group("code"))
        last = block.end()
    parts.append(_prose(text[last:]))
    new = "".join(parts)
    if new == text:
        return text
    return _BLANK_LINES.sub("\n\n", _TRAILING.sub("", new)).strip()
