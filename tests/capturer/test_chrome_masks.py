"""Which rectangles a picture hides, decided without a desktop: every
editable element of a walk is a field mask whatever its role; a browser's
address bar is its whole box (laid out as Firefox ESR lays it out); a
browser window whose bar was not read as it is now has its toolbar band
covered, except where a window above hides it; URLs in element names keep
only what a stored URL keeps. (The same on real Firefox, by OCR:
test_capture_browser_chrome.py.)"""

from __future__ import annotations

import io
from types import SimpleNamespace

from capturer.config import Config
from capturer.pictures import BROWSER_CHROME_BAND_PX, Pictures, uncovered
from capturer.sources.a11y_rows import editable_field_masks, element_row, without_url_secrets
from capturer.sources.base import FieldMask, Monitor, WindowInfo
from core.a11y.tree import Node

FIREFOX = WindowInfo(7, "firefox-esr", "Navigator.firefox-esr", 100, None, "Plain page — Mozilla Firefox",
                     90, 50, 1100, 680)
MONITOR = Monitor(0, "screen", 0, 0, 1280, 800, True)
# Firefox ESR's toolbar as it reports it (window at 90, 50): the address
# bar's combo box is its line of text; the panel around it is the bar.
BAR_BOX = (282, 94, 716, 40)
BAR_TEXT = (323, 106, 640, 17)


def node(index: int, parent: int | None, role: str, rect, states: str = "showing,visible", name: str = "") -> Node:
    x, y, w, h = rect if rect is not None else (None, None, None, None)
    return Node(f"/{index}", parent, 0 if parent is None else 1, 0, role, name, "", None, states, x, y, w, h,
                f"app/{role}")


def firefox_walk() -> list[Node]:
    return [node(0, None, "frame", (90, 50, 1100, 680)),
            node(1, 0, "tool bar", (90, 94, 1100, 40), name="Navigation"),
            node(2, 1, "panel", BAR_BOX),
            node(3, 2, "section", (282, 94, 716, 40)),
            node(4, 3, "combo box", BAR_TEXT, "editable,focusable,showing", "Search or enter address"),
            node(5, 0, "panel", (90, 135, 1100, 595)),
            node(6, 5, "document web", (90, 135, 1100, 595), name="Plain page"),
            node(7, 6, "entry", (400, 300, 200, 30), "editable,showing", "Search the page"),
            node(8, 6, "section", (400, 400, 300, 90), "editable,showing"),     # contenteditable
            node(9, 6, "push button", (400, 500, 80, 30), name="Go")]


def test_every_editable_element_is_masked_and_a_browsers_bar_is_its_whole_box():
    masks = editable_field_masks(firefox_walk(), FIREFOX, browser=True)
    assert [(m.rect, m.chrome) for m in masks] == [
        (BAR_BOX, True), ((400, 300, 200, 30), False), ((400, 400, 300, 90), False)]
    assert all(m.size == (1100, 680) and not m.secret for m in masks)
    plain = editable_field_masks(firefox_walk(), FIREFOX, browser=False)    # not a browser: fields as they are
    assert [(m.rect, m.chrome) for m in plain][0] == (BAR_TEXT, False)


def test_urls_in_element_names_keep_what_a_stored_url_keeps():
    name = "127.0.0.1:44791/p.html?q=quietlysecret#access_token=PLANTED — Visit"
    assert without_url_secrets(name) == "http://127.0.0.1:44791/p.html — Visit"
    for kept in ("C# notes", "Issue #5", "What now?", "Plain page"):
        assert without_url_secrets(kept) == kept
    row = element_row(node(1, None, "list item", (0, 0, 10, 10), name=name), 1, 1, None)
    path = "ff/list box/list item[@name='file:///tmp/p.html?q=secret#a…']"
    assert "quietlysecret" not in row.name and "PLANTED" not in row.name
    assert without_url_secrets(path) == "ff/list box/list item[@name='file:///tmp/p.html']"


def test_what_a_band_leaves_to_windows_above_it():
    band = (0, 0, 1000, 150)
    assert uncovered(band, []) == [band]
    assert uncovered(band, [(0, 0, 1000, 150)]) == []
    pieces = uncovered(band, [(400, 100, 200, 300)])     # a window over the band's lower middle
    assert sorted(pieces) == sorted([(0, 0, 1000, 100), (0, 100, 400, 50), (600, 100, 400, 50)])
    assert sum(w * h for _, _, w, h in pieces) == 1000 * 150 - 200 * 50


