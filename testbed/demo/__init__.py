"""`phantom demo`: the whole story on a private virtual desktop — a scripted
user works for about half a minute while the real capture daemon records it,
and each later stage reads what was captured."""
