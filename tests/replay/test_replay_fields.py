"""Typing into real applications' fields as the person did: a GTK 3 entry
that selects its whole text when focused by AT-SPI, a GTK 4 entry (whose
accessible refuses grabFocus and answers `getText(0, -1)` with nothing),
and Firefox, whose fields accept AT-SPI's EditableText calls, say yes and
change nothing. What the field held before the run must survive an
insertion; a run that did not type must not report success, and one that
did must not be reported as failed.
"""

from __future__ import annotations

import time

import pytest
from test_replay_trust import compile_program, replay

from support.apps import app_by_pid, center, desktop_center, find, text_of
from support.cli import phantom
from support.daemon import CaptureProcess, settle, wait_for_rows
from testbed.executables import executable

pytestmark = pytest.mark.desktop


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


def record(desktop, name: str, actions) -> None:
    assert phantom(desktop, "record", "start", name).returncode == 0
    actions()
    settle(0.8)
    assert phantom(desktop, "record", "stop").returncode == 0


def whole_text(accessible) -> str:
    text = accessible.queryText()
    return text.getText(0, text.characterCount)


def first_snapshot(db) -> None:
    wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                  what="the daemon's first snapshot")


# -- GTK 3: an entry focused through AT-SPI selects all it holds ----------------------------

def test_a_click_then_typing_adds_to_what_a_gtk3_field_held(managed_desktop, user, tmp_path):
    """Twice: the Name field holds "Dr.", the person clicks into it (after
    the text) and types a name, then Submit. Replayed on a field holding
    "Prof.", the name is added after it — not typed over it."""
    desktop = managed_desktop
    process = desktop.launch_fixture("form", "--title", "Form", "--geometry", "320x230+40+40")
    try:
        settle(1.0)
        form = app_by_pid(process.pid)
        name = find(form, "text", label="Name:")
        db = tmp_path / "store.sqlite3"
        with CaptureProcess(desktop, db) as capture:
            first_snapshot(db)
            for value in (" Ada Lovelace", " Alan Turing"):
                name.queryEditableText().setTextContents("Dr.")

                def fill(value=value):
                    x, y = center(name)
                    user.click(x + 60, y)        # in the field, after its text
                    time.sleep(0.3)
                    user.type(value)
                    user.click(*center(find(form, "push button", name="Submit")))
                    time.sleep(0.5)
                record(desktop, "titled name", fill)
                assert text_of(name) == "Dr." + value
            assert capture.stop() == 0
        program = compile_program(desktop, db, "titled name")
        typing = next(s for s in program["steps"] if s["action"] == "type")
        assert typing["entry"] == "insert" and typing["text"] == "$P0"
        name.queryEditableText().setTextContents("Prof.")
        code, result, stderr = replay(desktop, db, "titled name", "--param", "P0= Grace Hopper")
        assert code == 0, (result, stderr)
        assert text_of(name) == "Prof. Grace Hopper"
        assert text_of(find(form, "label", name="Status")) == "Submitted: Prof. Grace Hopper <>"
    finally:
        desktop.close_app(process)


# -- GTK 4: gtk4-widget-factory's entry -----------------------------------------------------

def gtk4_entry(app):
    """The widget factory's first entry (the editable combo box's, on Page 1)."""
    return find(app, "text", name="GtkEntry")


def test_typing_into_a_gtk4_entry_replays(managed_desktop, user, tmp_path):
    """Click the entry, select all, type, Return — in GTK 4, whose entry
    refuses AT-SPI's grabFocus (the click goes through the pointer, hit-tested)
    and whose text is read by its character count."""
    desktop = managed_desktop
    process = desktop.launch([executable("gtk4-widget-factory")], name="gtk4-widget-factory",
                             extra_env={"GSK_RENDERER": "cairo"})
    try:
        window = desktop.wait_for_window("gtk4-widget-factory", timeout=30, pid=process.pid)
        desktop.place_window(window, 60, 40, 1100, 700)
        settle(2.0)
        factory = app_by_pid(process.pid, timeout=30)
        entry = gtk4_entry(factory)
        db = tmp_path / "store.sqlite3"
        with CaptureProcess(desktop, db) as capture:
            first_snapshot(db)
            for value in ("hello world", "good night moon"):
                def fill(value=value):
                    user.click(*desktop_center(entry, "gtk4-widget-factory"))
                    time.sleep(0.4)
                    user.key("ctrl+a")
                    user.type(value)
                    user.key("Return")
                record(desktop, "gtk4 entry", fill)
                assert whole_text(entry) == value
            assert capture.stop() == 0
        program = compile_program(desktop, db, "gtk4 entry")
        assert [s["action"] for s in program["steps"]] == ["click", "key", "type", "key"]
        code, result, stderr = replay(desktop, db, "gtk4 entry", "--param", "P0=replayed here")
        assert code == 0, (result, stderr)
        assert result["status"] == "success"
        assert whole_text(entry) == "replayed here"
    finally:
        desktop.close_app(process)


