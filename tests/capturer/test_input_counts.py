"""The input counter's rules, event by event."""

from __future__ import annotations

from capturer.input_counts import FieldRef, InputCounter

NONE = frozenset()


def typed(counter, start, text, keep=False, gap=50):
    for i, char in enumerate(text):
        counter.key(start + i * gap, name=char, char=char, modifiers=NONE, keep_text=keep)


def test_printable_keys_form_one_burst_until_a_named_key():
    counter = InputCounter()
    typed(counter, 0, "hello")
    counter.key(300, name="Tab", char=None, modifiers=NONE, keep_text=False)
    typed(counter, 400, "x")
    rows = counter.close()
    assert [(r.kind, r.count, r.key, r.text) for r in rows] == [
        ("text", 5, None, None), ("key", 1, "Tab", None), ("text", 1, None, None)]
    assert rows[0].start_ms == 0 and rows[0].end_ms == 200


def test_text_is_held_only_when_asked_and_backspace_edits_it():
    counter = InputCounter()
    typed(counter, 0, "helo", keep=True)
    counter.key(250, name="BackSpace", char=None, modifiers=NONE, keep_text=True)
    typed(counter, 300, "lo", keep=True)
    row, = counter.close()
    assert (row.count, row.text) == (7, "hello")


def test_a_pause_longer_than_the_gap_starts_a_new_burst():
    counter = InputCounter()
    first = counter.key(0, name="a", char="a", modifiers=NONE, keep_text=False)
    second = counter.key(2500, name="b", char="b", modifiers=NONE, keep_text=False)
    assert first is not None and second is not None and first != second
    assert [r.count for r in counter.close()] == [1, 1]


def test_shortcuts_copies_and_repeated_named_keys():
    counter = InputCounter()
    ctrl = frozenset({"ctrl"})
    counter.key(0, name="s", char="s", modifiers=ctrl, keep_text=False)
    counter.key(10, name="c", char="c", modifiers=ctrl, keep_text=False)
    counter.key(20, name="T", char="T", modifiers=frozenset({"ctrl", "shift"}), keep_text=False)
    for t in (100, 200, 300):
        counter.key(t, name="Down", char=None, modifiers=NONE, keep_text=False)
    counter.key(2000, name="Down", char=None, modifiers=NONE, keep_text=False)
    rows = [(r.kind, r.key, r.count) for r in counter.close()]
    assert rows == [("key", "ctrl+s", 1), ("copy", "ctrl+c", 1), ("key", "ctrl+shift+t", 1),
                    ("key", "Down", 3), ("key", "Down", 1)]


def test_a_named_key_keeps_every_modifier_held_and_shift_still_types_capitals():
    """shift+End selects to the end of the line; End only moves there."""
    counter = InputCounter()
    shift = frozenset({"shift"})
    counter.key(0, name="Home", char=None, modifiers=frozenset({"ctrl"}), keep_text=False)
    counter.key(100, name="End", char=None, modifiers=shift, keep_text=False)
    counter.key(200, name="End", char=None, modifiers=NONE, keep_text=False)
    for t in (300, 400):
        counter.key(t, name="Right", char=None, modifiers=shift, keep_text=False)
    counter.key(500, name="A", char="A", modifiers=shift, keep_text=True)
    counter.key(550, name="BackSpace", char=None, modifiers=shift, keep_text=True)
    counter.key(600, name="B", char="B", modifiers=shift, keep_text=True)
    rows = [(r.kind, r.key, r.count, r.text) for r in counter.close()]
    assert rows == [("key", "ctrl+Home", 1, None), ("key", "shift+End", 1, None), ("key", "End", 1, None),
                    ("key", "shift+Right", 2, None), ("text", None, 3, "B")]


def test_scrolls_aggregate_and_clicks_close_everything():
    counter = InputCounter()
    counter.scroll(0, 10, 20, 1)
    counter.scroll(100, 10, 20, 2)
    typed(counter, 200, "ab")
    counter.click(300)
    rows = counter.emit()
    assert [(r.kind, r.count) for r in rows] == [("scroll", 3), ("text", 2)]
    assert counter.close() == []


def test_tick_closes_quiet_bursts_and_open_counts_shows_growing_ones():
    counter = InputCounter()
    typed(counter, 0, "abc")
    assert [(r.kind, r.count) for r in counter.open_counts()] == [("text", 3)]
    counter.tick(1000)
    assert counter.emit() == []
    counter.tick(3000)
    assert [(r.kind, r.count) for r in counter.emit()] == [("text", 3)]
    assert counter.open_counts() == []


