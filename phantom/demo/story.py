"""The demo's chapters, run in order on one private desktop."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..desktop.harness import VirtualDesktop
from ..desktop.waiting import wait_until


def say(text: str = "") -> None:
    print(text, flush=True)


def chapter(title: str) -> None:
    say()
    say(f"== {title} " + "=" * max(0, 66 - len(title)))


class Demo:
    def __init__(self, out_dir: Path) -> None:
        self.out = out_dir.resolve()
        self.db = self.out / "phantom.sqlite3"
        self.desktop: VirtualDesktop | None = None

    def run(self) -> int:
        if self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True)
        started = time.monotonic()
        with VirtualDesktop() as desktop:
            self.desktop = desktop
            os.environ.update(desktop.env)  # pyatspi and XTest in this process use it
            chapter("1. Capture: a scripted user works while the daemon records")
            self.capture()
        say()
        say(f"demo finished in {time.monotonic() - started:.0f} s; everything is in {self.out}")
        return 0

    def capture(self) -> None:
        from ..desktop.scripted_user import ScriptedUser
        from .capture_summary import summarize
        from .session import work_session

        desktop = self.desktop
        for kind, geometry in (("form", "320x230+20+20"), ("notes", "420x320+380+20"),
                               ("browser", "560x180+20+420")):
            desktop.launch_fixture(kind, "--geometry", geometry)
        config = self.out / "config.toml"
        config.write_text('[browsers]\napps = ["phantom-browser"]\n', encoding="utf-8")
        log = open(self.out / "capture.log", "wb")
        daemon = subprocess.Popen(
            [str(Path(sys.executable).with_name("phantom")), "capture", "--db", str(self.db),
             "--config", str(config)], env=dict(desktop.env, PATH=os.environ.get("PATH", "")),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        wait_until(lambda: self.db.exists(), timeout=15, what="the capture store")
        time.sleep(1.0)
        say(f"desktop {desktop.display}: phantom-form, phantom-notes, phantom-browser; "
            f"capture daemon pid {daemon.pid}")
        user = ScriptedUser(desktop)
        try:
            began = time.monotonic()
            done = work_session(user)
            say(f"scripted user: {done.keys} keys, {done.clicks} clicks, {done.form_fills} form "
                f"fills in {time.monotonic() - began:.0f} s")
        finally:
            user.close()
            daemon.send_signal(signal.SIGTERM)
            code = daemon.wait(20)
        say(f"capture daemon stopped with exit code {code} (SIGTERM flushes)")
        for line in summarize(self.db):
            say("  " + line)
