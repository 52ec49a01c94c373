"""Replay's visual rung (docs/VISUAL.md): re-aiming a click whose target the
accessibility tree cannot find, from the crops recorded around it.

Pure (numpy arrays in, frozen records out; OpenCV imported only inside the
functions that match):
- `templates` — a recorded crop ready to match (pixels, mask, click ratio, flatness);
- `places` — a place where a crop matches, the scale grid;
- `scoring` — OpenCV's matchTemplate on colour and grey, resizing, shrinking;
- `search` — one crop in one region of a picture, every scale, coarse to fine;
- `refine` — a coarse place refined to full resolution, a crop scored at a point;
- `lookalikes` — when places that look alike may be told apart, and when not;
- `matcher` — the re-aim: where to look, what to accept, where the click goes.

At the edges:
- `evidence` — a program's crops read from the store once per run;
- `screen` — the window's picture now (mss), or why there is none;
- `rung` — the ladder's visual rung: evidence, picture, matcher, and what
  lies under the re-aimed point.
"""
