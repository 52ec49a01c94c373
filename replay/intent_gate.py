"""The intent gate: a binary check, before any score, that a program does
what a request in words asks and nothing else it cannot see in itself.

Sentence embeddings place a request next to the program that does its
opposite ("withdraw my leave request" sits at cosine 0.73 from *request
leave*) and next to a program that cannot take what the request names
("divide 100 by 7" from *calc 4x9+2*), so no similarity threshold separates
them. Two rules that read the words themselves do:

- verbs: every consequential verb of the request (`verbs.CONSEQUENTIAL`,
  plus the undoing and arithmetic verbs below) must be among the verbs of
  the program's own text — its name, description, window title words and
  the labels its steps use. A request may say less than the program (no
  verb at all is fine); it may never ask for an act the program does not
  name.
- values: every value the request carries (a number, a quoted text, an
  email, a web address, a date, a time, a code with digits) must either
  equal a constant of the program (a number in its name, a label, a
  literal it types) or bind to one of its parameters whose recorded
  values are of the same kind, each parameter taking at most one value.
  A value with nowhere to go is a request the program cannot carry out.

The gate is deliberately lexical and pure: it never guesses a parameter's
value (the caller still passes every one) and it needs no model. It is
strict on purpose — a request it refuses gets the shortlist and a choice,
never a run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from compiler.programs.records import Parameter, Program

from .verbs import CONSEQUENTIAL

# Verbs the gate reads beyond `verbs.CONSEQUENTIAL` (which also decides
# which fuzzy label matches replay accepts for a step, a separate decision):
# those that undo or reverse what a form does; the arithmetic a calculator
# routine performs; and verbs that each name one specific act no form does
# by another name (a program that scans, sells or calls says so). Words that
# paraphrases use for many acts ("put", "get", "enter", "book", "apply",
# "check", "open") are left out: they would refuse requests, not wrong runs.
GATE_VERBS = {
    "unregister": "unregister", "deregister": "unregister", "unenroll": "unregister",
    "unenrol": "unregister", "deactivate": "deactivate", "disable": "deactivate",
    "undo": "undo", "unfollow": "unfollow", "unpublish": "unpublish", "unbook": "cancel",
    "enroll": "sign", "enrol": "sign",
    "divide": "divide", "multiply": "multiply", "subtract": "subtract",
    "call": "call", "phone": "call", "dial": "call", "ring": "call", "play": "play",
    "scan": "scan", "sell": "sell", "renew": "renew", "upgrade": "upgrade", "downgrade": "upgrade",
    "resize": "resize", "crop": "resize", "measure": "measure", "compare": "compare",
    "translate": "translate", "print": "print", "export": "export", "import": "import",
    "download": "download", "upload": "upload", "sync": "sync", "compress": "compress",
    "sort": "sort", "tag": "tag", "duplicate": "duplicate", "reopen": "reopen",
    "assign": "assign", "change": "change", "write": "write", "count": "count", "vote": "vote",
    "set": "set", "summarise": "summarise", "summarize": "summarise",
}
VERBS = {**CONSEQUENTIAL, **GATE_VERBS}
# Operator symbols stand for the arithmetic verb: between two numbers in a
# program's name or labels ("4x9+2"), or alone as a button's label (a "÷"
# button). "/" and "-" count only alone: between numbers they are mostly
# dates, codes and ranges ("2026-03-02", "INV-4471").
OPERATORS = {"÷": "divide", "/": "divide", "×": "multiply", "*": "multiply", "x": "multiply",
             "−": "subtract", "-": "subtract"}

_WORD = re.compile(r"[a-z]+")
_NOUN_BEFORE = {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that",
                "these", "those", "some", "any", "of", "for", "about", "with", "from", "on", "in"}
_OPERATOR = re.compile(r"(?<=\d)\s*([÷×*x−])(?=\s*\d)")
# Values, most specific first; each match is blanked before the next pattern looks.
_VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("quoted", re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'([^']{2,})'(?!\w)|‘([^’]+)’")),
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("address", re.compile(r"(?:https?://|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|dev|"
                           r"io|de|fr|uk|eu|info)\b", re.IGNORECASE)),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|"
                        r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
                        r"oct|nov|dec)[a-z]*\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                        r"[a-z]*\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)\b", re.IGNORECASE)),
    ("time", re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b", re.IGNORECASE)),
    ("phone", re.compile(r"\+\d[\d ]{6,}\d")),
    ("code", re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*\b", re.IGNORECASE)),
    ("number", re.compile(r"[$€£]?\d+(?:[.,]\d+)*%?")),
)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$")
_TIME = re.compile(r"^\d{1,2}:\d{2}$|^\d{1,2}\s?(am|pm)$", re.IGNORECASE)
_DAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
_DATE_FIELDS = {"date", "day", "from", "to", "when", "due", "at", "time"}


@dataclass(frozen=True, slots=True)
class Value:
    """One value a request carries: its kind and its text as written."""

    kind: str        # quoted | email | address | date | time | phone | code | number
    text: str


@dataclass(frozen=True, slots=True)
class Request:
    """What the gate reads in a request: its consequential verbs and its values."""

    text: str
    verbs: frozenset[str]
    values: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The gate's answer for one program: passed or not, and why in words;
    `bound` says where each value went (a parameter's name, or "constant")."""

    passed: bool
    reason: str
    bound: tuple[tuple[str, str], ...] = ()
    failed: str = ""     # what failed: "verbs" or "values" ("" when it passed)


