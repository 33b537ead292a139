"""Weavers: the list with their open hats, and (admins) adding, editing and archiving them
(docs/workshop-pages.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from shopfloor.workshop import domain
from shopfloor.workshop.pages import records
from shopfloor.workshop.pages.page import (
    AdminDep,
    Page,
    PageDep,
    form_of,
    run_sync,
)
from shopfloor.workshop.store import NotFound, WorkshopRepo

router = APIRouter()


@router.get("/weavers", response_class=HTMLResponse)
def weavers_page(p: PageDep, error: str | None = None) -> HTMLResponse:
    """Weavers with their open hats; admins add, edit and archive them here."""
    return p.html("weavers.html", **_weavers_context(p), error=None, grades=domain.GRADES)


def _weavers_context(p: Page) -> dict[str, Any]:
    with p.store.transaction(p.actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, p.actor)
        weavers = repo.weavers()
        open_hats: dict[str, list[str]] = {w.id: [] for w in weavers}
        for h in repo.hats(open_only=True):
            if h.weaver_id in open_hats:
                open_hats[h.weaver_id].append(h.code)
        return {"weavers": weavers, "open_hats": open_hats}


def _weaver_form(form: dict[str, str]) -> records.WeaverForm:
    return records.WeaverForm(
        name=form.get("name", ""),
        village=form.get("village", ""),
        province=form.get("province", ""),
        specialty=form.get("specialty") or None,
    )


@router.post("/weavers", response_class=HTMLResponse)
async def add_weaver(p: AdminDep, request: Request) -> HTMLResponse:
    """Add a weaver (admins)."""
    form = await form_of(request)
    return await run_sync(_weaver_change, p, None, form)


@router.post("/weavers/{weaver_id}", response_class=HTMLResponse)
async def change_weaver(p: AdminDep, weaver_id: str, request: Request) -> HTMLResponse:
    """Edit or archive a weaver (admins)."""
    form = await form_of(request)
    return await run_sync(_weaver_change, p, weaver_id, form)


def _weaver_change(p: Page, weaver_id: str | None, form: dict[str, str]) -> HTMLResponse:
    error = None
    try:
        if weaver_id is None:
            records.add_weaver(p.store, p.actor, _weaver_form(form), confirmed=form.get("confirm") == "1")
        else:
            records.edit_weaver(p.store, p.actor, weaver_id, _weaver_form(form), form.get("archived") == "on")
    except records.SameName as same:
        # Ask before adding a second weaver of the same name; the form comes back filled, with "Add anyway".
        return p.html(
            "_weavers_body.html",
            **_weavers_context(p),
            error=None,
            grades=domain.GRADES,
            same=same.names,
            v=form,
        )
    except ValueError as e:
        error = p.gettext(str(e))
    except NotFound:
        error = p.gettext("No such weaver in this workshop.")
    return p.html("_weavers_body.html", **_weavers_context(p), error=error, grades=domain.GRADES)
