"""The web view's server: a Starlette app (Starlette and uvicorn come with
the MCP SDK already, so the view adds no dependency) behind the `Guard`
middleware, served by uvicorn on 127.0.0.1 only.

Every page is rendered on the server from the same front doors the CLI
uses; a Phantom error becomes a page (or, for a change, a notice) that says
why in one line, with the HTTP status its kind implies — never a traceback."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from core.errors import PhantomError

from . import action_views, memory_views
from .html import e, page
from .security import Guard, WebSecrets

__all__ = ["build_app"]

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"
STATUS = {"usage": 400, "invalid_window": 400, "unknown_program": 404, "unavailable": 503,
          "store_unavailable": 503, "store_damaged": 500, "invalid_transition": 409}
MAX_FORM_BYTES = 16_384
POST_FORM = re.compile(r'<form method="post"[^>]*>')

Reader = Callable[[Path, dict[str, str]], str]


def _status(error: PhantomError) -> int:
    return STATUS.get(error.code, 400 if error.kind.exit_status == 2 else 409)


def build_app(db: Path, keys: WebSecrets) -> Any:
    """The ASGI app for one store and one start's secrets."""

    def reading(render: Reader, current: str) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            from starlette.concurrency import run_in_threadpool

            query = {key: value for key, value in request.query_params.items()}
            notice = request.query_params.get("notice", "")
            try:
                text = await run_in_threadpool(render, db, query)
            except PhantomError as error:
                return HTMLResponse(page("Cannot show this", f"<p>{e(str(error))}</p>", current=current),
                                    status_code=_status(error))
            except Exception as error:  # noqa: BLE001 - one line for the person; the traceback to the log
                log.exception("page %s failed", request.url.path)
                return HTMLResponse(page("Cannot show this", f"<p>internal error ({e(type(error).__name__)}); "
                                         "this is a bug — the server's log has the details</p>", current=current),
                                    status_code=500)
            # Every form of this server's own pages carries the form token.
            text = POST_FORM.sub(lambda m: f'{m.group(0)}<input type="hidden" name="csrf" '
                                           f'value="{keys.csrf}">', text)
            if notice:   # what the change just done said (changing() redirects here with it)
                text = text.replace("</h1>", f'</h1><p class="notice" role="status">{e(notice)}</p>', 1)
            return HTMLResponse(text)
        return endpoint

    def changing(act: Callable[[dict[str, str]], tuple[str, str]],
                 back: Callable[[dict[str, str]], str]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            from starlette.concurrency import run_in_threadpool

            body = await request.body()
            if len(body) > MAX_FORM_BYTES:
                return PlainTextResponse("phantom web: that form is too large\n", status_code=413)
            form = {key: str(value) for key, value in (await request.form()).items()}
            if not keys.form_token_matches(form.pop("csrf", "")):
                return PlainTextResponse("phantom web: that form is not from this start's pages; "
                                         "reload the page\n", status_code=403)
            try:
                where, said = await run_in_threadpool(act, form)
            except PhantomError as error:
                where, said = back(form), f"{error.code}: {error}"
            separator = "&" if "?" in where else "?"
            return RedirectResponse(f"{where}{separator}notice={quote(said[:300])}", status_code=303)
        return endpoint

    async def image(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from core.store.images import read_image

        found = await run_in_threadpool(read_image, db, request.path_params["sha"])
        if found is None:
            return PlainTextResponse("phantom web: no such image (forgotten, or never stored)\n", status_code=404)
        media_type, data = found
        return Response(data, media_type=media_type)

    routes = [
        Route("/", reading(memory_views.day_page, "/")),
        Route("/frame", reading(memory_views.frame_page, "/")),
        Route("/search", reading(memory_views.search_page, "/search")),
        Route("/routines", reading(memory_views.routines_page, "/routines")),
        Route("/programs", reading(action_views.programs_page, "/programs")),
        Route("/program", reading(action_views.program_page, "/programs")),
        Route("/runs", reading(action_views.runs_page, "/runs")),
        Route("/privacy", reading(action_views.privacy_page, "/privacy")),
        Route("/image/{sha}", image),
        *[Route(f"/program/{action}", changing(partial(action_views.lifecycle_action, db, action),
                                                to_program), methods=["POST"])
          for action in ("promote", "deprecate", "describe")],
        Route("/privacy/pause", changing(lambda form: ("/privacy", action_views.pause_action("Pause")),
                                         to_privacy), methods=["POST"]),
        Route("/privacy/resume", changing(lambda form: ("/privacy", action_views.pause_action("Resume")),
                                          to_privacy), methods=["POST"]),
        Route("/privacy/forget", changing(lambda form: ("/privacy", action_views.forget_action(db, form)),
                                          to_privacy), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Guard(Starlette(routes=routes), keys)


def to_program(form: dict[str, str]) -> str:
    return f"/program?id={quote(form.get('id', ''))}"


def to_privacy(form: dict[str, str]) -> str:
    return "/privacy"
