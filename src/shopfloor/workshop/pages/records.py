"""What a person changes on the record pages directly (no agent involved): resolve a flag with a note, add,
edit or archive a weaver (admins), and the user's page language. Each is one transaction in the actor's
workshop, logged like approvals; bad input raises ``ValueError`` with a plain message and changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, update

from shopfloor.logs import request_id_var
from shopfloor.workshop import domain
from shopfloor.workshop.pages.i18n import LOCALES
from shopfloor.workshop.pages.labels import N_
from shopfloor.workshop.store import NotFound, Store, WorkshopRepo
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.models import utcnow

SOURCE = "page:records"


@dataclass(frozen=True)
class WeaverForm:
    """A weaver's fields as a person types them."""

    name: str
    village: str = ""
    province: str = ""
    specialty: str | None = None

    def cleaned(self) -> WeaverForm:
        """The same fields trimmed and checked (raises ``ValueError``)."""
        name = " ".join(self.name.split())
        if not 1 <= len(name) <= 120:
            raise ValueError(N_("A weaver's name must be 1 to 120 characters."))
        village, province = self.village.strip(), self.province.strip()
        if len(village) > 120 or len(province) > 120:
            raise ValueError(N_("Village and province must be at most 120 characters."))
        specialty = self.specialty or None
        if specialty is not None and specialty not in domain.GRADES:
            raise ValueError(N_("Specialty must be Standard, Fino or Superfino."))
        return WeaverForm(name, village, province, specialty)


def _admin(actor: domain.Actor) -> None:
    if not actor.is_admin:
        raise PermissionError("Only a workshop admin can change weavers.")


class SameName(Exception):
    """An active weaver already has this name (accents, case and spaces folded): the admin confirms first."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


def _same_name(name: str) -> str:
    return " ".join(domain.fold(name).split())


def add_weaver(store: Store, actor: domain.Actor, form: WeaverForm, confirmed: bool = False) -> str:
    """Add a weaver to the actor's workshop (admins); returns the new id. A name an active weaver already has
    (accents, case and spaces folded: "rosa  pillco" is "Rosa Pillco") raises :class:`SameName` unless the admin
    ``confirmed`` it, so nobody adds the same weaver twice by accident (docs/workshop-pages.md)."""
    _admin(actor)
    clean = form.cleaned()
    with store.transaction(actor.workshop_id) as s:
        if not confirmed:
            wanted = _same_name(clean.name)
            same = [
                w.name
                for w in WorkshopRepo(s, actor).weavers(include_archived=False)
                if _same_name(w.name) == wanted
            ]
            if same:
                raise SameName(same)
        row = m.Weaver(
            workshop_id=actor.workshop_id,
            name=clean.name,
            village=clean.village,
            province=clean.province,
            specialty=clean.specialty,
        )
        s.add(row)
        s.flush()
        WorkshopRepo(s, actor).log(
            "workshop.weaver.added",
            source=SOURCE,
            request_id=request_id_var.get(),
            payload={"weaver_id": row.id},
        )
        return row.id


def edit_weaver(store: Store, actor: domain.Actor, weaver_id: str, form: WeaverForm, archived: bool) -> None:
    """Change a weaver's fields or archive flag (admins). Raises ``NotFound`` for a weaver of elsewhere."""
    _admin(actor)
    clean = form.cleaned()
    with store.transaction(actor.workshop_id) as s:
        repo = WorkshopRepo(s, actor)
        row = repo.weaver(weaver_id)
        row.name, row.village, row.province, row.specialty = (
            clean.name,
            clean.village,
            clean.province,
            clean.specialty,
        )
        row.archived = archived
        repo.log(
            "workshop.weaver.changed",
            source=SOURCE,
            request_id=request_id_var.get(),
            payload={"weaver_id": weaver_id, "archived": archived},
        )


def resolve_flag(store: Store, actor: domain.Actor, code: str, flag_id: str, note: str) -> None:
    """Resolve an open flag of hat ``code`` with the person's note; writes a ``flag_resolved`` event."""
    note = " ".join(note.split())
    if not 1 <= len(note) <= 200:
        raise ValueError(N_("Say in 1 to 200 characters how the problem was resolved."))
    now = utcnow()
    with store.transaction(actor.workshop_id) as s:
        repo = WorkshopRepo(s, actor)
        hat = repo.hat_by_code(code)
        flags = [f for f in repo.flags([hat.id]) if f.id == flag_id]
        if not flags:
            raise NotFound(f"No open flag {flag_id} on {code}.")
        changed = cast(
            CursorResult[Any],
            s.execute(
                update(m.HatFlag)
                .where(
                    m.HatFlag.id == flag_id,
                    m.HatFlag.workshop_id == actor.workshop_id,
                    m.HatFlag.status == "open",
                )
                .values(status="resolved", resolved_at=now)
            ),
        ).rowcount
        if not changed:
            raise NotFound(f"No open flag {flag_id} on {code}.")
        s.add(
            m.HatEvent(
                workshop_id=actor.workshop_id,
                hat_id=hat.id,
                type="flag_resolved",
                actor_id=actor.user_id,
                detail={"flag_id": flag_id, "kind": flags[0].kind, "note": note},
                created_at=now,
            )
        )
        repo.log(
            "workshop.flag.resolved",
            source=SOURCE,
            request_id=request_id_var.get(),
            payload={"hat_code": code, "flag_id": flag_id},
        )


def header_facts(store: Store, actor: domain.Actor) -> tuple[str | None, str]:
    """The page language the user chose (if any) and the workshop's name, for every page's header."""
    with store.transaction(actor.workshop_id, write=False) as s:
        repo = WorkshopRepo(s, actor)
        return repo.profile(actor.user_id).locale, repo.workshop().name


def save_locale(store: Store, actor: domain.Actor, locale: str) -> None:
    """Keep the user's page language."""
    if locale not in LOCALES:
        raise ValueError(f"The page languages are {', '.join(LOCALES)}.")
    with store.transaction(actor.workshop_id) as s:
        s.execute(
            update(m.Profile)
            .where(m.Profile.id == actor.user_id, m.Profile.workshop_id == actor.workshop_id)
            .values(locale=locale)
        )
