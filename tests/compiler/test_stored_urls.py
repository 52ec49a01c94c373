"""URLs in rows written before capture sanitised them never reach a
compiled output."""

from __future__ import annotations

from pathlib import Path

from compiler.api import compile_window, read_window, render
from core.store import SnapshotRow, StoreWriter

TOKEN = "Tok3n-Wh1sper-4417"
PASSWORD = "Pa55-Velvet-9032"
LEAKY = (f"https://alice:{PASSWORD}@www.youtube.com/watch?v=dQw4w9WgXcQ&token={TOKEN}"
         f"&code={TOKEN}#code={TOKEN}")
CLEAN = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
DAY_MS = 1_772_438_400_000  # 2026-03-02T08:00:00Z


def old_store(path: Path, url: str) -> Path:
    """A store whose rows were written verbatim, as capture did before."""
    writer = StoreWriter(path, commit_interval=None)
    for i in range(4):
        writer.submit(SnapshotRow(writer.ids.next("snapshots"), DAY_MS + i * 20_000, 0, "UTC", 0,
                                  "focus" if i == 0 else "heartbeat", "firefox", "firefox.Firefox",
                                  None, None, "Video", url, 0, 1, None, None))
    writer.flush()
    writer.close()
    return path


def outputs(db: Path) -> bytes:
    compiled = compile_window(db, since="2026-03-02T07:00:00+00:00", until="2026-03-02T10:00:00+00:00")
    return b"\n".join(render(compiled, fmt) for fmt in ("json", "markdown", "compact"))


def test_rows_written_before_the_rule_compile_without_their_secrets(tmp_path):
    leaky = outputs(old_store(tmp_path / "old.sqlite3", LEAKY))
    clean = outputs(old_store(tmp_path / "new.sqlite3", CLEAN))
    for secret in (TOKEN, PASSWORD, "alice"):
        assert secret.encode() not in leaky
    assert b"youtube_video" in leaky and b"dQw4w9WgXcQ" in leaky
    # The same frames and pages; only the digest of the rows read differs.
    assert leaky.split(b"sha256")[0] == clean.split(b"sha256")[0]
    capture, _ = read_window(tmp_path / "old.sqlite3")
    assert {s.url for s in capture.snapshots} == {CLEAN}
