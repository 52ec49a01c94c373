"""Labels as a person reads them: AT-SPI often repeats an element's name in
its description or child text, so a stored label reads "4 4" or "Save As
Save As". Renderers say it once; the stored rows, program bodies and their
ids keep what was captured (a program id is a digest of its body)."""

from __future__ import annotations

import re

_REPEATED = re.compile(r"^(.+?)(?: \1)+$", re.DOTALL)
_QUOTED = re.compile(r"'([^'\n]+?)(?: \1)+'")


def once(label: str) -> str:
    """`label` with a whole-label repetition said once: "4 4" → "4"."""
    found = _REPEATED.match(label)
    return found.group(1) if found else label


def once_in(text: str) -> str:
    """Every quoted label in `text` said once: "push button '4 4'" →
    "push button '4'"."""
    return _QUOTED.sub(r"'\1'", text) if "'" in text else text