def read_request(text: str) -> Request:
    """The verbs and values of a request (already folded by `check_intent`)."""
    return Request(text, verbs_in(text, asked=True), values_in(text))


def verbs_in(text: str, *, asked: bool = False) -> frozenset[str]:
    """The canonical consequential verbs in a text, any inflection
    ("cancelling", "withdrawn", "deleted", "unsubscribes"). With `asked`,
    only the acts the text asks for: a verb word used as a noun — a
    determiner, possessive or preposition among the two words before it
    ("the broken export", "the cost of sending", "for order 5521") — is not
    an act asked for."""
    found = set()
    words = _WORD.findall(text.casefold())
    for n, word in enumerate(words):
        verb = _verb(word)
        if verb is not None and not (asked and _NOUN_BEFORE & set(words[max(0, n - 2):n])):
            found.add(verb)
    return frozenset(found)


def _verb(word: str) -> str | None:
    for stem in _stems(word):
        if stem in VERBS:
            return VERBS[stem]
    return None


def _stems(word: str) -> tuple[str, ...]:
    """The word and the stems its common verb endings leave ('cancelled' →
    'cancel', 'deleting' → 'delete', 'withdrawal' → 'withdraw')."""
    stems = [word]
    for suffix, replacements in (("ing", ("", "e")), ("ed", ("", "e")), ("es", ("",)), ("s", ("",)),
                                 ("ation", ("", "e")), ("ion", ("", "e")), ("al", ("", "e")),
                                 ("ment", ("",)), ("n", ("",))):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[:-len(suffix)]
            stems += [base + r for r in replacements]
            if len(base) > 3 and base[-1] == base[-2]:
                stems.append(base[:-1])       # cancelling, cancelled, cancellation
    return tuple(stems)


def values_in(text: str) -> tuple[Value, ...]:
    """The values a text carries, in the order of the patterns (most specific first)."""
    values: list[Value] = []
    rest = text
    for kind, pattern in _VALUE_PATTERNS:
        for match in pattern.finditer(rest):
            written = next((g for g in match.groups() if g), match.group(0)) if match.groups() else match.group(0)
            values.append(Value(kind, written.strip()))
        rest = pattern.sub(lambda m: " " * len(m.group(0)), rest)
    return tuple(values)


def program_text(program: Program, description: str) -> str:
    """The program's own words: its name, description, window title words
    and every label its steps use."""
    labels = [step.target.display for step in program.steps if step.target is not None]
    return " . ".join([program.name, description, " ".join(program.guard.title_tokens), *labels])


def program_verbs(program: Program, description: str) -> frozenset[str]:
    """The consequential verbs of the program's own text, operator symbols
    between numbers ("4x9+2") counted as their arithmetic verb, and a bare
    operator label (a "÷" button) too."""
    text = program_text(program, description)
    verbs = set(verbs_in(text))
    verbs.update(OPERATORS[m.group(1)] for m in _OPERATOR.finditer(text))
    for step in program.steps:
        label = step.target.display.strip() if step.target is not None else ""
        if label in OPERATORS and label != "x":
            verbs.add(OPERATORS[label])
    return frozenset(verbs)


