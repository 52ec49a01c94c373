"""The command line that replays a program through the D-Bus service: what
`phantom shortcut` prints for a key binding and what an exported skill tells
an agent to run. It calls `ReplayChecked`, so the command's exit status says
whether the run succeeded (a shortcut runner sees nothing else)."""

from __future__ import annotations

import shlex

__all__ = ["cli_command", "gdbus_command"]


def gvariant_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def gdbus_command(program: str, parameters: dict[str, str]) -> str:
    mapping = "{" + ", ".join(f"{gvariant_string(k)}: {gvariant_string(v)}"
                              for k, v in sorted(parameters.items())) + "}"
    if not parameters:
        mapping = "@a{ss} {}"
    argv = ["gdbus", "call", "--session", "--dest", "org.phantom.Replay1", "--object-path",
            "/org/phantom/Replay1", "--method", "org.phantom.Replay1.ReplayChecked",
            gvariant_string(program), mapping]
    return " ".join(_shell_word(a) for a in argv)


def cli_command(program: str, parameters: dict[str, str]) -> str:
    """`phantom replay NAME --param P0=VALUE …`, quoted for a POSIX shell."""
    argv = ["phantom", "replay", program]
    for name, value in sorted(parameters.items()):
        argv += ["--param", f"{name}={value}"]
    return shlex.join(argv)


def _shell_word(word: str) -> str:
    """Plain words bare; anything else in double quotes (readable next to the
    single quotes GVariant uses), with the shell's specials escaped."""
    if word and all(c.isalnum() or c in "-_./=:" for c in word):
        return word
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")
    return f'"{escaped}"'
