"""`phantom web` in a real browser (Debian's chromium, driven by Selenium
through its chromedriver) and over plain HTTP: the pages a person clicks
through, the token that opens them, and every request a hostile page or a
rebinding name could send, refused."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from programs.store import save_program
from support.programs import form_program
from testbed.executables import executable

PHANTOM = str(Path(sys.executable).with_name("phantom"))
RECORDED = Path(__file__).resolve().parents[1].parent / "fixtures" / "recorded" / "desktop.sqlite3"


class WebView:
    """`phantom web --port 0 --no-open` on a store, and the address it printed."""

    def __init__(self, db: Path, home: Path) -> None:
        env = {**os.environ, "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
               "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/phantom-test-bus"}
        self.process = subprocess.Popen([PHANTOM, "web", "--db", str(db), "--port", "0", "--no-open"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([\w-]+))", line)
        assert match, line + (self.process.stderr.read() if self.process.stderr else "")
        self.address, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                body: str | None = None) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request(method, path, body=body, headers={"Host": f"127.0.0.1:{self.port}", **(headers or {})})
        return connection.getresponse()

    def cookie(self) -> str:
        answer = self.request("GET", f"/?token={self.token}")
        assert answer.status == 303 and answer.getheader("location") == "/"
        header = answer.getheader("set-cookie") or ""
        assert "HttpOnly" in header and "SameSite=Strict" in header
        return header.split(";")[0]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def store(tmp_path):
    db = tmp_path / "recorded.sqlite3"
    shutil.copy(RECORDED, db)
    save_program(db, form_program(), created_ms=1_795_990_000_000)
    return db


@pytest.fixture
def web(store, tmp_path):
    view = WebView(store, tmp_path)
    yield view
    view.stop()


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = executable("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable("chromedriver")), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def snapshots_in(db: Path) -> int:
    from core.store import open_readonly

    connection = open_readonly(db)
    try:
        return int(connection.execute("SELECT count(*) FROM snapshots").fetchone()[0])
    finally:
        connection.close()


def navigate(browser, act) -> str:
    """Do `act` (a click, a submit), wait for the next page to replace this
    one, and return the new page's main text."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    old = browser.find_element(By.TAG_NAME, "main")
    act()
    WebDriverWait(browser, 30).until(expected_conditions.staleness_of(old))
    return str(WebDriverWait(browser, 30).until(
        lambda driver: driver.find_element(By.TAG_NAME, "main")).text)


def test_a_person_clicks_through_a_day_a_frame_search_programs_and_forgets(web, browser, store):
    from selenium.webdriver.common.by import By

    def click(by: str, what: str) -> str:
        return navigate(browser, browser.find_element(by, what).click)

    browser.get(web.address)
    assert "token" not in browser.current_url          # exchanged for the cookie, gone from the bar
    assert browser.title.startswith("Day 2026-11-29") or browser.title.startswith("Day ")
    browser.get(f"http://127.0.0.1:{web.port}/?day=2026-11-29")
    assert browser.find_element(By.CSS_SELECTOR, "svg.timeline")
    rows = browser.find_elements(By.CSS_SELECTOR, "table caption")
    assert any(caption.text.startswith("Frames of 2026-11-29") for caption in rows)
    main = click(By.CSS_SELECTOR, "main table a")
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("phantom-form at")
    assert "Input counts" in main and "Evidence rows" in main

    click(By.LINK_TEXT, "Search")
    box = browser.find_element(By.NAME, "q")
    box.send_keys("form")
    assert "stretches for 'form'" in navigate(browser, box.submit)

    assert "Routines and their verdicts" in click(By.LINK_TEXT, "Routines")

    click(By.LINK_TEXT, "Programs")
    main = click(By.LINK_TEXT, "fill form")
    assert "candidate" in main and "type $P0 into text 'Name:'" in main
    click(By.XPATH, "//button[starts-with(., 'Promote')]")
    assert "candidate → active" in browser.find_element(By.CSS_SELECTOR, "p.notice").text

    main = click(By.LINK_TEXT, "Privacy")
    assert "capture daemon is not running" in main and "Exclusions (never captured)" in main
    before = snapshots_in(store)
    for name, value in (("since", "2026-11-29T00:00"), ("until", "2026-11-30T00:00")):
        # What the date picker fills in (typing into it depends on the browser's locale).
        browser.execute_script("arguments[0].value = arguments[1]", browser.find_element(By.NAME, name), value)
    browser.find_element(By.XPATH, "//button[.='Forget']").click()   # the box is not ticked: no request
    assert snapshots_in(store) == before and "notice" not in browser.current_url
    browser.find_element(By.NAME, "confirm").click()
    click(By.XPATH, "//button[.='Forget']")
    assert "forgotten:" in browser.find_element(By.CSS_SELECTOR, "p.notice").text
    assert before > 0 and snapshots_in(store) == 0