def constants(program: Program, description: str) -> frozenset[str]:
    """What a request's value may equal without binding to a parameter: the
    values in the program's own text and in the literals its steps type."""
    literals = [step.text for step in program.steps
                if step.action == "type" and step.text and step.parameter is None]
    found: set[str] = set()
    for text in [program_text(program, description), *literals]:
        found.update(_normal(v) for v in values_in(text))
        found.update(_normal(Value("number", n)) for n in re.findall(r"\d+(?:\.\d+)?", text))
    found.update(_normal(Value("quoted", literal)) for literal in literals)
    return frozenset(found)


def _normal(value: Value) -> str:
    """A value as compared with constants: numbers by their amount (10.00 is
    10), everything else case-folded without surrounding punctuation."""
    text = value.text.strip().strip(".,;:!?").casefold()
    number = text.lstrip("$€£").rstrip("%").replace(",", ".")
    try:
        amount = Decimal(number)
    except InvalidOperation:
        return text
    return format(amount.normalize(), "f") if amount.is_finite() else text


def fits(value: Value, parameter: Parameter) -> bool:
    """Whether a parameter whose recorded values are `parameter.samples`
    could take this value: the same kind of thing, by the samples' shape (a
    date or a time also fits a field whose label says it takes one)."""
    samples = parameter.samples
    if value.kind == "email":
        return any("@" in s for s in samples)
    if value.kind == "address":
        return "@" not in "".join(samples) and any("." in s and any(c.isalpha() for c in s) for s in samples)
    if value.kind in ("date", "time"):
        field = set(_WORD.findall(parameter.field.casefold()))
        return bool(field & _DATE_FIELDS) or any(
            _DATE.match(s) or _TIME.match(s) or s.casefold() in _DAYS for s in samples)
    if value.kind == "quoted":
        return any(c.isalpha() for s in samples for c in s)
    return any(c.isdigit() for s in samples for c in s)   # a number, a phone number, a code


def judge(request: Request, program: Program, description: str) -> Verdict:
    """Does the program do what the request asks, as far as its words and
    values tell? Refused with the reason otherwise."""
    named_verbs = program_verbs(program, description)
    missing = sorted(request.verbs - named_verbs)
    if missing:
        return Verdict(False, f"the request asks to {', '.join(missing)}; {program.name} does not "
                       f"(its own words name {_listed(named_verbs)})", failed="verbs")
    known = constants(program, description)
    loose = [v for v in request.values if _normal(v) not in known]
    bound = [(v.text, "constant") for v in request.values if _normal(v) in known]
    assignment = _assign(loose, program.parameters)
    if assignment is None:
        unbound = [v.text for v in loose if not any(fits(v, p) for p in program.parameters)]
        named = unbound or [v.text for v in loose]
        what = ", ".join(repr(t) for t in named)
        takes = ", ".join(f"{p.name} ({p.field})" for p in program.parameters) or "no parameters"
        return Verdict(False, f"{what} {'binds' if len(named) == 1 else 'bind'} to no parameter or "
                       f"constant of {program.name} (it takes {takes})", tuple(bound), "values")
    bound += [(v.text, name) for v, name in zip(loose, assignment)]
    if not request.verbs and not request.values:
        return Verdict(True, "no consequential verb and no value to bind", tuple(bound))
    parts = []
    if request.verbs:
        parts.append(f"its words name {_listed(request.verbs)}")
    if bound:
        parts.append("values bind: " + ", ".join(f"{t!r} → {where}" for t, where in bound))
    return Verdict(True, "; ".join(parts), tuple(bound))


def _assign(values: list[Value], parameters: tuple[Parameter, ...]) -> list[str] | None:
    """Each value to a distinct parameter it fits (a small bipartite match
    by backtracking: requests carry a handful of values), or None. More
    values than parameters, or one that fits none, fail at once, so the
    search only runs where an assignment may exist."""
    if len(values) > len(parameters) or not all(any(fits(v, p) for p in parameters) for v in values):
        return None
    chosen: list[str] = []

    def place(i: int, taken: frozenset[str]) -> bool:
        if i == len(values):
            return True
        for parameter in parameters:
            if parameter.name not in taken and fits(values[i], parameter):
                chosen.append(parameter.name)
                if place(i + 1, taken | {parameter.name}):
                    return True
                chosen.pop()
        return False

    return chosen if place(0, frozenset()) else None


def _listed(verbs: frozenset[str]) -> str:
    return ", ".join(sorted(verbs)) or "no consequential verb"
