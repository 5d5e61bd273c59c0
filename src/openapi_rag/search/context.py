"""Which pieces of a request give context rather than ask for an action.

"We closed that savings account last month. Please cancel its bank feed right away. Make sure
no statement comes through for it." asks for one operation; its other sentences give context, an
identifier or a preference. Searched on their own they pull in operations the request does not
want (account and statement operations here), so `clauses.intents` drops them (`is_context`).

Two rules (`SearchSettings.context_rule`):

- "statement" (the default): a piece gives context unless it asks for something. It asks when it
  is a question, opens (after lead-ins such as "please", "then", "could you") with an action verb
  or an imperative, or says what the writer wants ("I'd like to ...", "we need ..."). It gives
  context when it opens with a requirement, a greeting or a courtesy ("please make sure ...",
  "thanks"), with a subordinate clause ("before we send it ..."), or is a statement: a subject and
  a verb saying what is, was or has been ("My account ID is 0123", "Tom is on leave from Monday",
  "A customer moved last week", "We report in NZD"). A noun phrase ("the operational status of
  monitored machinery") is part of an intent.
- "subject": the earlier, narrower rule: a requirement or courtesy, or a subject word ("my",
  "the", "it" ...) followed by a copula within its first words.

No tagger is used: a part-of-speech model would need weights this package does not ship, and the
few word lists below are all the rule reads (the imperatives and statements of requests are
regular enough).
"""

from __future__ import annotations

import re

from openapi_rag.search.actions import CONTRACTIONS, IMPERATIVES, LEAD_INS, clause_methods, verb_lexicon
from openapi_rag.search.dependencies import names_a_thing
from openapi_rag.search.tokenize import STOPWORDS

CONTEXT_RULES = ("statement", "subject", "main_clause")

_WORDS = re.compile(r"[a-z']+")  # the "subject" rule's words: "it's" is one

STATEMENT_SUBJECTS = frozenset(
    """my our your his her their its the this that these those it i we he she they there a an no
    nothing none all every each some any both""".split()
)
"""Words that open a statement ("My account ID is 0123", "The order was placed yesterday")."""
COPULAS = frozenset("is are was were am be been have has had s re m ve ll".split())
"""A statement's verb: it says what something is or has, and asks for nothing ("'s", "'re", "'m",
"'ve" and "'ll" as the word list splits them)."""
FINITE = COPULAS | frozenset(
    """do does did will would shall should may might must
    wants needs asks says likes prefers requires expects goes gets sends keeps asked wanted needed
    paid gave got went came took told said sent made bought broke won left ran began kept met lost
    saw sold spent forgot wrote""".split()
)
"""Signs that a piece which does not open with an action verb is a statement about something
("Tom is on leave from Monday", "Finance asked me for it", "The release broke checkout"): a
copula or auxiliary among its first words, or a common past or third-person verb right after its
subject. Verbs ending in -ed count there too."""
SUBORDINATORS = frozenset("before because since although though unless until whereas if when as so".split())
"""Words that open a subordinate clause: a condition or a reason, not an action of its own."""
REQUIREMENTS = frozenset(
    """sure ensure note remember thanks thank keep bear mind assume assuming given regards hi hello
    hey oops sorry cheers fyi""".split()
)
"""Words that open a requirement, a greeting or a courtesy ("please make sure ...", "thanks")."""
WISHES = frozenset("want wants need needs like would wish i'd we'd let prefer request ask".split())
"""Words that make a statement a request ("I'd like to have ...", "we need to be ...")."""
INDEFINITES = frozenset(
    "one someone somebody everyone everybody nobody anyone anybody something everything".split()
)
"""Indefinite pronouns that open a statement like a determiner's noun ("One of our clients
overpaid", "Someone deleted the page"): read as subjects by the "main_clause" rule."""
PERSONS = frozenset("i we they he she it".split())
"""Personal pronouns: what follows one is its verb, so a piece opening with one that asks for
nothing ("We report in NZD", "They say they never got it") is a statement."""
_ADVERBS = frozenset(
    "already just still never also only always often recently accidentally currently no longer".split()
)
_RELATIVES = frozenset("that which who whom whose where when if".split())
_QUESTIONS = frozenset("what which who whom whose how where why is are do does did can could".split())
_PRONOUNS = frozenset("it that there he she what who here".split())  # "it's" is "it is"; "Tom's" is not
_OPENERS = (LEAD_INS - STATEMENT_SUBJECTS) | {"please", "kindly", "just"} - SUBORDINATORS
_PIECE_WORDS = re.compile(r"[a-z]+")
STATEMENT_WINDOW = 8
"""How many words after the first a statement's copula may come (`is_context`)."""