class _Windows:
    def __init__(self, *windows: WindowInfo) -> None:
        self.windows = list(windows)

    def visible_windows(self, within=None):
        return list(self.windows)

    def describe(self, window_id: int):
        return next((w for w in self.windows if w.window_id == window_id), None)


class _Accessibility:
    def __init__(self, *masks: FieldMask) -> None:
        self.masks = masks

    def field_masks(self):
        return self.masks


class _Screen:
    def region(self, rect):
        from PIL import Image

        return Image.new("RGB", rect[2:], (200, 120, 40))


def _wide_crop(windows: _Windows, a11y: _Accessibility, x: int, y: int, *, recording: bool = False):
    """The wide crop of a click at (x, y) in the first window, as RGBA."""
    from PIL import Image

    submitted = []
    display = SimpleNamespace(screen=_Screen(), windows=windows)
    writer = SimpleNamespace(submit=submitted.append)
    pictures = Pictures(writer, Config(), display, a11y, lambda: recording, lambda what, exc: None)
    result = pictures.click_evidence(x, y, MONITOR, 0, windows.windows[0])
    wide = next(c for c in result.crops if c.kind == "wide")
    return wide, Image.open(io.BytesIO(wide.data)).convert("RGBA")


def _hidden(crop, image, x: int, y: int) -> bool:
    return image.getpixel((x - crop.x, y - crop.y))[3] == 0


def test_a_browser_never_read_has_its_toolbar_band_covered():
    crop, image = _wide_crop(_Windows(FIREFOX), _Accessibility(), 700, 170)
    assert _hidden(crop, image, 700, FIREFOX.y + 10)
    assert _hidden(crop, image, 700, FIREFOX.y + BROWSER_CHROME_BAND_PX - 1)
    assert not _hidden(crop, image, 700, FIREFOX.y + BROWSER_CHROME_BAND_PX + 5)


def test_a_read_bar_is_covered_whole_even_while_recording_and_the_band_is_not():
    bar = FieldMask(FIREFOX.window_id, (FIREFOX.x, FIREFOX.y), BAR_BOX, False, chrome=True, size=(1100, 680))
    field = FieldMask(FIREFOX.window_id, (FIREFOX.x, FIREFOX.y), (600, 160, 200, 40), False, size=(1100, 680))
    crop, image = _wide_crop(_Windows(FIREFOX), _Accessibility(bar, field), 700, 170, recording=True)
    assert _hidden(crop, image, 700, BAR_BOX[1]) and _hidden(crop, image, 700, BAR_BOX[1] + BAR_BOX[3] - 1)
    assert not _hidden(crop, image, 700, FIREFOX.y + 10)          # the tab strip: no band
    assert not _hidden(crop, image, 700, 180)                     # a field while recording: shown


def test_a_bar_read_at_another_window_size_brings_the_band_back():
    bar = FieldMask(FIREFOX.window_id, (FIREFOX.x, FIREFOX.y), BAR_BOX, False, chrome=True, size=(900, 600))
    crop, image = _wide_crop(_Windows(FIREFOX), _Accessibility(bar), 700, 170)
    assert _hidden(crop, image, 700, FIREFOX.y + 10)


def test_a_window_above_the_band_keeps_its_pixels():
    above = WindowInfo(9, "mousepad", "Mousepad", 200, None, "notes", 600, 40, 300, 300)
    crop, image = _wide_crop(_Windows(FIREFOX, above), _Accessibility(), 700, 170)
    assert not _hidden(crop, image, 700, FIREFOX.y + 10)
    assert _hidden(crop, image, 590, FIREFOX.y + 10)


def test_a_bars_dropdown_cover_leaves_a_window_above_alone():
    """While the bar has focus its mask reaches far below it (the dropdown
    it is about to open); a window stacked over that part keeps its pixels."""
    cover = (BAR_BOX[0], BAR_BOX[1], BAR_BOX[2], 480)
    bar = FieldMask(FIREFOX.window_id, (FIREFOX.x, FIREFOX.y), cover, False, chrome=True, size=(1100, 680))
    above = WindowInfo(9, "mousepad", "Mousepad", 200, None, "notes", 650, 200, 400, 300)
    crop, image = _wide_crop(_Windows(FIREFOX, above), _Accessibility(bar), 900, 250)
    assert _hidden(crop, image, 800, 150) and _hidden(crop, image, 990, 150)
    assert not _hidden(crop, image, 800, 250)
