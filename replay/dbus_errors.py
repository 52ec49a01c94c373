"""How `org.phantom.Replay1` answers a bad call: the methods' argument
signatures, checked before dbus-fast dispatches (it would answer a wrong
signature with UnknownMethod, which misleads a shortcut author). The mapping
from Phantom's error family to `org.phantom.Error.*` names is core's, shared
with the capture daemon's service (`core.dbus_errors`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.bus import REPLAY
from core.dbus_errors import clip_message, dbus_error, named_error

if TYPE_CHECKING:
    from dbus_fast import Message

__all__ = ["SIGNATURES", "check_arguments", "clip_message", "dbus_error", "named_error"]


SIGNATURES = {"ListPrograms": "", "Describe": "s", "Replay": "sa{ss}", "ReplayChecked": "sa{ss}",
              "ReplayAsync": "sa{ss}",
              "ReplayIntent": "sa{ss}", "FindProgram": "s", "Cancel": "", "Context": "sss",
              "ListRoutines": ""}


def check_arguments(message: Message) -> bool:
    """A call to one of our methods with the wrong argument types gets
    org.phantom.Error.InvalidArguments, naming what the method takes (the
    library alone would answer UnknownMethod, which misleads a shortcut author)."""
    from dbus_fast.constants import MessageType

    if (message.message_type == MessageType.METHOD_CALL and message.path == REPLAY.path
            and message.interface in (REPLAY.interface, None) and message.member in SIGNATURES
            and message.signature != SIGNATURES[message.member]):
        expected = SIGNATURES[message.member] or "no arguments"
        raise named_error("InvalidArguments", f"{message.member} takes ({expected}), "
                          f"not ({message.signature or 'nothing'}); nothing was sent")
    return False