def is_context(clause: str, rule: str = "statement", *, wish_requirements: bool = False) -> bool:  # noqa: C901
    """Whether a piece of a request does not ask for an action: it only gives context, an
    identifier or a preference.

    A piece asks for an action when it is a question, opens (after lead-ins such as "please",
    "then", "could you") with an action verb or an imperative, or says what the writer wants
    ("I'd like to ...", "we need ..."). It gives context when it opens with a requirement, a
    greeting or a courtesy ("please make sure ...", "thanks"), with a subordinate clause ("before
    we send it ..."), or is a statement: a subject and a verb that says what is, was or has been
    ("My account ID is 0123", "Tom is on leave from Monday", "A customer moved last week"). A noun
    phrase ("the operational status of monitored machinery") is a piece of an intent. With
    `wish_requirements`, a wish that only asks for a requirement ("I want to make sure it's fully
    removed", "we need to ensure nothing is lost") gives context too.

    Example:
        >>> is_context("My account ID is 0123"), is_context("Please make sure it is quick")
        (True, True)
        >>> is_context("Tom is on leave from Monday"), is_context("Before we send it")
        (True, True)
        >>> is_context("then remove the old materials"), is_context("what is my top track?")
        (False, False)
        >>> is_context("Mark order 3321 as paid"), is_context("Cancel order 9912 in the POS")
        (False, False)
    """
    if rule == "subject":
        return _subject_statement(clause)
    question = clause.rstrip().endswith("?")
    main = rule == "main_clause"
    words = _consequence(_PIECE_WORDS.findall(clause.lower()), main)
    while words and words[0] in _OPENERS:
        words = words[1:]
    if not words:
        return False
    first = words[0]
    if first in REQUIREMENTS or words[:2] == ["make", "sure"]:
        return True
    if wish_requirements and first in PERSONS and _wishes_requirement(words[1:]):
        return True
    if first in SUBORDINATORS:  # "main_clause": "Before I approve it, I need to know ..." asks
        return not question and not (main and _wish_after(words))
    if main and first in INDEFINITES:  # "One of our clients overpaid", "Someone deleted it"
        first = "a"
    if first not in STATEMENT_SUBJECTS and not set(words[1:]) - _BACK_REFERENCES:
        return True  # "Could you set that up?", "Please do this for me": the action named before
    if question or first in _QUESTIONS or first in IMPERATIVES or clause_methods(clause) is not None:
        return False
    # a possessive "'s" ("yesterday's statement") is no verb, "it's" is "it is"; adverbs are skipped
    rest = [w for i, w in enumerate(words[1:]) if (w != "s" or words[i] in _PRONOUNS) and w not in _ADVERBS]
    if first in PERSONS:  # "We report in NZD", "I just finished it"; "I'd like ...", "we need ..." ask
        wish = next((i for i, w in enumerate(rest[:3]) if w in WISHES), None)
        return wish is None or "t" in rest[:wish]  # "we don't want ..." asks for nothing
    # after a determiner the verb follows a noun ("A customer moved": "a detailed review" is a noun
    # phrase); after any other word (a name, or an imperative we do not list) only a copula or a
    # common verb right after it makes a statement ("Tom is ...", "Payroll has ..."), so that
    # "dismiss resolved alerts" and "give me a show that is on air" stay intents
    if first not in STATEMENT_SUBJECTS:
        return bool(rest) and rest[0] in FINITE  # "Tom is ...", "Payroll has ...", "Marketing wants ..."
    for position, word in enumerate(rest[:STATEMENT_WINDOW]):
        if word in _RELATIVES:
            return False
        if word in COPULAS or (position in (1, 2) and (word in FINITE or _past(word))):
            return True
    # "main_clause": a verb after an adverb ends a longer subject ("A table at our restaurant just
    # paid in cash"): a noun phrase seldom has "just", "already" or "never" before a verb form
    return main and any(
        a in _ADVERBS and (w in FINITE or _past(w))
        for a, w in zip(words[1:STATEMENT_WINDOW], words[2:], strict=False)
    )


def _consequence(words: list[str], main: bool) -> list[str]:
    """With the "main_clause" rule, a leading "so" before a lead-in is dropped: in "..., so please
    issue a credit note" the consequence is the action, not a subordinate clause."""
    return words[1:] if main and words[:1] == ["so"] and words[1:2] and words[1] in _OPENERS else words


