"""`phantom web`: a local, read-mostly web view of the store (timeline,
frames, search, routines, programs, replay runs, privacy controls), served
on loopback only, through the same front doors as the CLI."""
