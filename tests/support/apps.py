"""Finding fixture-app controls through AT-SPI from the test process (which
shares the session desktop's accessibility bus)."""

from phantom.desktop.scripted_user import app_named, center, find, text_of

__all__ = ["app_named", "center", "find", "text_of"]