def _wishes_requirement(words: list[str]) -> bool:
    """Whether a person's words wish only for a requirement ("[I] want to make sure ...", "[we]
    need to ensure ...")."""
    wish = next((i for i, w in enumerate(words[:3]) if w in WISHES), None)
    if wish is None:
        return False
    wanted = [w for w in words[wish + 1 : wish + 4] if w not in ("to", "just", "really")]
    return wanted[:2] == ["make", "sure"] or wanted[:1] == ["ensure"]


def _wish_after(words: list[str]) -> bool:
    """Whether a person says what they want after a subordinate clause ("..., I need to know")."""
    return any(
        w in PERSONS and any(x in WISHES for x in words[i + 1 : i + 3]) and "t" not in words[i + 1 : i + 3]
        for i, w in enumerate(words[1:], 1)
    )


_BACK_REFERENCES = frozenset(
    "it this that these those them me us for up out now too again please today right away asap s".split()
)
"""Words of a piece that only points back at an action named elsewhere ("do it for me")."""
_NOT_OWN = STOPWORDS | LEAD_INS | _BACK_REFERENCES | {"one", "ones", "something", "anything", "help"}
"""Words that do not name an object of a piece's own (`own_words`)."""
_VERB_ENDINGS = ("ize", "ise", "yze", "ify", "ate")
_OBJECT_DETERMINERS = frozenset(
    "the a an all their its his her my our your any each every some these those".split()
)
_NEXT_STEP = frozenset("also additionally then next finally lastly afterwards plus".split())


def opens_with_action(piece: str, rule: str = "statement") -> bool:
    """Whether a piece opens with an action of its own: a next-step word ("also", "then") or,
    after lead-ins, an action verb, an imperative or a wish ("I'd like to ...").

    Example:
        >>> opens_with_action("also tell me their nutritional values"), opens_with_action("useless facts")
        (True, False)
    """
    words = _PIECE_WORDS.findall(piece.lower())
    if words and words[0] in _NEXT_STEP:
        return True
    words = _consequence(words, rule == "main_clause")
    while words and words[0] in _OPENERS:
        words = words[1:]
    if not words:
        return False
    if words[0] in IMPERATIVES or clause_methods(piece) is not None:
        return True
    if words[0] in PERSONS:
        return any(w in WISHES for w in words[1:4])
    # a word with a verb's ending ("analyze", "classify", "calculate"), or any word followed by
    # an object's determiner ("generate a report", "forecast their demand"), leads a command
    object_follows = len(words) > 1 and words[1] in _OBJECT_DETERMINERS
    return words[0] not in STATEMENT_SUBJECTS and (words[0].endswith(_VERB_ENDINGS) or object_follows)


_POINTERS = frozenset("it its them their".split())
_SKIPPED_BEFORE_VERB = _OPENERS | _NEXT_STEP | PERSONS | WISHES | CONTRACTIONS | {"to"}


def is_detail(piece: str) -> bool:
    """Whether a piece only adds a detail to the intent named before it: right after its verb (or
    with no verb) it points back at that intent's object, and the verb names no operation of its
    own ("Call it cms-publish", "point it at the main branch", "I'd like to know its name and
    genus", "I need their names"); a read of "its" or "their" asks for the fields of what the
    intent returns. "Can you delete it?" names an operation: not a detail.

    Example:
        >>> is_detail("Call it cms-publish"), is_detail("I'd like to know its name, genus and order.")
        (True, True)
        >>> is_detail("Can you delete it?"), is_detail("Create a build hook for site blog-main.")
        (False, False)
    """
    words = _PIECE_WORDS.findall(piece.lower())
    while words and words[0] in _SKIPPED_BEFORE_VERB:
        words = words[1:]
    if not words:
        return False
    if words[0] in _POINTERS:
        return True
    if len(words) < 2 or words[1] not in _POINTERS:
        return False
    methods = clause_methods(words[0], verb_lexicon(commands=True))
    return methods is None or (methods == frozenset({"GET"}) and words[1] in ("its", "their"))


def own_words(piece: str) -> int:
    """How many words of a piece name something of its own: not function words (`STOPWORDS`),
    lead-ins ("please", "could you") or words that point back at what was said before ("the list",
    "that information", "a random one").

    "Could you fetch that information for me?" names nothing of its own (2 words: the rest of the
    request says which information); "Please cancel the scheduled message SM8812" names its object.

    Example:
        >>> own_words("Could you fetch that information for me?")
        2
        >>> own_words("Please cancel the scheduled message SM8812 so it never goes out.")
        6
    """
    words = re.findall(r"[a-z0-9][a-z0-9'_-]*", piece.lower())
    return sum(1 for w in words if w not in _NOT_OWN)


