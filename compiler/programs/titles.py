"""Window titles as sets of words, for telling look-alike windows apart.

A title mixes what stays (the application's name, the kind of window: "Phantom
Form", "Invoice", "Mousepad") with what changes between runs (the document's
name, a count of unread mail, a modified marker). A program keeps only the
words every demonstration's title shared; replay accepts a window whose title
has all of them. Words are compared without regard to case; punctuation around
them (the `*` of a modified document, the dashes between parts) is not part of
a word, but dots, @ and hyphens inside one are ("notes.txt", "a@b.org").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_](?:[\w.@+'-]*[^\W_])?")


def title_words(title: str) -> tuple[str, ...]:
    """The words of a title, in order, each once."""
    seen: set[str] = set()
    words = []
    for word in _WORD.findall(title or ""):
        key = word.casefold()
        if key not in seen:
            seen.add(key)
            words.append(word)
    return tuple(words)


def shared_words(titles: Iterable[str]) -> tuple[str, ...]:
    """The words present in every title, in the order of the first."""
    titles = list(titles)
    if not titles:
        return ()
    rest = [{w.casefold() for w in title_words(t)} for t in titles[1:]]
    return tuple(w for w in title_words(titles[0]) if all(w.casefold() in other for other in rest))


def place_words(title: str) -> frozenset[str]:
    """The words (case-folded) of the parts of a title that name a place on
    disk: a folder or a path, as gedit shows "(~/reports)" after the file's
    name. Where a file was saved is the run's to choose, not the window's
    identity."""
    places = (part.strip("()[]{}\"'«»,;") for part in (title or "").split())
    return frozenset(w.casefold() for part in places if part.startswith(("/", "~"))
                     for w in _WORD.findall(part))


def end_words(titles: Iterable[str]) -> tuple[str, ...]:
    """The words every final title shared, but for the words of a place on
    disk in any of them: the demonstrations may all have saved into one
    folder, and a run that saves into another has still done the task."""
    titles = list(titles)
    places = frozenset().union(*(place_words(t) for t in titles))
    return tuple(w for w in shared_words(titles) if w.casefold() not in places)


def has_words(title: str, words: Iterable[str]) -> bool:
    """Whether `title` contains every one of `words` (as whole words)."""
    present = {w.casefold() for w in title_words(title)}
    return all(w.casefold() in present for w in words)


def contains_value(title: str, value: str) -> bool:
    """Whether a parameter's value appears in a title (as typed, ignoring case)."""
    return bool(value) and value.casefold() in (title or "").casefold()
