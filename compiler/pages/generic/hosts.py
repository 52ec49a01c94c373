"""Detectors that look only at the host: dev servers, IPs, status and API hosts."""

from __future__ import annotations

from core.urls import Url
from core.urls.sitekey import is_ip_literal, is_local_host

from ..ref import PageRef, generic_ref

LOCAL_DEV_SERVER = "local_dev_server"
IP_HOST = "ip_host"
STATUS_PAGE = "status_page"
API_ENDPOINT = "api_endpoint"

KINDS = (LOCAL_DEV_SERVER, IP_HOST, STATUS_PAGE, API_ENDPOINT)


def _subdomain_label(url: Url) -> str:
    """The first label of a host with at least three labels, else ""."""
    return url.host.partition(".")[0] if url.host.count(".") >= 2 else ""


def local_dev_server(url: Url) -> PageRef | None:
    """localhost, *.localhost, *.test and loopback IPs.

    The entity is the host with its port ("localhost:3000"): the port is
    what names the project being worked on.
    """
    if is_local_host(url.host):
        return generic_ref(url, LOCAL_DEV_SERVER, url.site)
    return None


def ip_host(url: Url) -> PageRef | None:
    """Any other IP literal: routers, NAS boxes, staging machines."""
    if is_ip_literal(url.host):
        return generic_ref(url, IP_HOST, url.site)
    return None


def status_page(url: Url) -> PageRef | None:
    """status.<service> pages (incident and uptime dashboards)."""
    if _subdomain_label(url) == "status":
        return generic_ref(url, STATUS_PAGE)
    return None


def api_endpoint(url: Url) -> PageRef | None:
    """Raw API responses opened in a tab.

    No entity: API paths are where webhook secrets and signed ids live
    (hooks.slack.com/services/T/B/<secret>), so none of it is copied.
    """
    first = url.segments[0].lower() if url.segments else ""
    if _subdomain_label(url) in ("api", "hooks") or first in ("api", "graphql"):
        return generic_ref(url, API_ENDPOINT)
    return None
