"""Capture on real applications used as people use them: windows switched by
clicking into them (a window manager running), a GTK 4 calculator, mousepad
and a GTK 3 form side by side. Every click and key is credited to the window
that received it — the day's frames count exactly what a scripted session
logged per application — and the first click into a window is resolved in
that window's own tree.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest

from support.apps import center, desktop_center, find
from support.cli import phantom
from support.daemon import CaptureProcess, query, settle, wait_for_rows
from testbed.executables import executable

pytestmark = pytest.mark.desktop


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


def app_of(pid: int):
    from replay import live
    from testbed.waiting import wait_until

    return wait_until(lambda: live.application_of(pid), timeout=15, what=f"AT-SPI app of pid {pid}")


def place(desktop, process, wm_class: str, x: int, y: int, width: int, height: int) -> None:
    window = desktop.wait_for_window(wm_class, timeout=30, pid=process.pid)
    desktop.place_window(window, x, y, width, height)


def button(app, label: str):
    """A gnome-calculator button by its label (GTK 4.8 names it "label label")."""
    return find(app, "push button", name=f"{label} {label}")


class Session:
    """A scripted person who logs what they did to which application."""

    def __init__(self, user) -> None:
        self.user = user
        self.clicks: Counter = Counter()
        self.keys: Counter = Counter()

    def click(self, app_name: str, accessible) -> None:
        self.user.click(*desktop_center(accessible, app_name))
        self.clicks[app_name] += 1
        time.sleep(0.35)

    def type(self, app_name: str, text: str) -> None:
        self.user.type(text, delay=0.03)
        self.keys[app_name] += len(text)


@pytest.fixture
def three_apps(managed_desktop, tmp_path):
    desktop = managed_desktop
    document = tmp_path / "notes.txt"
    document.write_text("first line\n")
    calculator = desktop.launch([executable("gnome-calculator")], name="gnome-calculator")
    place(desktop, calculator, "gnome-calculator", 20, 10, 340, 480)
    mousepad = desktop.launch([executable("mousepad"), str(document)], name="mousepad")
    place(desktop, mousepad, "mousepad", 380, 0, 520, 380)
    form = desktop.launch_fixture("form", "--geometry", "340x240+380+430")
    settle(2.0)
    yield desktop, app_of(calculator.pid), app_of(mousepad.pid), app_of(form.pid)
    for process in (calculator, mousepad, form):
        desktop.close_app(process)


def frames_by_app(desktop, db, day: str) -> dict[str, tuple[int, int]]:
    compiled = phantom(desktop, "compile", "--db", str(db), "--day", day, "--format", "json")
    assert compiled.returncode == 0, compiled.stderr
    totals: dict[str, list[int]] = {}
    for frame in json.loads(compiled.stdout)["frames"]:
        keys, clicks = totals.setdefault(frame["app"], [0, 0])
        totals[frame["app"]] = [keys + frame["input"]["keys"], clicks + frame["input"]["clicks"]]
        for detour in frame["interruptions"]:
            if "input" in detour:
                keys, clicks = totals.setdefault(detour["app"], [0, 0])
                totals[detour["app"]] = [keys + detour["input"]["keys"], clicks + detour["input"]["clicks"]]
    return {app: tuple(v) for app, v in totals.items()}


def test_each_app_is_credited_exactly_what_it_received(three_apps, user, tmp_path):
    desktop, calculator, mousepad, form = three_apps
    db = tmp_path / "store.sqlite3"
    person = Session(user)
    with CaptureProcess(desktop, db) as capture:
        wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                      what="the daemon's first snapshot")
        for name in ("7", "+", "2", "="):                       # GTK 4, clicked into from elsewhere
            person.click("gnome-calculator", button(calculator, name))
        person.click("mousepad", find(mousepad, "text"))       # first click into mousepad
        person.type("mousepad", "hello")
        person.click("phantom-form", find(form, "text", label="Name:"))
        person.type("phantom-form", "abc")                      # typed just before the switch...
        person.click("gnome-calculator", button(calculator, "1"))  # ...that this click makes
        person.click("mousepad", find(mousepad, "text"))
        person.type("mousepad", "xy")
        settle(1.0)
        assert capture.stop() == 0
    day = query(db, "SELECT date(min(ts_ms) / 1000, 'unixepoch', 'localtime') FROM snapshots")[0][0]
    expected = {app: (person.keys[app], person.clicks[app]) for app in person.clicks}
    assert frames_by_app(desktop, db, day) == expected

    clicks = query(db, "SELECT s.app, i.resolution, i.target_role, i.target_name, i.target_path "
                       "FROM input_events i JOIN snapshots s ON s.id = i.snapshot_id "
                       "WHERE i.kind = 'click' ORDER BY i.ts_ms")
    assert [c[0] for c in clicks] == ["gnome-calculator"] * 4 + ["mousepad", "phantom-form",
                                                                 "gnome-calculator", "mousepad"]
    assert [(c[1], c[2], c[3]) for c in clicks[:4]] == [("exact", "push button", f"{n} {n}") for n in "7+2="]
    first_into_mousepad = clicks[4]
    assert first_into_mousepad[1] == "exact" and first_into_mousepad[4].startswith("mousepad/")
    assert clicks[5][1:4] == ("exact", "text", "Name:") and clicks[5][4].startswith("phantom-form/")
    unlinked = query(db, "SELECT count(*) FROM input_events WHERE snapshot_id IS NULL")
    assert unlinked == [(0,)]


def test_the_action_stream_switches_before_the_click_that_switched(three_apps, user, tmp_path):
    desktop, calculator, mousepad, form = three_apps
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                      what="the daemon's first snapshot")
        user.click(*desktop_center(button(calculator, "5"), "gnome-calculator"))
        settle(0.5)
        user.click(*center(find(form, "text", label="Email:")))
        settle(0.5)
        user.type("x@y.z")
        settle(1.0)
        assert capture.stop() == 0
    from compiler.api import read_window
    from compiler.routines.actions import derive_actions

    capture_rows, _ = read_window(db)
    described = [a.step.describe() for a in derive_actions(capture_rows)]
    into_calculator = described.index("switch to gnome-calculator")
    assert described[into_calculator:] == [
        "switch to gnome-calculator", "click push button '5 5' in gnome-calculator",
        "switch to phantom-form", "click text 'Email:' in phantom-form",
        "type into text 'Email:' in phantom-form"], described


ORDERS = ("<html><head><title>Orders</title></head><body><h1>Orders</h1>"
          "<p><a href='detail.html'>Order 7</a></p>"
          "<p><button onclick=\"document.title='Approved'\">Approve</button></p></body></html>")
DETAIL = "<html><head><title>Order 7</title></head><body><h1>Order 7</h1></body></html>"


def test_firefox_pages_and_link_clicks(managed_desktop, user, tmp_path):
    """Firefox ESR on a local page: the page's URL is captured from the real
    browser, a click on a link resolves to the link, and the frame types the
    page."""
    from testbed.firefox import LocalSite, launch_firefox
    from testbed.waiting import wait_until

    desktop = managed_desktop
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "orders.html").write_text(ORDERS)
    (site_dir / "detail.html").write_text(DETAIL)
    site = LocalSite(site_dir)
    browser = launch_firefox(desktop, site.url("orders.html"), tmp_path / "profile")
    db = tmp_path / "store.sqlite3"
    try:
        firefox = app_of(browser.pid)
        wait_until(lambda: find(firefox, "link", name="Order 7"), timeout=30, what="the page's link")
        # In front, whatever an earlier test left open: the click must land on
        # the link a person sees, not on a window that covers it.
        window = desktop.wait_for_window("firefox-esr", timeout=30, pid=browser.pid)
        assert desktop.run([executable("xdotool"), "windowactivate", "--sync", str(window)]).returncode == 0
        settle(1.0)
        with CaptureProcess(desktop, db) as capture:
            wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE url IS NOT NULL",
                          lambda rows: rows[0][0] > 0, timeout=20, what="a snapshot with the page's URL")
            user.click(*center(find(firefox, "link", name="Order 7")))
            wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE url LIKE '%detail.html%'",
                          lambda rows: rows[0][0] > 0, timeout=20, what="the linked page's snapshot")
            assert capture.stop() == 0
        urls = [row[0] for row in query(db, "SELECT url FROM snapshots WHERE url IS NOT NULL ORDER BY ts_ms")]
        assert urls[0] == site.url("orders.html") and urls[-1] == site.url("detail.html")
        click = query(db, "SELECT i.resolution, i.target_role, i.target_name, s.app FROM input_events i "
                          "JOIN snapshots s ON s.id = i.snapshot_id WHERE i.kind = 'click'")
        assert click == [("exact", "link", "Order 7", "firefox-esr")]
        day = query(db, "SELECT date(min(ts_ms) / 1000, 'unixepoch', 'localtime') FROM snapshots")[0][0]
        compiled = json.loads(phantom(desktop, "compile", "--db", str(db), "--day", day,
                                      "--format", "json").stdout)
        pages = [page for frame in compiled["frames"] for page in frame["pages"]]
        assert pages and all(page["kind"] for page in pages)
        targets = [t for frame in compiled["frames"] for t in frame["click_targets"]]
        assert {"role": "link", "label": "Order 7", "count": 1} in targets
    finally:
        desktop.close_app(browser)
        site.close()