def test_requests_without_the_token_or_from_elsewhere_are_refused(web):
    cookie = web.cookie()
    assert web.request("GET", "/").status == 403                              # no cookie
    assert web.request("GET", "/?token=not-this-one").status == 403
    assert web.request("GET", "/", {"Host": f"evil.example:{web.port}", "Cookie": cookie}).status == 421
    assert web.request("GET", "/", {"Host": "127.0.0.1:1", "Cookie": cookie}).status == 421
    assert web.request("GET", "/", {"Origin": "http://evil.example", "Cookie": cookie}).status == 403
    form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    assert web.request("POST", "/program/promote", form, "id=x").status == 403   # no Origin
    assert web.request("POST", "/program/promote", {**form, "Origin": "http://evil.example"}, "id=x").status == 403
    assert web.request("DELETE", "/", {**form, "Origin": f"http://127.0.0.1:{web.port}"}).status == 405
    # This server's origin (or a browser's "null" under no-referrer), but no form token from its pages:
    for origin in (f"http://127.0.0.1:{web.port}", "null"):
        assert web.request("POST", "/program/promote", {**form, "Origin": origin}, "id=x").status == 403
    assert web.request("GET", "/", {"Origin": "null", "Cookie": cookie}).status == 403
    answer = web.request("GET", "/?day=2026-11-29", {"Cookie": cookie})
    assert answer.status == 200
    assert answer.getheader("cache-control") == "no-store"
    assert answer.getheader("referrer-policy") == "no-referrer"
    assert "default-src 'none'" in (answer.getheader("content-security-policy") or "")
    assert answer.getheader("access-control-allow-origin") is None
    assert b"https://" not in answer.read()      # nothing fetched from elsewhere
    bad_day = web.request("GET", "/?day=someday", {"Cookie": cookie})
    assert bad_day.status == 400 and b"not a day" in bad_day.read()


def test_it_listens_on_loopback_only_and_a_taken_port_is_one_line(web, tmp_path, store):
    port = f"{web.port:04X}"
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if local.endswith(f":{port}") and state == "0A":
                listening.append(local)
    assert listening == [f"0100007F:{port}"]
    taken = subprocess.run([PHANTOM, "web", "--db", str(store), "--port", str(web.port), "--no-open"],
                           capture_output=True, text=True, timeout=60)
    assert taken.returncode != 0 and taken.stderr.count("\n") == 1
    assert f"port {web.port} on 127.0.0.1 is in use" in taken.stderr and "Traceback" not in taken.stderr


def test_a_synthetic_day_its_frames_and_thumbnails_are_served(tmp_path):
    db = tmp_path / "synth.sqlite3"
    made = subprocess.run([PHANTOM, "synth", "--db", str(db), "--days", "1", "--start", "2026-03-02"],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    view = WebView(db, tmp_path)
    try:
        cookie = view.cookie()
        day = view.request("GET", "/?day=2026-03-02", {"Cookie": cookie})
        page = day.read().decode()
        assert day.status == 200 and 'class="frame"' in page
        frames = re.findall(r'href="(/frame\?day=2026-03-02&amp;id=[^"]+)"', page)
        assert len(frames) > 20
        images = 0
        for link in frames[:40]:
            frame = view.request("GET", link.replace("&amp;", "&"), {"Cookie": cookie})
            body = frame.read().decode()
            assert frame.status == 200 and "Input counts" in body
            for sha in re.findall(r'src="/image/([0-9a-f]{64})"', body):
                image = view.request("GET", f"/image/{sha}", {"Cookie": cookie})
                assert image.status == 200 and image.getheader("cache-control") == "no-store"
                assert image.read()[:4] in (b"RIFF", b"\x89PNG")
                images += 1
        assert images > 0
        assert view.request("GET", "/image/" + "0" * 64, {"Cookie": cookie}).status == 404
    finally:
        view.stop()
