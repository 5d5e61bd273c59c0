"""The `html` step: strip HTML tags and comments, unescape entities, keep the text.

Regular expressions rather than `html.parser`: API descriptions are mostly prose with a few tags,
and placeholders such as `<bill_id>`, `<token>` or `List<String>` must survive. `HTMLParser` would
treat every one of them as a tag. Here a tag is removed only when its name is an HTML element and
it looks like markup: a closing tag, a tag with attributes, a self-closing tag, one of the usual
formatting tags, or an opening tag whose closing tag is in the same text (so `<code>` alone, used
as a placeholder, stays). Only entities ending in `;` are unescaped, because `html.unescape` also
reads legacy forms such as `&not` and would turn the query string `a=1&notify=2` into `a=1¬ify=2`.
"""

from __future__ import annotations

import html
import re

_BLOCK = frozenset(
    "address article aside blockquote body br caption center dd details dialog div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hr html li main nav ol p pre "
    "section summary table tbody tfoot thead tr ul".split()
)
_INLINE = frozenset(
    "a abbr b bdi bdo big button cite code col colgroup data del dfn em font i img ins kbd label "
    "legend mark meter noscript object option output picture q s samp select small source span "
    "strike strong sub sup td template textarea th time title tt u var video audio wbr iframe "
    "input link meta embed area map".split()
)
_ELEMENTS = _BLOCK | _INLINE
# Formatting tags commonly left unclosed (`<p>`, `<br>`, `<li>`) or too unlikely to be placeholders.
_ALWAYS = frozenset(
    "b big blockquote br center dd div dl dt em font h1 h2 h3 h4 h5 h6 hr i img li ol p pre small "
    "span strong sub sup table tbody td th thead tr tt u ul wbr".split()
)
# Cells become spaces so words in adjacent cells stay apart.
_SPACED = frozenset({"td", "th"})

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_BLOCK_OPEN = re.compile(r"<(script|style)\b[^>]*>", re.IGNORECASE)
_BLOCK_CLOSE = {
    "script": re.compile(r"</script\s*>", re.IGNORECASE),
    "style": re.compile(r"</style\s*>", re.IGNORECASE),
}
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)((?:\s[^<>]*?)?)(/?)>")
_CLOSING = re.compile(r"</([A-Za-z][A-Za-z0-9]*)\s*>")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_SPACES = re.compile(r"(?<=\S)[ \t]{2,}")
_TRAILING = re.compile(r"[ \t]+$", re.MULTILINE)
_BLANK_LINES = re.compile(r"\n{3,}")


def _drop_code_blocks(text: str) -> str:
    """`text` without `<script>`/`<style>` elements and their content.

    A loop rather than one `<script>.*?</script>` pattern: with many unclosed openings that
    pattern rescans the rest of the text from each of them.
    """
    parts: list[str] = []
    pos = 0
    unclosed: set[str] = set()  # kinds with no closing tag left: skip their openings
    for opening in _BLOCK_OPEN.finditer(text):
        kind = opening.group(1).lower()
        if opening.start() < pos or kind in unclosed:
            continue
        closing = _BLOCK_CLOSE[kind].search(text, opening.end())
        if closing is None:
            unclosed.add(kind)
            continue
        parts.append(text[pos : opening.start()])
        pos = closing.end()
    parts.append(text[pos:])
    return "".join(parts)


def strip_html(text: str) -> str:
    """`text` without HTML markup and with entities unescaped (the same object if there was none)."""
    if "<" not in text and "&" not in text:
        return text
    new = text
    if "<" in text:
        new = _drop_code_blocks(_COMMENT.sub("", new))
        closed = {name.lower() for name in _CLOSING.findall(new)}

        def tag(match: re.Match[str]) -> str:
            closing, name, attrs, self_closing = match.groups()
            name = name.lower()
            if name not in _ELEMENTS:
                return match.group()
            if not (closing or attrs.strip() or self_closing or name in _ALWAYS or name in closed):
                return match.group()
            if name in _BLOCK:
                return "\n"
            return " " if name in _SPACED else ""

        new = _TAG.sub(tag, new)
    if "&" in new:
        # `&nbsp;` becomes a plain space: a no-break space only splits tokens oddly.
        new = _ENTITY.sub(lambda m: html.unescape(m.group()).replace("\xa0", " "), new)
    if new == text:
        return text
    new = _BLANK_LINES.sub("\n\n", _TRAILING.sub("", _SPACES.sub(" ", new)))
    return new.strip()
