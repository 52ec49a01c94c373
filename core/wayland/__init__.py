"""What Phantom knows about Wayland compositors without a Wayland library:
sway's IPC (`ipc`), which names every window with its app id, title, pid
and rectangle and says when focus or a title changes, and just enough of
the Wayland wire protocol (`wire`) to ask for one global such as
`org_kde_kwin_idle`. The protocols that pass file descriptors or buffers
(wlr-screencopy, foreign-toplevel for other compositors) are left to `grim`
or not built; docs/WAYLAND.md says what that leaves out."""
