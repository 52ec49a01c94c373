"""Finding fixture-app controls through AT-SPI from the test process (which
shares the session desktop's accessibility bus)."""

from testbed.executables import executable
from testbed.scripted_user import app_named, center, find, text_of

__all__ = ["CANVAS_MARGIN", "app_named", "canvas_pressed", "center", "desktop_center", "find", "focus",
           "form_state", "text_of", "type_into_form"]

CANVAS_MARGIN = 8      # the canvas fixture's box margin: its drawing area starts there


def app_by_pid(pid: int, timeout: float = 20.0):
    """The AT-SPI application of one process (several instances of an app
    may run; the window's class would not tell them apart)."""
    from replay import live
    from testbed.waiting import wait_until

    return wait_until(lambda: live.application_of(pid), timeout=timeout, what=f"AT-SPI app of pid {pid}")


def desktop_center(accessible, app: str) -> tuple[int, int]:
    """The centre of an element on the desktop, also for a toolkit that
    reports extents relative to its window (GTK 4): the X window of `app`
    gives the origin to add."""
    from core.a11y.screen import extents_to_screen
    from core.a11y.toolkit import origin_for
    from replay.windows import XSession

    session = XSession()
    try:
        window = session.app_windows(app)[0]
    finally:
        session.close()
    x, y = center(accessible)
    x, y, _, _ = extents_to_screen(origin_for(accessible, window.x, window.y), (x, y, 0, 0))
    return x, y


def focus(desktop, wm_class: str) -> None:
    """Give a window keyboard focus as a window manager would, and let it settle."""
    import time

    window = desktop.wait_for_window(wm_class)
    assert desktop.run([executable("xdotool"), "windowfocus", "--sync", str(window)]).returncode == 0
    time.sleep(0.3)


def form_state() -> tuple[str, str, str]:
    """The fixture form's Name and Email fields and its status line."""
    form = app_named("phantom-form")
    return (text_of(find(form, "text", label="Name:")), text_of(find(form, "text", label="Email:")),
            text_of(find(form, "label", name="Status")))


def type_into_form(user, name: str, email: str) -> None:
    """Fill the focused fixture form as a person would: click each field,
    type, submit — the demonstration the replay and MCP tests record."""
    import time

    form = app_named("phantom-form")
    user.click(*center(find(form, "text", label="Name:")))
    time.sleep(0.3)
    user.type(name)
    user.click(*center(find(form, "text", label="Email:")))
    time.sleep(0.3)
    user.type(email)
    user.click(*center(find(form, "push button", name="Submit")))
    time.sleep(0.8)


def canvas_pressed(pid: int) -> str:
    """The canvas fixture's status label ("Pressed: red blue …"), by the app's pid."""
    from replay import live
    from testbed.waiting import wait_until

    app = wait_until(lambda: live.application_of(pid), timeout=10, what="the canvas app")
    return text_of(find(app, "label", name="Status"))
