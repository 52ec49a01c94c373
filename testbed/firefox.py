"""Firefox ESR on the virtual desktop, showing pages from a local web server:
a real browser for capture and replay tests (its accessibility tree is full
once the AT-SPI bus is enabled, which the harness does).

The profile is thrown away with the test's temporary directory and its
`user.js` turns off what a first start would otherwise open (welcome pages,
data-reporting notices, the default-browser question), so the window shows
exactly the page asked for.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any

from .executables import executable
from .harness import App, VirtualDesktop

FIRST_RUN_OFF = {
    "browser.startup.homepage_override.mstone": '"ignore"',
    "browser.aboutwelcome.enabled": "false",
    "browser.shell.checkDefaultBrowser": "false",
    "datareporting.policy.dataSubmissionEnabled": "false",
    "toolkit.telemetry.reportingpolicy.firstRun": "false",
    "browser.startup.page": "0",
}


class LocalSite:
    """A directory served over HTTP on 127.0.0.1 (a port of the kernel's
    choosing), until `close()`."""

    def __init__(self, directory: Path) -> None:
        handler = functools.partial(_QuietHandler, directory=str(directory))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # the test's output stays readable
        pass


def launch_firefox(desktop: VirtualDesktop, url: str, profile: Path, *, timeout: float = 60.0) -> App:
    """Start Firefox ESR with a fresh profile at `profile` on `url` and wait
    for its window."""
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "user.js").write_text("".join(f'user_pref("{key}", {value});\n'
                                             for key, value in FIRST_RUN_OFF.items()))
    app = desktop.launch([executable("firefox-esr"), "--no-remote", "--new-instance", "--profile", str(profile), url],
                         name="firefox-esr")
    desktop.wait_for_window("firefox-esr", timeout=timeout)
    return app