# -- Firefox: EditableText says yes and does nothing ----------------------------------------

ORDER_PAGE = """<!doctype html><html><head><title>Order form</title></head><body>
<h1>Order</h1>
<form onsubmit="document.title='Order placed'; return false;">
<label for="item">Item</label> <input id="item" type="text"><br>
<label for="note">Note</label> <input id="note" type="text"><br>
<button type="submit">Place order</button>
</form>
<button onclick="document.getElementById('item').value=''; document.getElementById('note').value='';
 document.title='Order form'">Reset</button>
</body></html>"""


@pytest.fixture(scope="module")
def firefox_order(managed_desktop, user, tmp_path_factory):
    """Firefox ESR on a local order page, with two demonstrations recorded
    by the real daemon: click Item, type, click Note, type, Place order."""
    from testbed.firefox import LocalSite, launch_firefox
    from testbed.waiting import wait_until

    desktop = managed_desktop
    root = tmp_path_factory.mktemp("firefox-order")
    (root / "site").mkdir()
    (root / "site" / "order.html").write_text(ORDER_PAGE)
    site = LocalSite(root / "site")
    browser = launch_firefox(desktop, site.url("order.html"), root / "profile")
    try:
        firefox = app_by_pid(browser.pid, timeout=30)
        wait_until(lambda: find(firefox, "entry", name="Item"), timeout=30, what="the page's fields")
        settle(1.5)
        db = root / "store.sqlite3"
        with CaptureProcess(desktop, db) as capture:
            first_snapshot(db)
            for item, note in (("Blue widget", "fast please"), ("Red gadget", "gift wrap")):
                def order(item=item, note=note):
                    for label, value in (("Item", item), ("Note", note)):
                        user.click(*center(find(firefox, "entry", name=label)))
                        time.sleep(0.3)
                        user.type(value)
                    user.click(*center(find(firefox, "push button", name="Place order")))
                    time.sleep(0.8)
                record(desktop, "order", order)
                user.click(*center(find(firefox, "push button", name="Reset")))
                time.sleep(0.5)
            assert capture.stop() == 0
        program = compile_program(desktop, db, "order")
        assert [p["field"] for p in program["parameters"]] == ["Item", "Note"]
        yield desktop, firefox, db
    finally:
        desktop.close_app(browser)
        site.close()


def order_fields(firefox) -> tuple[str, str]:
    return (whole_text(find(firefox, "entry", name="Item")), whole_text(find(firefox, "entry", name="Note")))


def reset(user, firefox) -> None:
    user.click(*center(find(firefox, "push button", name="Reset")))
    time.sleep(0.5)


def test_typing_into_firefox_fields_replays(firefox_order, user):
    desktop, firefox, db = firefox_order
    reset(user, firefox)
    code, result, stderr = replay(desktop, db, "order", "--param", "P0=Green thing", "--param", "P1=no rush")
    assert code == 0, (result, stderr)
    assert result["status"] == "success" and result["verification"] == "end_state"
    assert order_fields(firefox) == ("Green thing", "no rush")


def test_every_demonstration_typed_into_an_empty_firefox_field_so_replay_replaces_what_it_holds(
        firefox_order, user):
    """Firefox answers the daemon's question about the field after the first
    keys have reached it; what the field held before is what its text shows
    less those keys, so the empty fields count as empty and the program
    sets the field's content. A field holding "OLD VALUE" must not end up
    "OLD VALUEGreen thing" and be called verified."""
    desktop, firefox, db = firefox_order
    program = compile_program(desktop, db, "order")
    assert [s.get("entry") for s in program["steps"] if s["action"] == "type"] == ["replace", "replace"]
    reset(user, firefox)
    user.click(*center(find(firefox, "entry", name="Item")))
    time.sleep(0.3)
    user.type("OLD VALUE")
    time.sleep(0.3)
    code, result, stderr = replay(desktop, db, "order", "--param", "P0=Green thing", "--param", "P1=no rush")
    assert order_fields(firefox)[0] != "OLD VALUEGreen thing", (result, stderr)
    assert code == 0 and result["status"] == "success", (result, stderr)
    assert order_fields(firefox) == ("Green thing", "no rush")


def test_a_character_the_keyboard_cannot_type_is_never_half_typed(firefox_order, user):
    """Where only real keys can type (Firefox), a value with a character the
    keyboard map has no key for stops the step before its first key: the
    field never holds part of the value, or the part twice."""
    desktop, firefox, db = firefox_order
    reset(user, firefox)
    code, result, stderr = replay(desktop, db, "order", "--param", "P0=Caf\u00e9", "--param", "P1=x")
    assert code == 3, (result, stderr)
    assert result["status"] == "escalated" and result["escalation"]["step"] == 1
    assert "\u00e9" in result["escalation"]["reason"]
    assert order_fields(firefox) == ("", "")
