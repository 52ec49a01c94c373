"""Running the desktop's programs as an unprivileged user.

sway refuses to run as root ("Unable to drop root"), and CI runs as root.
`setpriv --reuid=65534 --regid=65534 --clear-groups` (nobody, nogroup)
needs no account to be made; each desktop gets a directory that user owns,
because pytest's own temporary directories are root's and 0700. As anyone
but root, programs run as they are: the user is already unprivileged.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .executables import executable


@dataclass(frozen=True, slots=True)
class User:
    uid: int
    gid: int


NOBODY = User(65534, 65534)


def dropping() -> bool:
    """Whether programs must be started as another user (we are root)."""
    return os.geteuid() == 0


def as_user(argv: list[str], user: User = NOBODY) -> list[str]:
    """`argv` run as `user` when we are root, else as is."""
    if not dropping():
        return list(argv)
    return [executable("setpriv"), f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups", *argv]


def owned_dir(prefix: str, user: User = NOBODY, parent: Path | None = None) -> Path:
    """A new 0700 directory the user owns (ours when we are not root)."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    os.chmod(path, 0o700)
    give(path, user)
    return path


def give(path: Path, user: User = NOBODY) -> None:
    """Hand a file or directory we made to the user (nothing when not root)."""
    if dropping():
        os.chown(path, user.uid, user.gid)
