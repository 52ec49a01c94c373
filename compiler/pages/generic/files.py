"""Files opened straight from a URL: PDFs read in the browser, and downloads.

The entity is the file name only; the directory part of a download URL is
often a CDN path with signed or expiring components.
"""

from __future__ import annotations

from core.urls import Url

from ..ref import PageRef, generic_ref

PDF_DOCUMENT = "pdf_document"
FILE_DOWNLOAD = "file_download"

KINDS = (PDF_DOCUMENT, FILE_DOWNLOAD)

# Extensions a browser downloads rather than renders.  Images, plain text
# and JSON render in the tab and are left to the fallback.
_DOWNLOAD_EXTENSIONS = frozenset(
    {
        "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar",
        "dmg", "pkg", "exe", "msi", "deb", "rpm", "appimage", "apk", "flatpak",
        "snap", "iso", "img", "whl", "jar",
        "csv", "tsv", "xls", "xlsx", "ods", "doc", "docx", "odt", "ppt",
        "pptx", "odp", "epub", "mobi",
        "mp3", "wav", "flac", "ogg", "m4a", "mp4", "mkv", "mov", "avi",
    }
)


def downloaded_file(url: Url) -> PageRef | None:
    """Typed by the extension of the last path segment."""
    if not url.segments:
        return None
    name = url.segments[-1]
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem:
        return None
    extension = extension.lower()
    if extension == "pdf":
        return generic_ref(url, PDF_DOCUMENT, name)
    if extension in _DOWNLOAD_EXTENSIONS:
        return generic_ref(url, FILE_DOWNLOAD, name)
    return None
