"""`phantom web`: server time of a day's page on the 51-day corpus.

One weekday of the 51-day synthetic corpus (`phantom synth --days 51 --seed
7`, as bench_compile builds it), served by a running `phantom web`; each
request timed from sending to the last byte over loopback, so it is the
server's time plus a local round trip. Cold: the first request of a day (no
compiled cache); warm: the same page again (the compiled cache hit). The
baseline in the same run: `phantom compile --day` of the same day as JSON in
a new process, which is what the page's data costs on the CLI. Prints,
never asserts.

    .venv/bin/python bench/bench_web.py --runs 9
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_compile import corpus  # noqa: E402
from bench.common import median, percentile, table  # noqa: E402

DAYS = ("2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-09", "2026-03-10",
        "2026-03-11", "2026-03-12", "2026-03-13")


def timed_get(port: int, path: str, cookie: str) -> float:
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}", "Cookie": cookie})
    answer = connection.getresponse()
    answer.read()
    assert answer.status == 200, answer.status
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    db = corpus(51, "phantom")
    phantom = str(Path(sys.executable).with_name("phantom"))
    home = Path(tempfile.mkdtemp(prefix="phantom-bench-web-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(home / "cache")}
    server = subprocess.Popen([phantom, "web", "--db", str(db), "--port", "0", "--no-open"],
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        match = re.search(r"127\.0\.0\.1:(\d+)/\?token=([\w-]+)", server.stdout.readline())
        assert match
        port = int(match.group(1))
        login = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        login.request("GET", f"/?token={match.group(2)}", headers={"Host": f"127.0.0.1:{port}"})
        cookie = (login.getresponse().getheader("set-cookie") or "").split(";")[0]
        cold, warm, baseline = [], [], []
        for day in DAYS[:args.runs]:
            cold.append(timed_get(port, f"/?day={day}", cookie))
            warm.append(timed_get(port, f"/?day={day}", cookie))
            started = time.perf_counter()
            subprocess.run([phantom, "compile", "--db", str(db), "--day", day, "--format", "json"],
                           check=True, stdout=subprocess.DEVNULL, env={**env, "XDG_CACHE_HOME": str(home / "c2")})
            baseline.append((time.perf_counter() - started) * 1000)
    finally:
        server.terminate()
        server.wait(10)
    rows = [("day page, first request (cold cache)", f"{median(cold):.0f} ms median, p90 {percentile(cold, 90):.0f}"),
            ("day page, again (warm cache)", f"{median(warm):.0f} ms median, p90 {percentile(warm, 90):.0f}"),
            ("baseline: phantom compile --day --format json, new process",
             f"{median(baseline):.0f} ms median")]
    print(table(rows, f"phantom web, 51-day corpus, {len(cold)} weekdays"))


if __name__ == "__main__":
    main()
