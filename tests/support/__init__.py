"""Helpers shared by the tests: running the real capture daemon as a
subprocess on the virtual desktop, and reading the store it writes."""