IDENTIFIER = re.compile(r"(?<![\w-])(?=[\w-]*\d[\w-]*\d)(?=[\w-]*[a-z])\w[\w-]{3,}(?![\w-])", re.IGNORECASE)
"""An identifier: one token of letters and at least two digits ("INV-0042", "opp_4410", "SM8812",
"E-204"); not an ordinal, a time or an amount (`_UNIT`)."""
_UNIT = re.compile(r"\d+(?:st|nd|rd|th|am|pm|[a-z])", re.IGNORECASE)
_AFTERTHOUGHT = re.compile(
    r",?\s+(?:so\s+that\b|so\s+(?=(?:it|they|we|he|she|i|you|the|this|that|its|their|our|my|no|nothing)\b)"
    r"|but\s+(?:please\s+)?(?:don't|do\s+not|never)\b).*$",
    re.IGNORECASE | re.DOTALL,
)


def identifiers(text: str) -> list[str]:
    """The identifiers `text` names (`IDENTIFIER`).

    Example:
        >>> identifiers("Move opportunity opp_4410 to stage 2 by the 5th, before 10am; INV-0042 too")
        ['opp_4410', 'INV-0042']
    """
    return [m.group() for m in IDENTIFIER.finditer(text) if not _UNIT.fullmatch(m.group())]


def core(piece: str) -> str:
    """The words of an intent that say what it asks for: without identifiers (values for an
    operation's parameters, words no description holds) and without an afterthought on what it
    should lead to ("..., so it never goes out", "... but don't delete it"). The piece itself when
    nothing would be left.

    Example:
        >>> core("Please cancel the scheduled message SM8812 so it never goes out.")
        'Please cancel the scheduled message'
        >>> core("Take site promo-2024 offline so it stops serving pages, but don't delete it.")
        'Take site offline'
    """
    text = _AFTERTHOUGHT.sub("", piece)
    for found in identifiers(text):
        text = re.sub(rf"(?<![\w-]){re.escape(found)}(?![\w-])", " ", text)
    text = " ".join(text.split()).strip(" ,;:")
    return text if len(_PIECE_WORDS.findall(text.lower())) >= 2 else piece


_VALUE = re.compile(r"[^\s,;!?()\"]*\d[^\s,;!?()\"]*")
"""A word holding a digit, with what is joined to it ("INV-0310", "$200", "80%", "1.2.3.4", "10am")."""


def without_values(text: str) -> str:
    """`text` without its words holding a digit: a request's identifiers, amounts, dates and
    versions are values for an operation's parameters, which no description holds; searched,
    they only match other numbers. A sentence's full stop is kept; the text itself when fewer than
    two words would be left.

    Example:
        >>> without_values("Please mark order ord_3321 as paid. The tip was 12.50.")
        'Please mark order as paid. The tip was.'
    """

    def drop(match: re.Match[str]) -> str:
        return "." if match.group().endswith(".") else ""

    kept = " ".join(_VALUE.sub(drop, text).split())
    kept = re.sub(r"\s+([.,;:!?])", r"\1", kept)
    return kept if len(_PIECE_WORDS.findall(kept.lower())) >= 2 else text


_QUOTED_VALUE = re.compile(r"(?:(?<=\s)|^)([\"“'‘])(?P<text>[^\"“”'‘’\n]{1,80})[\"”'’](?=[\s.,;:!?)]|$)")
"""A quoted span opening after a space (not an apostrophe inside a word: "Xero's", "We'll")."""


def without_quoted(text: str) -> str:
    """`text` without the titles and values it quotes: a span in quotes of two words or more, or of
    one capitalised word ("update pricing page", "In Progress", "Titanic"), names a particular
    thing a parameter takes, which no description holds; searched, its words ("update") read as
    the request's own. One lower-case word in quotes is a term asked about and stays ("what does
    "deductible" mean"). The text itself when fewer than two words would be left.

    Example:
        >>> without_quoted('make a card for "update pricing page" on our board')
        'make a card for on our board'
        >>> without_quoted("what does 'deductible' mean on healthcare.gov")
        "what does 'deductible' mean on healthcare.gov"
    """

    def drop(match: re.Match[str]) -> str:
        inner = match.group("text").strip()
        return "" if len(inner.split()) > 1 or inner[:1].isupper() else match.group()

    kept = " ".join(_QUOTED_VALUE.sub(drop, text).split())
    kept = re.sub(r"\s+([.,;:!?])", r"\1", kept)
    return kept if len(_PIECE_WORDS.findall(kept.lower())) >= 2 else text


