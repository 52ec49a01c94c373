"""Accessibility as both capture and replay read it: element paths
(`path`), the role groups they act on (`roles`) and bounded reads of a live
AT-SPI tree (`tree`)."""
