"""Pre- and postconditions of program steps (phantom.md §4.5).

Preconditions say what must be true before a step acts, from what the
recording captured about its target:
- `aria_path_resolves` when the target has an accessibility path;
- `embedding_match` when it has only a label (a name without a path, as
  some imported capture layouts give): replay matches the label against the
  live UI with the local embedding model;
- `always_true` for keys and app switches (they act on whatever has focus,
  or on the app), and for clicks and typing whose target was not captured —
  a known weakness: nothing can be checked, so the compile report flags
  those steps.

Postconditions say what must be true afterwards, and only where the
demonstrations give evidence for it:
- typing into a known field → the field holds the text (`value`). Not for
  password fields: their content is not readable through accessibility, so
  that check could never pass;
- a click on a text field, or on an element that the very next step types
  into in every demonstration → that element has focus (`focus`);
- a click on anything else (buttons, menu items …) → `none`. Passive
  capture does not record the after-state of a click. The only after-state
  the traces do show is that the next step's target existed afterwards — but
  that is exactly the next step's precondition, which has the embedding
  fallback; repeating it as a strict `role_present` here would escalate
  where the next step could have recovered. A title change after the click
  says *something* changed, not which role appeared, so it is not used
  either;
- keys and switches → `none`.
"""

from __future__ import annotations

from .records import Condition, Target

# AT-SPI role names of elements that take text and keep focus when clicked.
TEXT_ROLES = frozenset({"text", "entry", "password text", "spin button", "document text",
                        "editbar", "terminal", "paragraph"})
SECRET_ROLES = frozenset({"password text"})

ALWAYS_TRUE = Condition("always_true")
NONE = Condition("none")


def precondition(action: str, target: Target | None) -> Condition:
    if action in ("key", "switch") or target is None:
        return ALWAYS_TRUE
    if target.path:
        return Condition("aria_path_resolves", role=target.role, label=target.display)
    if target.display:
        return Condition("embedding_match", role=target.role, label=target.display)
    return ALWAYS_TRUE


def postcondition(action: str, target: Target | None, *, typed_next: bool = False) -> Condition:
    """`typed_next`: in every demonstration the next step typed into this
    same element (the alignment guarantees "every")."""
    if target is None or not (target.path or target.display):
        return NONE
    if action == "type":
        if target.role in SECRET_ROLES:
            return NONE
        return Condition("state_delta", expect="value", role=target.role, label=target.display)
    if action == "click" and (target.role in TEXT_ROLES or typed_next):
        return Condition("state_delta", expect="focus", role=target.role, label=target.display)
    return NONE


def unverified(action: str, target: Target | None) -> bool:
    """A click or typing step that nothing can check before it acts."""
    return action in ("click", "type") and precondition(action, target).kind == "always_true"