def without_names(text: str, known: frozenset[str] = frozenset()) -> str:
    """`text` without the particular things it names by a capitalised word past a sentence's start
    ("assign this bug to Priya", "review it by Friday"): a person's, a title's or a day's name is a
    value a parameter takes, which no description holds; embedded, it pulls the request towards
    operations about people or dates. Kept: a sentence's first word, a word in capitals ("SSH"), "I",
    and `known` words (lower case: the catalog's API titles, "in Jira"). The text itself when fewer
    than two words would be left.

    Example:
        >>> without_names("assign this bug to Priya")
        'assign this bug to'
        >>> without_names("list my issues in Jira", known=frozenset({"jira"}))
        'list my issues in Jira'
    """
    kept: list[str] = []
    before = "."
    for token in text.split():
        if not names_a_thing(before, token, known, acronyms=False):
            kept.append(token)
        elif token[-1:] in ".!?":
            kept.append(token[-1])
        before = token
    out = re.sub(r"\s+([.,;:!?])", r"\1", " ".join(kept))
    return out if len(_PIECE_WORDS.findall(out.lower())) >= 2 else text


_PROHIBITION = re.compile(
    r"(?:^|(?<=[.!?;]))\s*(?:please\s+)?(?:don'?t|do not|never)\s+(?!forget\b|fail\b)[^.!?;]*[.!?;]?", re.I
)
"""A sentence that opens by forbidding an action ("Don't delete it, we might need it."; "Do not
send a new message."): all of it; "Don't forget to ..." asks for it."""
_NEGATED = re.compile(
    r"(?:,\s*)?(?:\b(?:but|and|or)\s+(?:please\s+)?(?:don'?t|do not|never)\s+(?!forget\b|fail\b)|\bwithout\s+(?=\w+ing\b))"
    r"[^,.;:!?]*",
    re.IGNORECASE,
)
"""An action a clause forbids, to the end of the clause: "..., but don't delete it", "without deleting
its schedule". A subject's own negation ("we don't want ...", "so it never goes out") says what the
writer wants, and stays."""


def without_negations(text: str) -> str:
    """`text` without the actions it says not to take: searched, "don't delete it" reads as a
    request to delete. The text itself when fewer than two words would be left.

    Example:
        >>> without_negations("Take site promo-2024 offline so it stops serving pages, but don't delete it.")
        'Take site promo-2024 offline so it stops serving pages.'
        >>> without_negations("Archive card 5f2b9c. Don't delete it, we might need it. Thanks!")
        'Archive card 5f2b9c. Thanks!'
        >>> without_negations("Pause the report job for a week without deleting its schedule.")
        'Pause the report job for a week.'
        >>> without_negations("Don't forget to send the invoice; we don't want it late")
        "Don't forget to send the invoice; we don't want it late"
    """
    kept = _NEGATED.sub("", _PROHIBITION.sub(" ", text))
    kept = " ".join(kept.split())
    kept = re.sub(r"\s+([.,;:!?])", r"\1", kept)
    return kept if len(_PIECE_WORDS.findall(kept.lower())) >= 2 else text


def _past(word: str) -> bool:
    """A regular past form ("moved", "asked", "scheduled"); not "need" or "red"."""
    return len(word) > 4 and word.endswith("ed") and not word.endswith("eed")


_SUBJECT_COPULAS = frozenset("is are was were am be been 's have has had".split())
_SUBJECT_STARTS = frozenset(
    "my our your his her their its the this that these those it i we he she they there".split()
)
_SUBJECT_OPENERS = (LEAD_INS - _SUBJECT_STARTS) | {"please", "kindly"}
_SUBJECT_REQUIREMENTS = frozenset(
    "sure ensure note remember thanks thank keep bear mind assume assuming given regards".split()
)
_SUBJECT_WISHES = WISHES


def _subject_statement(clause: str) -> bool:
    """The "subject" rule: a requirement or courtesy, or a subject word then a copula within its
    first words with no action verb or wish before it."""
    if clause.rstrip().endswith("?"):
        return False
    words = _WORDS.findall(clause.lower())
    while words and words[0] in _SUBJECT_OPENERS:
        words = words[1:]
    if not words:
        return False
    if words[0] in _SUBJECT_REQUIREMENTS or words[:2] == ["make", "sure"]:
        return True
    if clause_methods(clause) is not None or words[0] not in _SUBJECT_STARTS:
        return False
    for word in words[1:6]:
        if word in _SUBJECT_WISHES:
            return False
        if word in _SUBJECT_COPULAS:
            return True
    return False
