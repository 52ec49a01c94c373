"""Replay's visual rung (docs/VISUAL.md): re-aiming a click whose target the
accessibility tree cannot find, from the crops recorded around it.

- `templates` — a recorded crop ready to match (pixels, mask, click ratio, flatness);
- `places` — a place where a crop matches, the scale grid;
- `scoring` — OpenCV's matchTemplate on colour and grey, resizing, shrinking;
- `search` — one crop in one region of a picture, every scale, coarse to fine;
- `refine` — a coarse place refined to full resolution, a crop scored at a point;
- `lookalikes` — when places that look alike may be told apart, and when not;
- `matcher` — the re-aim: where to look, what to accept, where the click goes.

The modules that touch the desktop or the store (the rung itself, the
screen grab, loading crops) come next to these; everything here is pure and
imports OpenCV only inside the functions that match.
"""
