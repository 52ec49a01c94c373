"""URLs as every layer reads them: split once into normalised parts
(`parts`), filed under a site key (`sitekey`), and reduced before anything
stores them to what a page parser declares it reads (`reads`, `sanitize`).

Capture stores only `sanitize_url(raw)`; the compiler types URLs from the
same `parse_url`, so what capture keeps and what typing needs are decided
by one set of declarations.
"""

from .parts import KNOWN_SCHEMES, WEB_SCHEMES, Url, is_secret_param, parse_url
from .sanitize import sanitize_url

__all__ = ["KNOWN_SCHEMES", "WEB_SCHEMES", "Url", "is_secret_param", "parse_url", "sanitize_url"]
