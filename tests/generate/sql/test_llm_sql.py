"""The llm generator and the table policies, driven by a scripted LLM (control flow only)."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_rag.generate.sql import DbSchema, load_db_schema, open_database
from openapi_rag.generate.sql.answer import answer_sql, generate_sql
from openapi_rag.generate.sql.classify import classify, classify_rules
from openapi_rag.generate.sql.llm_sql import select_tables
from tests.llm.doubles import ScriptedLLM


def _sql_reply(sql: str, tables: list[str]) -> str:
    return json.dumps({"sql": sql, "tables": tables})


def test_llm_sql_is_checked_and_run(music_db: Path) -> None:
    schema = load_db_schema(music_db)
    llm = ScriptedLLM([_sql_reply("SELECT name FROM artists ORDER BY popularity DESC LIMIT 2", ["artists"])])
    answer = answer_sql(
        "the two most popular artists", schema, open_database(music_db), generator="llm", llm=llm
    )
    assert answer.executed and len(answer.rows) == 2 and answer.tables == ["artists"]
    prompt = llm.calls[0]["messages"][-1]["content"]
    assert "Table artists" in prompt and "popularity INTEGER" in prompt  # the table chunk is the context
    assert answer.llm["calls"] == 1


def test_llm_writes_and_inventions_are_refused_before_running(music_db: Path) -> None:
    schema = load_db_schema(music_db)
    connection = open_database(music_db)
    for sql, why in [
        ("DELETE FROM artists", "only SELECT is allowed"),
        ("SELECT 1; DROP TABLE artists", "one statement expected"),
        ("SELECT * FROM concerts", "no table 'concerts'"),
    ]:
        llm = ScriptedLLM([_sql_reply(sql, [])])
        answer = answer_sql("anything", schema, connection, generator="llm", llm=llm)
        assert not answer.executed and answer.rows == []
        assert any(why in p for p in answer.problems), answer.problems
    assert connection.execute("SELECT count(*) FROM artists").fetchone()[0] == 30


def test_llm_reply_outside_json_and_empty_answer(music_schema: DbSchema) -> None:
    fenced = ScriptedLLM(["Here you go:\n```sql\nSELECT COUNT(*) FROM albums\n```"])
    assert (
        generate_sql("count albums", music_schema, generator="llm", llm=fenced).sql
        == "SELECT COUNT(*) FROM albums"
    )
    nothing = ScriptedLLM([_sql_reply("", [])])
    answer = generate_sql("weather in Lisbon", music_schema, generator="llm", llm=nothing)
    assert answer.sql == "" and "no table answers" in answer.problems[0]


def test_self_rag_drops_tables_judged_irrelevant(music_schema: DbSchema) -> None:
    ranked = select_tables("albums and their artists", music_schema)
    assert [h.table.name for h in ranked][:2] == ["albums", "artists"]
    scores = iter(['{"score": 0.9}', '{"score": 0.05}', "it depends"] + ['{"score": 0}'] * 5)
    llm = ScriptedLLM(reply_fn=lambda messages: next(scores))
    kept = select_tables("albums and their artists", music_schema, policy="self-rag", llm=llm)
    names = [h.table.name for h in kept]
    assert names[0] == "albums" and "artists" not in names
    assert len(names) == 2  # the unreadable judgement keeps its table


def test_corag_rounds_until_enough(music_schema: DbSchema) -> None:
    llm = ScriptedLLM(
        [
            '{"query": "albums"}',
            '{"relevant": ["albums"], "enough": false}',
            '{"query": "artist popularity"}',
            '{"relevant": ["artists"], "enough": true}',
        ]
    )
    kept = select_tables("popular artists' albums", music_schema, policy="corag", llm=llm)
    assert [h.table.name for h in kept] == ["albums", "artists"]
    assert len(llm.calls) == 4


def test_offline_generator_under_an_llm_policy_reads_only_kept_tables(music_schema: DbSchema) -> None:
    llm = ScriptedLLM(reply_fn=lambda messages: '{"score": 0.0}')  # every table judged irrelevant
    answer = generate_sql("How many artists are there?", music_schema, policy="self-rag", llm=llm)
    assert answer.sql == "" and "no table answers" in answer.problems[0]


def test_classification_rules_and_llm() -> None:
    assert classify_rules("Could you please cancel reservation 12?") == "change"
    assert classify_rules("How many rooms are free?") == "read"
    assert classify_rules("Show me my playlists") == "read"
    assert classify_rules("Turn on shuffle") == "change"
    assert classify_rules("I'd like to book a table for two") == "change"
    assert classify_rules("I lost my card, please block it") == "change"
    assert classify_rules("Show the blocked cards") == "read"
    assert classify_rules("Records of payments from last week") == "read"
    assert classify("Delete my account", ScriptedLLM(['{"kind": "change"}'])) == ("change", {"by": "llm"})
    kind, how = classify("List rooms", ScriptedLLM(["hmm"]))
    assert kind == "read" and how["by"] == "rules"


def test_policies_are_the_shared_ones_told_they_judge_tables(music_schema: DbSchema) -> None:
    from openapi_rag.generate.sql.llm_sql import LlmTrace

    llm = ScriptedLLM(reply_fn=lambda messages: '{"score": 0.9}')
    trace = LlmTrace()
    kept = select_tables("albums and their artists", music_schema, policy="self-rag", llm=llm, trace=trace)
    assert kept and trace.calls == len(llm.calls) == len(kept) and trace.stop == "filter"
    first = llm.calls[0]["messages"]
    assert "database tables" in first[0]["content"]
    assert first[-1]["content"].startswith(
        "Request: albums and their artists\nDatabase table: albums: Table albums"
    )


def test_corag_reads_table_names_as_the_llm_spells_them(music_schema: DbSchema) -> None:
    llm = ScriptedLLM(
        ['{"query": "albums and artists"}', '{"relevant": ["`Albums`", "main.ARTISTS"], "enough": true}']
    )
    kept = select_tables("albums by artist", music_schema, policy="corag", llm=llm)
    assert [h.table.name for h in kept] == ["albums", "artists"]
    judge = llm.calls[1]["messages"][-1]["content"]
    assert "Retrieved tables:" in judge and '"relevant": ["table", ...]' in judge


def test_llm_reply_cut_off_after_its_sql_keeps_the_statement(music_schema: DbSchema) -> None:
    cut = ScriptedLLM(
        ['{"sql": "SELECT COUNT(*) FROM albums WHERE name = \\"x\\"", "tables": ["table", "tab']
    )
    answer = generate_sql("count albums", music_schema, generator="llm", llm=cut)
    assert answer.sql == 'SELECT COUNT(*) FROM albums WHERE name = "x"' and answer.llm["parse_failures"] == 1
