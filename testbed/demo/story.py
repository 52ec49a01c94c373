"""The demo's chapters, run in order on one private desktop:

1. capture — a scripted user works (forms, notes, browsing) while the real
   daemon records; two explicit demonstrations are recorded along the way;
2. context — the day compiled into the compact block an agent would read;
3. routines — what recurs, its measures, and the crystallization verdicts;
4. programs — the demonstrations and the mined routine compiled;
5. replay — triggered through `gdbus call` exactly as a desktop shortcut
   would, by D-Bus activation of the replay service; then its telemetry.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from core.errors import PhantomError
from core.private import make_private_dirs, open_private, write_private
from testbed.executables import executable
from testbed.harness import VirtualDesktop
from testbed.waiting import wait_until

PHANTOM = str(Path(sys.executable).with_name("phantom"))


def say(text: str = "") -> None:
    print(text, flush=True)


def chapter(title: str) -> None:
    say()
    say(f"== {title} " + "=" * max(0, 70 - len(title)))


def indent(text: str, prefix: str = "  ") -> None:
    for line in text.rstrip("\n").splitlines():
        say(prefix + line)


class DemoError(PhantomError):
    """A chapter failed; the message says which command and why (one line
    for `phantom demo`, like every other error of the family)."""


class Demo:
    def __init__(self, out_dir: Path) -> None:
        self.out = out_dir.resolve()
        self.desktop: VirtualDesktop | None = None
        self.db: Path | None = None
        self.day = ""

    # -- plumbing -------------------------------------------------------------------------
    def _on_desktop(self) -> VirtualDesktop:
        """The desktop `run()` started: every chapter runs inside it."""
        assert self.desktop is not None, "a chapter runs only inside run()"
        return self.desktop

    def _store(self) -> Path:
        """The store `run()` named, on its desktop."""
        assert self.db is not None, "a chapter runs only inside run()"
        return self.db

    def phantom(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([PHANTOM, *args], capture_output=True, text=True, timeout=300,
                                env=dict(self._on_desktop().env, PATH=os.environ.get("PATH", "")))
        if check and result.returncode not in (0,):
            raise DemoError(f"phantom {' '.join(args)} failed: {result.stderr.strip()}")
        return result

    def _daemon_state(self) -> str | None:
        """The capture daemon's state as `phantom status` reports it, or None
        while it is not on the bus yet."""
        daemon = json.loads(self.phantom("status", "--format", "json").stdout)["daemon"]
        return daemon["state"] if daemon else None

    def run(self) -> int:
        if self.out.exists():
            shutil.rmtree(self.out)
        # The demo's compiled memory and logs are a day of someone's desktop:
        # 0600 files in a 0700 directory, like the store they come from.
        make_private_dirs(self.out)
        started = time.monotonic()
        with VirtualDesktop() as desktop:
            self.desktop = desktop
            os.environ.update(desktop.env)  # pyatspi and XTest in this process use it
            # The store sits where an installed, bus-activated replay service
            # looks for it: $XDG_DATA_HOME/phantom/phantom.sqlite3 of this desktop.
            self.db = Path(desktop.env["XDG_DATA_HOME"]) / "phantom" / "phantom.sqlite3"
            chapter("1. Capture: a scripted user works while the daemon records")
            self.capture()
            chapter("2. Context: the day as an agent reads it (compact block, zero model)")
            self.context()
            chapter("3. Routines: what recurs, measured and gated")
            routine_id = self.routines()
            chapter("4. Programs: demonstrations and the mined routine, compiled")
            self.programs(routine_id)
            chapter("5. Replay: a desktop shortcut calls the replay service over D-Bus")
            self.replay()
            shutil.copy(self.db, self.out / "phantom.sqlite3")
        say()
        say(f"demo finished in {time.monotonic() - started:.0f} s; the store and logs are in {self.out}")
        say(f"try: .venv/bin/phantom compile --db {self.out / 'phantom.sqlite3'} --day {self.day} "
            "--format markdown")
        return 0

    # -- chapters ---------------------------------------------------------------------------
    def capture(self) -> None:
        from testbed.scripted_user import ScriptedUser

        from .capture_summary import summarize
        from .session import record_demonstrations, work_session

        desktop = self._on_desktop()
        for kind, geometry in (("form", "320x230+20+20"), ("notes", "420x320+380+20"),
                               ("browser", "560x180+20+420")):
            desktop.launch_fixture(kind, "--geometry", geometry)
        config = self.out / "config.toml"
        write_private(config, b'[browsers]\napps = ["phantom-browser"]\n')
        daemon = subprocess.Popen(
            [PHANTOM, "capture", "--db", str(self.db), "--config", str(config)],
            env=dict(desktop.env, PATH=os.environ.get("PATH", "")), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=open_private(self.out / "capture.log"))
        wait_until(lambda: self._daemon_state() in ("capturing", "idle"),
                   timeout=30, what="the capture daemon to start")
        say(f"desktop {desktop.display}: phantom-form, phantom-notes, phantom-browser; "
            f"capture daemon pid {daemon.pid}")
        user = ScriptedUser(desktop)
        try:
            began = time.monotonic()
            done = work_session(user)
            say(f"scripted user: {done.keys} keys, {done.clicks} clicks, {done.form_fills} form "
                f"fills in {time.monotonic() - began:.0f} s")
            names = record_demonstrations(user, lambda *a: self.phantom(*a))
            say(f"explicit demonstrations recorded as 'sign up': {', '.join(names)} "
                "(phantom record start/stop; typed text kept only inside them)")
        finally:
            user.close()
            daemon.send_signal(signal.SIGTERM)
            code = daemon.wait(30)
        say(f"capture daemon stopped with exit code {code} (SIGTERM flushes)")
        for line in summarize(self._store()):
            say("  " + line)
        self.day = self._capture_day()

    def context(self) -> None:
        block = self.phantom("compile", "--db", str(self.db), "--day", self.day).stdout
        write_private(self.out / "context.txt", block.encode("utf-8"))
        indent(block)

    def routines(self) -> str | None:
        table = self.phantom("routines", "--db", str(self.db)).stdout
        indent(table)
        report = json.loads(self.phantom("routines", "--db", str(self.db), "--format", "json").stdout)
        chosen = next((r for r in report["routines"] if r["decision"]["crystallize"]
                       and r["steps"][0]["app"] == "phantom-form"), None)
        if chosen is not None:
            gate = chosen["decision"]
            say(f"crystallize {chosen['id']}: heuristic {'yes' if gate['heuristic_pass'] else 'no'}, "
                f"Gittins index {gate['gittins_index']:.3f} > λ* {gate['lambda_star']:.3f} "
                f"({gate['successes']}/{gate['trials']} observed completions)")
        return chosen["id"] if chosen else None

    def programs(self, routine_id: str | None) -> None:
        demo = self.phantom("compile-program", "sign up", "--db", str(self.db))
        indent(demo.stdout)
        if routine_id is not None:
            crystallized = self.phantom("compile-program", "fill form", "--routine", routine_id,
                                        "--db", str(self.db))
            indent(crystallized.stdout)
        indent(self.phantom("programs", "--db", str(self.db)).stdout)

    def replay(self) -> None:
        from testbed.scripted_user import app_named, find, text_of

        self.phantom("install")
        say("phantom install wrote the units and the D-Bus activation file into this desktop's "
            "XDG dirs")
        shortcut = self.phantom("shortcut", "sign up", "--param", "P0=Grace Hopper",
                                "--param", "P1=grace@example.org").stdout.strip()
        say(f"$ {shortcut}")
        began = time.monotonic()
        result = subprocess.run([executable("sh"), "-c", shortcut], capture_output=True, text=True, timeout=120,
                                env=dict(self._on_desktop().env, PATH=os.environ.get("PATH", "")))
        if result.returncode != 0:
            raise DemoError(f"the shortcut's gdbus call failed: {result.stderr.strip()}")
        status = result.stdout.split(",")[0].strip("(' ")
        say(f"  → {status} in {time.monotonic() - began:.1f} s (replay service started by D-Bus "
            "activation)")
        form = app_named("phantom-form")
        say(f"  form now shows: Name={text_of(find(form, 'text', label='Name:'))!r}, "
            f"Email={text_of(find(form, 'text', label='Email:'))!r}, "
            f"status={text_of(find(form, 'label', name='Status'))!r}")
        indent(self.phantom("runs", "--last", "--db", str(self.db)).stdout)

    def _capture_day(self) -> str:
        from datetime import datetime, timedelta, timezone

        import apsw

        connection = apsw.Connection(f"file:{self.db}?mode=ro",
                                     flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
        try:
            first = connection.execute(
                "SELECT ts_ms, utc_offset_min FROM snapshots ORDER BY ts_ms LIMIT 1").fetchone()
            if first is None:
                raise DemoError(f"the capture chapter stored no snapshot in {self.db}: the daemon "
                                f"saw no window (its log: {self.out / 'capture.log'})")
            ts, offset = first
        finally:
            connection.close()
        moment = datetime.fromtimestamp(ts / 1000, tz=timezone(timedelta(minutes=offset)))
        return moment.date().isoformat()
