"""The one exception type the store raises, so callers can tell store trouble
(missing file, wrong kind of file, newer schema) from bugs."""

from __future__ import annotations

from ..errors import PhantomError


class StoreError(PhantomError):
    """A problem with the capture store that a user can act on.

    The message is written for a person: it names the path and says what to do.
    The CLI prints it as one line and exits non-zero.
    """

    code = "store_unavailable"

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path
