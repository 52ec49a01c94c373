"""What Phantom knows about Wayland compositors without a Wayland library:
sway's IPC (`ipc`), which names every window with its app id, title, pid
and rectangle, and says when focus or a title changes. The wlroots
protocols themselves (foreign-toplevel, screencopy, idle) need a Wayland
client library Phantom does not depend on; docs/WAYLAND.md says what that
leaves out."""
