from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from tokenizers import Tokenizer as HFTokenizer

from openapi_rag import tokens
from openapi_rag.tokens import (
    Tokenizer,
    UnknownTokenizer,
    get_tokenizer,
    list_tokenizers,
    minilm_tokenizer_path,
    windows,
)

SENTENCE = "The quick brown Fox jumps over the lazy dog"


@pytest.fixture(scope="module")
def minilm() -> Tokenizer:
    return get_tokenizer("minilm")


def test_names_aliases_and_limits():
    assert list_tokenizers() == ["cl100k_base", "minilm", "o200k_base"]
    assert get_tokenizer() is get_tokenizer("all-MiniLM-L6-v2") is get_tokenizer("minilm")
    assert get_tokenizer("cl100k") is get_tokenizer("cl100k_base")
    assert (get_tokenizer().max_length, get_tokenizer().special_tokens) == (256, 2)
    assert get_tokenizer("cl100k_base").max_length == 8191
    assert isinstance(get_tokenizer("o200k_base"), Tokenizer)


def test_unknown_tokenizer_lists_the_valid_names():
    with pytest.raises(UnknownTokenizer, match=r"Unknown tokenizer 'gpt2'\. Valid names: cl100k_base"):
        get_tokenizer("gpt2")


def test_minilm_counts_without_special_tokens_and_decodes_lower_case(minilm):
    assert minilm.encode("hello world") == [7592, 2088]
    assert minilm.count("hello world") == 2
    assert minilm.count("") == 0
    assert minilm.decode(minilm.encode("Hello World")) == "hello world"
    assert minilm.name == "minilm"


def test_minilm_never_truncates_or_pads(minilm):
    # The shipped tokenizer.json pads/truncates to 128; counting must see all 1000 words.
    assert minilm.count("word " * 1000) == 1000
    assert minilm.count_many(["a", "word " * 300, ""]) == [1, 300, 0]


def test_long_texts_split_into_pieces_count_exactly(minilm):
    # Over the piece size, with a stretch that has no whitespace (minified JSON) to cut at punctuation.
    text = ("Get the user's playlists. Ça coûte 5€ — naïve café!\n" * 400) + '{"a":[1,2],"b":"c"}' * 1500
    assert len(text) > 3 * tokens._PIECE_CHARS
    reference = HFTokenizer.from_file(str(minilm_tokenizer_path()))
    reference.no_truncation()
    reference.no_padding()
    expected = reference.encode(text, add_special_tokens=False).ids
    assert minilm.count(text) == len(expected)
    assert minilm.encode(text) == expected
    assert minilm.count_many([text, "hello world", text]) == [len(expected), 2, len(expected)]


def test_spans_point_into_the_original_text(minilm):
    text = "Café NAÏVE 日本"
    spans = minilm.spans(text)
    assert [text[s:e] for s, e in spans] == ["Café", "NAÏVE", "日", "本"]


def test_windows_exact_with_overlap(minilm):
    assert windows(SENTENCE, 4, 1, minilm) == ["The quick brown Fox", "Fox jumps over the", "the lazy dog"]
    assert windows(SENTENCE, 3, 0) == ["The quick brown", "Fox jumps over", "the lazy dog"]
    assert windows(SENTENCE, 100, 10) == [SENTENCE]
    assert windows("  ", 4, 1) == []


def test_windows_keep_case_and_unicode(minilm):
    assert windows("Ça VA? Café naïve", 3, 1, minilm) == ["Ça VA?", "? Café naïve"]


def test_windows_share_exactly_overlap_tokens(minilm):
    text = " ".join(f"w{i}" for i in range(50))  # "w12" is two tokens: w, ##12
    size, overlap = 16, 5
    spans = minilm.spans(text)
    parts = windows(text, size, overlap, minilm)
    step = size - overlap
    assert len(parts) == 1 + -(-(len(spans) - size) // step)
    for k, part in enumerate(parts):
        first = k * step
        last = min(first + size, len(spans)) - 1
        assert part == text[spans[first][0] : spans[last][1]]
    # Window k+1 starts at the token `overlap` tokens before window k ends.
    assert parts[1].startswith(text[spans[step][0] : spans[size - 1][1]])
    assert parts[0].endswith(text[spans[step][0] : spans[size - 1][1]])
    assert parts[-1].endswith("w49")


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (4, 4), (4, -1)])
def test_windows_refuse_bad_sizes(size, overlap):
    with pytest.raises(ValueError, match="size > overlap >= 0"):
        windows("text", size, overlap)


@pytest.mark.parametrize(
    ("name", "ids"),
    [("cl100k_base", [15339, 1917]), ("o200k_base", [24912, 2375])],
)
def test_tiktoken_known_values_offline(name, ids):
    tok = get_tokenizer(name)
    assert tok.encode("hello world") == ids
    assert tok.count("hello world") == 2
    assert tok.count_many(["hello world", ""]) == [2, 0]
    assert tok.decode(ids) == "hello world"
    assert tok.special_tokens == 0


def test_tiktoken_treats_special_token_text_as_text():
    tok = get_tokenizer("cl100k_base")
    assert tok.count("see <|endoftext|> here") > 3
    assert tok.decode(tok.encode("see <|endoftext|> here")) == "see <|endoftext|> here"


def test_tiktoken_windows_cover_multi_token_characters():
    tok = get_tokenizer("cl100k_base")
    text = "emoji 😀🎉 and 日本語 text " * 5
    parts = windows(text, 5, 0, tok)
    assert "".join(parts) == text  # byte-level BPE tokens cover every character, spaces included
    # A character split over two tokens goes whole to the later window, which may then count one more.
    assert all(tok.count(p) <= 5 + 1 for p in parts)


def test_tiktoken_loads_without_network(monkeypatch):
    import tiktoken.load
    import tiktoken.registry

    def no_network(url: str) -> bytes:
        raise AssertionError(f"tried to download {url}")

    monkeypatch.setattr(tiktoken.load, "read_file", no_network)
    monkeypatch.delitem(tiktoken.registry.ENCODINGS, "o200k_base", raising=False)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "/nonexistent-user-setting")
    tokens._load_tokenizer.cache_clear()
    try:
        assert get_tokenizer("o200k_base").count("hello world") == 2
    finally:
        tokens._load_tokenizer.cache_clear()
    seeded = Path(os.environ["OPENAPI_RAG_HOME"], "cache", "tiktoken")
    url = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
    assert (seeded / hashlib.sha1(url.encode()).hexdigest()).is_file()
    assert os.environ["TIKTOKEN_CACHE_DIR"] == "/nonexistent-user-setting"  # restored
