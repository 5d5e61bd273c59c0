"""Cleaning: optional, named preprocessing steps that shrink a bundled OpenAPI 3 document.

They are the preprocessing of the Postman-corpus study in the seed literature, there to get large
real documents under an embedding model's token limit without losing what matters for discovery.

Steps (`CLEAN_STEPS`, in the order they run):

    errors    drop 4xx/5xx responses; `default` too when the operation declares a success response
    headers   drop `headers` of 2xx responses
    examples  drop `example`/`examples` values (not properties *named* example)
    base64    replace data URIs and long base64 runs by `<base64>`
    html      strip HTML tags and comments, unescape entities
    markdown  drop markdown markup, keep the words
    urls      remove URLs on a deny-list (default: link shorteners and Postman links; or "all")

Text steps (base64, html, markdown, urls) rewrite prose and example strings only: never keys (so
never path templates), `$ref`s, names, enum/default/const values, `pattern`, `format` or
structural URLs such as `servers[].url`.

`DEFAULT_STEPS` is every step except `errors` and `headers`: error responses and headers (rate
limits, pagination) can be what a query is about, so dropping them is opt-in.

    >>> from openapi_rag.clean import clean_document, parse_steps
    >>> cleaned, removed = clean_document(doc, parse_steps("default,errors"))  # doctest: +SKIP
    >>> removed  # apideck accounting.yml, default counter  # doctest: +SKIP
    {'errors': 18900, 'examples': 18270, 'base64': 16, 'html': 34, 'markdown': 6292, 'urls': 26}
"""

from openapi_rag.clean.base64_text import strip_base64
from openapi_rag.clean.examples import drop_examples
from openapi_rag.clean.html_text import strip_html
from openapi_rag.clean.markdown_text import strip_markdown
from openapi_rag.clean.pipeline import TokenCounter, clean_document, count_tokens_simple
from openapi_rag.clean.registry import CLEAN_STEPS, DEFAULT_STEPS, CleanStep, parse_steps
from openapi_rag.clean.responses import drop_error_responses, drop_success_headers
from openapi_rag.clean.urls import DEFAULT_URL_DENY, UrlDeny, make_url_cleaner, remove_urls

__all__ = [
    "CLEAN_STEPS",
    "CleanStep",
    "DEFAULT_STEPS",
    "DEFAULT_URL_DENY",
    "TokenCounter",
    "UrlDeny",
    "clean_document",
    "count_tokens_simple",
    "drop_error_responses",
    "drop_examples",
    "drop_success_headers",
    "make_url_cleaner",
    "parse_steps",
    "remove_urls",
    "strip_base64",
    "strip_html",
    "strip_markdown",
]
