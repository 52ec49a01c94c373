"""Who may talk to the web view, and what every answer carries.

The view listens on 127.0.0.1 only, but a loopback port is reachable from
every web page the person opens: a hostile page can send requests to it (a
CSRF), and a hostile name that resolves to 127.0.0.1 can read from it (DNS
rebinding). So:

- `phantom web` makes a random token per start and prints (and opens) an
  address carrying it. The first request with the token gets a session
  cookie (HttpOnly, SameSite=Strict) and is redirected to the same address
  without the token, so it leaves the address bar and the history.
- Every request must name this server in `Host` (127.0.0.1 or localhost, on
  this port) — a rebinding name fails — and, when it sends `Origin`, this
  server's origin. A request without the session cookie is refused.
- State changes are POST only. A POST must carry an `Origin` header (a
  browser always sends one on a form post) that is this server's — or
  `null`, which is what a browser sends for its own form under
  `Referrer-Policy: no-referrer` — and a form token (`csrf`) that only this
  server's own pages hold (no other origin can read them); the app checks
  the token (`WebSecrets.csrf`).
- Every answer says `Cache-Control: no-store` (a forgotten thumbnail must
  not live on in the browser's cache), `Referrer-Policy: no-referrer`, a
  strict Content Security Policy (nothing but this server's own files), and
  no CORS header, so no other origin may read an answer.

The checks are pure functions over a request's method, headers and query;
`Guard` is the ASGI middleware that applies them."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

__all__ = ["COOKIE", "HEADERS", "Guard", "Verdict", "WebSecrets", "judge"]

COOKIE = "phantom_web"
HEADERS = {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cross-origin-resource-policy": "same-origin",
    "content-security-policy": ("default-src 'none'; style-src 'self'; img-src 'self'; "
                                "script-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'"),
}
SAFE_METHODS = ("GET", "HEAD")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class WebSecrets:
    """The token printed in the address and the session cookie's value, both
    fresh for each start of `phantom web`."""

    port: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    session: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))

    def form_token_matches(self, value: str) -> bool:
        return hmac.compare_digest(value.encode(), self.csrf.encode())

    @property
    def hosts(self) -> frozenset[str]:
        return frozenset({f"127.0.0.1:{self.port}", f"localhost:{self.port}"})

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{host}" for host in self.hosts)

    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with a request: pass it on, redirect it (after setting the
    cookie), or refuse it with a status and a one-line reason."""

    action: str            # pass | login | refuse
    status: int = 200
    reason: str = ""
    location: str = ""


def judge(method: str, path: str, query: str, headers: dict[str, str], keys: WebSecrets) -> Verdict:
    """The verdict for one request (header names lower-case)."""
    if headers.get("host", "") not in keys.hosts:
        return Verdict("refuse", 421, "this server answers only to 127.0.0.1 and localhost on its port")
    origin = headers.get("origin")
    if origin is not None and origin not in keys.origins and not (origin == "null" and method == "POST"):
        return Verdict("refuse", 403, "a request from another origin")
    if method not in SAFE_METHODS:
        if origin is None:
            return Verdict("refuse", 403, "a change must come from this server's own pages")
        if method != "POST":
            return Verdict("refuse", 405, "only GET and POST are served")
    pairs = parse_qsl(query, keep_blank_values=True)
    token = next((value for key, value in pairs if key == "token"), None)
    if token is not None:
        if method in SAFE_METHODS and hmac.compare_digest(token.encode(), keys.token.encode()):
            rest = urlencode([(key, value) for key, value in pairs if key != "token"])
            return Verdict("login", 303, location=path + (f"?{rest}" if rest else ""))
        return Verdict("refuse", 403, "that token is not this start's; use the address phantom web printed")
    if not hmac.compare_digest(_cookie(headers.get("cookie", "")).encode(), keys.session.encode()):
        return Verdict("refuse", 403, "open the address `phantom web` printed (it carries this start's token)")
    return Verdict("pass")


def _cookie(header: str) -> str:
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value
    return ""


class Guard:
    """ASGI middleware: `judge` each HTTP request; add `HEADERS` to every answer."""

    def __init__(self, app: App, keys: WebSecrets) -> None:
        self.app = app
        self.keys = keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1")
                   for name, value in scope.get("headers", [])}
        verdict = judge(scope["method"], scope["path"], scope.get("query_string", b"").decode("latin-1"),
                        headers, self.keys)
        if verdict.action == "pass":
            await self.app(scope, receive, _with_headers(send))
            return
        extra: list[tuple[bytes, bytes]] = []
        body = b""
        if verdict.action == "login":
            extra = [(b"location", verdict.location.encode("latin-1")),
                     (b"set-cookie", f"{COOKIE}={self.keys.session}; HttpOnly; SameSite=Strict; "
                                     "Path=/".encode("latin-1"))]
        else:
            body = f"phantom web: {verdict.reason}\n".encode()
            extra = [(b"content-type", b"text/plain; charset=utf-8")]
        await send({"type": "http.response.start", "status": verdict.status,
                    "headers": extra + _header_pairs() + [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _header_pairs() -> list[tuple[bytes, bytes]]:
    return [(name.encode(), value.encode()) for name, value in HEADERS.items()]


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            message["headers"] = list(message.get("headers", [])) + [
                pair for pair in _header_pairs() if pair[0] not in present]
        await send(message)
    return sending