# -- what a key is: a character or a key that types nothing ---------------------------
def test_keys_pynput_cannot_name_are_characters_unless_their_keysym_types_nothing():
    from types import SimpleNamespace

    from capturer.sources.input_listener import UNREADABLE_CHAR, _describe_key

    def code(vk, char=None):
        return SimpleNamespace(char=char, vk=vk)

    assert _describe_key(code(0)) == (UNREADABLE_CHAR, UNREADABLE_CHAR)  # remapped: keysym 0
    assert _describe_key(code(None)) == (UNREADABLE_CHAR, UNREADABLE_CHAR)
    assert _describe_key(code(0xE9)) == ("é", "é")  # a Latin-1 keysym
    assert _describe_key(code(0x10003A9)) == ("Ω", "Ω")  # a Unicode keysym
    assert _describe_key(code(0x6C1)) == (UNREADABLE_CHAR, UNREADABLE_CHAR)  # Cyrillic_a
    assert _describe_key(code(0x1008FF14)) == ("keysym-269025044", None)  # XF86AudioPlay
    assert _describe_key(code(0xFFC9)) == ("keysym-65481", None)  # F12 outside pynput's names
    assert _describe_key(code(0x61, "a")) == ("a", "a")


def test_characters_that_cannot_be_read_stay_in_their_burst():
    from capturer.sources.input_listener import UNREADABLE_CHAR

    counter = InputCounter()
    for i, char in enumerate(["G", "r", UNREADABLE_CHAR, UNREADABLE_CHAR, "e", "!"]):
        counter.key(i * 60, name=char, char=char, modifiers=NONE, keep_text=True)
    row, = counter.close()
    assert (row.kind, row.count, row.text) == ("text", 6, "Gr\ufffd\ufffde!")


# -- a password field's burst stores no count ----------------------------------------
def test_a_burst_into_a_password_field_stores_that_something_was_typed_never_how_much(tmp_path):
    from concurrent.futures import Future

    from capturer.count_writer import CountWriter
    from core.store import StoreWriter
    from support.daemon import query

    db = tmp_path / "store.sqlite3"
    writer = StoreWriter(db, commit_interval=None)
    counts = CountWriter(writer)
    counter = InputCounter()
    password, plain = Future(), Future()
    counts.expect_field(counter.key(1000, name="s", char="s", modifiers=NONE, keep_text=False),
                        password)
    typed(counter, 1050, "ecret-1234")
    counts.checkpoint(counter.open_counts(), None, lambda count: (0, None))  # field not known yet
    writer.flush()
    assert query(db, "SELECT count(*) FROM input_events") == [(0,)]
    password.set_result(FieldRef(None, "password text", True))
    counts.checkpoint(counter.open_counts(), None, lambda count: (0, None))
    writer.flush()
    assert query(db, "SELECT ts_ms, end_ms, count FROM input_events") == [(1000, 1000, 1)]
    counter.key(1600, name="Tab", char=None, modifiers=NONE, keep_text=False)
    counts.expect_field(counter.key(2000, name="A", char="A", modifiers=NONE, keep_text=False), plain)
    typed(counter, 2050, "da")
    plain.set_result(FieldRef(None, "text", False))
    counts.write(counter.close(), None, lambda count: (0, None))
    writer.flush()
    writer.close()
    assert query(db, "SELECT kind, key, ts_ms, end_ms, count, element_id FROM input_events "
                     "ORDER BY ts_ms") == [("text", None, 1000, 1000, 1, None),
                                           ("key", "Tab", 1600, 1600, 1, None),
                                           ("text", None, 2000, 2100, 3, None)]


def test_what_a_field_held_before_a_burst_leaves_out_the_keys_that_reached_it_first():
    """A toolkit answering after the first keys arrived (Firefox) shows them
    at the field's end: an empty field is still empty; a prefilled one keeps
    its own characters; a count without its text stays as counted."""
    assert FieldRef(None, "entry", False, 2, "Bl").held_before("Blue widget") == 0
    assert FieldRef(None, "entry", False, 0, "").held_before("Blue widget") == 0
    assert FieldRef(None, "entry", False, 11, "OLD VALUEMa").held_before("Mary Jackson") == 9
    assert FieldRef(None, "entry", False, 9, "OLD VALUE").held_before("Mary Jackson") == 9
    assert FieldRef(None, "entry", False, 5, None).held_before("Mary") == 5
    assert FieldRef(None, "entry", False, 3, "abc").held_before(None) == 3
