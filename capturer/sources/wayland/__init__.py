"""Capture sources for a sway (wlroots) session, behind the same protocols
as X11's (`capturer.sources.base`): windows and focus from sway's IPC
(`windows`, `tree`), pictures from `grim` (`screen`), idle from the
compositor's `org_kde_kwin_idle` (`idle`), accessibility extents moved onto
the screen through the window's rectangle (`extents`). No input
observation: no Wayland protocol lets a client see global input (`input`)."""
