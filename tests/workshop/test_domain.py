"""The workshop's domain rules (docs/workshop.md, "Rules"): worked examples, then properties."""

from __future__ import annotations

import random
import re
import string
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shopfloor.workshop import domain as d

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
ACTOR = d.Actor(user_id="u1", workshop_id="A", role="member", name="Ana")
W1 = d.Weaver("w1", "Rosa Pillco", "Sígsig", "Azuay", "Fino")
W2 = d.Weaver("w2", "Rosa Guamán", "Chordeleg", "Azuay", "Standard")
W3 = d.Weaver("w3", "Manuel Delgado", "Pile", "Manabí", "Superfino")
W4 = d.Weaver("w4", "Carmen Quizhpi", "Sígsig", "Azuay", "Fino")
WEAVERS = [W1, W2, W3, W4]
OPEN_A = ["TQ-7F3K2", "TQ-2C5P0", "TQ-4K9D1", "TQ-9M2XA", "TQ-8H6RT", "TQ-3D8QV", "TQ-1P9KD", "TQ-7F3KA"]


def hat(**kw: object) -> d.Hat:
    base: dict[str, object] = {
        "code": "TQ-2C5P0",
        "stage": "Washing",
        "grade": "Standard",
        "rows_per_inch": 12,
        "workshop_id": "A",
        "created_at": NOW - timedelta(days=30),
        "weaver_id": "w2",
        "weaver": W2,
    }
    base.update(kw)
    return d.Hat(**base)  # type: ignore[arg-type]


# --- stages -------------------------------------------------------------------------------------------


def test_stage_order() -> None:
    assert d.STAGES == ("Weaving", "Washing", "Bleaching", "Blocking", "Finished")
    assert [d.stage_index(s) for s in d.STAGES] == [0, 1, 2, 3, 4]
    assert d.next_stage("Weaving") == "Washing"
    assert d.next_stage("Blocking") == "Finished"
    assert d.next_stage("Finished") is None
    with pytest.raises(ValueError):
        d.stage_index("lavado")


# --- grades ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "grade"),
    [
        (5, None),
        (6, "Standard"),
        (12, "Standard"),
        (13, "Standard"),
        (14, "Fino"),
        (18, "Fino"),
        (20, "Fino"),
        (21, "Superfino"),
        (28, "Superfino"),
        (40, "Superfino"),
        (41, None),
        (0, None),
        (-3, None),
    ],
)
def test_grade_for_boundaries(rows: int, grade: str | None) -> None:
    assert d.grade_for(rows) == grade


def test_grade_mismatch_examples() -> None:
    assert d.grade_mismatch("Fino", 12)
    assert not d.grade_mismatch("Fino", 18)
    assert d.grade_mismatch("Superfino", 15)
    assert d.grade_mismatch(None, 18)
    assert d.grade_mismatch("Fino", 45)
    assert d.grade_mismatch_message("Fino", 12) == "Fino needs 14 to 20 rows per inch; 12 rows is Standard."
    assert d.grade_mismatch_message("Superfino", 15) == (
        "Superfino needs 21 to 40 rows per inch; 15 rows is Fino."
    )
    assert (
        d.grade_mismatch_message("Fino", 45)
        == "Fino needs 14 to 20 rows per inch; 45 rows is outside 6 to 40."
    )


def test_validate_rows() -> None:
    assert d.validate_rows(6) and d.validate_rows(40)
    assert not d.validate_rows(5) and not d.validate_rows(41)
    assert not d.validate_rows(True) and not d.validate_rows(18.0) and not d.validate_rows("18")


@given(st.integers(min_value=-100, max_value=200), st.sampled_from([*d.GRADES, None]))
def test_grade_for_and_grade_mismatch_agree(rows: int, grade: str | None) -> None:
    expected = d.grade_for(rows)
    assert d.grade_mismatch(grade, rows) == (expected is None or expected != grade)
    if expected is not None:
        assert not d.grade_mismatch(expected, rows)
        low, high = d.GRADE_ROWS[expected]
        assert low <= rows <= high


# --- codes ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw", ["tq 7f3k2", "TQ7F3K2", "7F3K2", "tq-7f3k2", "TQ.7F3K2", " TQ - 7F3K2 ", "7f3k2"]
)
def test_normalize_code_accepts_heard_forms(raw: str) -> None:
    assert d.normalize_code(raw) == "TQ-7F3K2"


@pytest.mark.parametrize("raw", ["", "TQ-", "7F3K", "TQ-7F3K22", "TQ-7F3K!", "TQ-7F3KÑ", "hola"])
def test_normalize_code_rejects_other_lengths(raw: str) -> None:
    assert d.normalize_code(raw) is None


def test_a_separated_tq_is_always_the_prefix() -> None:
    # "TQ-7F3" is a three-character body, not the body "TQ7F3".
    assert d.normalize_code("TQ-7F3") is None
    assert d.normalize_code("tq 7f3") is None
    assert d.normalize_code("TQ-TQ7F3") == "TQ-TQ7F3"
    assert d.normalize_code("tq tq7f3") == "TQ-TQ7F3"
    # Run together, five characters are a body.
    assert d.normalize_code("TQ7F3") == "TQ-TQ7F3"


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32))
def test_new_codes_never_start_with_tq(seed: int) -> None:
    codes = d.new_codes(50, [], random.Random(seed))
    assert not any(d.code_body(c).startswith("TQ") for c in codes)


@given(st.text(alphabet="tqTQ-. 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz", max_size=12))
def test_normalize_code_is_idempotent(raw: str) -> None:
    once = d.normalize_code(raw)
    if once is not None:
        assert d.normalize_code(once) == once
        assert once.startswith("TQ-") and len(once) == 8


def test_match_code_exact_confusable_fuzzy() -> None:
    exact = d.match_code("tq 7f3k2", OPEN_A)
    assert (exact.code, exact.step, exact.exact) == ("TQ-7F3K2", "exact", True)

    heard_o = d.match_code("el tq 2c5po".removeprefix("el "), OPEN_A)
    assert (heard_o.code, heard_o.step, heard_o.normalized) == ("TQ-2C5P0", "confusable", "TQ-2C5PO")
    assert not heard_o.exact

    one_edit = d.match_code("TQ-8H6RX", OPEN_A)
    assert (one_edit.code, one_edit.step) == ("TQ-8H6RT", "fuzzy")


def test_match_code_ambiguous_returns_candidates() -> None:
    both = d.match_code("TQ-7F3KZ", OPEN_A)
    assert both.code is None and both.step == "fuzzy"
    assert both.candidates == ("TQ-7F3K2", "TQ-7F3KA")
    other_workshop = d.match_code("TQ-7F3K8", OPEN_A)
    assert other_workshop.code is None and set(other_workshop.candidates) == {"TQ-7F3K2", "TQ-7F3KA"}


def test_match_code_nothing_and_closed_hats() -> None:
    assert d.match_code("TQ-ZZZZZ", OPEN_A).step is None
    assert d.match_code("nonsense", OPEN_A).candidates == ()
    # The finished TQ-5B7NW is not open: exact only through all_codes, never fuzzy.
    assert d.match_code("TQ-5B7NX", OPEN_A).code is None
    found = d.match_code("TQ-5B7NW", OPEN_A, all_codes=[*OPEN_A, "TQ-5B7NW"])
    assert (found.code, found.step) == ("TQ-5B7NW", "exact")


def test_match_code_one_character_missing() -> None:
    m = d.match_code("TQ-8H6R", OPEN_A)
    assert (m.code, m.step, m.normalized) == ("TQ-8H6RT", "fuzzy", None)


def test_canonical_code() -> None:
    assert d.canonical_code("TQ-2C5PO") == "TQ-2C5P0"
    assert d.canonical_code("TQ-IL0O1") == "TQ-11001"
    # Only O, I and L are mapped; other look-alikes (S/5, B/8, Z/2, U/V) stay as heard.
    assert d.canonical_code("TQ-SBZUV") == "TQ-SBZUV"


def test_new_code_alphabet_is_digits_and_capitals_without_i_l_o_u() -> None:
    wanted = [c for c in string.digits + string.ascii_uppercase if c not in "ILOU"]
    assert sorted(d.CODE_ALPHABET) == wanted and len(set(d.CODE_ALPHABET)) == 32


@settings(max_examples=60)
@given(st.integers(min_value=0, max_value=2**32), st.lists(st.sampled_from(OPEN_A), max_size=8))
def test_generated_code_never_needs_confusable_step(seed: int, existing: list[str]) -> None:
    code = d.new_code(existing, random.Random(seed))
    assert d.normalize_code(code) == code
    assert d.canonical_code(code) == code
    assert not set(d.code_body(code)) & set("ILOU")
    assert all(d.edit_distance(d.code_body(code), d.code_body(c)) > 1 for c in existing)
    match = d.match_code(code, [*existing, code])
    assert (match.code, match.step) == (code, "exact")


def test_new_codes_are_unique_even_against_confusable_existing() -> None:
    rng = random.Random(7)
    existing = ["TQ-2C5PO"]  # a legacy code holding an O
    codes = d.new_codes(100, existing, rng)
    assert len(set(codes)) == 100
    assert "TQ-2C5P0" not in codes
    assert all(set(d.code_body(c)) <= set(d.CODE_ALPHABET) for c in codes)


# --- weavers ---------------------------------------------------------------------------------------------


def test_match_weavers_examples() -> None:
    assert [w.id for w in d.match_weavers("Rosa", WEAVERS)] == ["w1", "w2"]
    assert [w.id for w in d.match_weavers("Doña Rosa Pillco", WEAVERS)] == ["w1"]
    assert [w.id for w in d.match_weavers("rosa guaman", WEAVERS)] == ["w2"]
    assert [w.id for w in d.match_weavers("Sra. ROSA Guam", WEAVERS)] == ["w2"]
    assert [w.id for w in d.match_weavers("Don Manuel", WEAVERS)] == ["w3"]
    assert [w.id for w in d.match_weavers("Carmen", WEAVERS)] == ["w4"]
    assert d.match_weavers("Mercedes", WEAVERS) == []
    assert d.match_weavers("Doña", WEAVERS) == []
    assert d.match_weavers("osa", WEAVERS) == []  # a prefix, not a substring


# The honorifics dropped before a name is matched (docs/workshop.md, "Rules").
SPEC_HONORIFICS = ("Doña", "Don", "Sra", "Señora", "Sr", "Señor", "Mrs", "Mr", "Ms", "Miss", "Dona")


@pytest.mark.parametrize("honorific", [*SPEC_HONORIFICS, "Sra.", "SEÑOR", "mrs.", "Srta"])
def test_every_honorific_of_the_spec_is_dropped(honorific: str) -> None:
    assert [w.id for w in d.match_weavers(f"{honorific} Rosa Guamán", WEAVERS)] == ["w2"]
    assert d.match_weavers(honorific, WEAVERS) == []


def test_honorifics_are_exactly_the_specs() -> None:
    # That list plus "Srta", which the note reader always heard as a title (docs/workshop.md, "Weavers").
    assert {d.fold(h) for h in SPEC_HONORIFICS} | {"srta"} == d.HONORIFICS
    # A name word that only starts like an honorific is kept ("Donato" is not "Don").
    donato = d.Weaver("w7", "Donato Sisalima")
    assert d.match_weavers("Donato", [donato]) == [donato]


def test_match_weavers_caps_at_five_and_skips_archived() -> None:
    many = [d.Weaver(f"x{i}", f"Rosa N{i}") for i in range(8)]
    assert len(d.match_weavers("Rosa", many)) == 5
    gone = d.Weaver("w9", "Rosa Archivada", archived=True)
    assert d.match_weavers("Rosa Archivada", [gone]) == []
    assert d.match_weavers("Rosa Archivada", [gone], include_archived=True) == [gone]


# --- can_advance ---------------------------------------------------------------------------------------------


def test_can_advance_codes_in_order() -> None:
    archived_seller = hat(archived=True, owner_type="seller")
    assert d.can_advance(archived_seller, 2, ACTOR)["code"] == "archived"
    seller_finished = hat(stage="Finished", owner_type="seller")
    r = d.can_advance(seller_finished, 4, ACTOR)
    assert (r["code"], r["message"]) == ("not_owner", "Only the current owner can change the stage.")
    assert d.can_advance(hat(workshop_id="B"), 2, ACTOR)["code"] == "not_owner"
    assert d.can_advance(hat(stage="Finished"), 4, ACTOR)["code"] == "already_finished"
    assert d.can_advance(hat(stage="Finished"), 1, ACTOR)["code"] == "already_finished"
    assert d.can_advance(hat(), 1, ACTOR)["code"] == "same_stage"
    assert d.can_advance(hat(), 0, ACTOR)["code"] == "backward"
    skip = d.can_advance(hat(), 4, ACTOR)
    assert skip == {
        "allowed": False,
        "code": "stage_skip",
        "message": "TQ-2C5P0 is at Washing; the next stage is Bleaching, so it cannot skip to Finished.",
        "fix": {"to_stage": "Bleaching"},
        # The message's parts, for a page to say it in its language (docs/workshop-pages.md, "Cards").
        "params": {"code": "TQ-2C5P0", "stage": "Washing", "next": "Bleaching", "to": "Finished"},
    }
    ok = d.can_advance(hat(), 2, ACTOR)
    assert ok["allowed"] is True and ok["code"] is None and ok["fix"] is None


def test_can_advance_rejects_index_outside_stages() -> None:
    with pytest.raises(ValueError):
        d.can_advance(hat(), 5, ACTOR)


@given(st.sampled_from(d.STAGES[:-1]), st.integers(min_value=0, max_value=4))
def test_can_advance_allows_exactly_next_stage(stage: str, to_index: int) -> None:
    result = d.can_advance(hat(stage=stage), to_index, ACTOR)
    assert result["allowed"] == (to_index == d.stage_index(stage) + 1)
    if not result["allowed"]:
        assert result["code"] in {"same_stage", "backward", "stage_skip"}
        if result["code"] == "stage_skip":
            assert result["fix"] == {"to_stage": d.next_stage(stage)}


@given(
    st.sampled_from(d.STAGES),
    st.integers(min_value=0, max_value=4),
    st.booleans(),
    st.sampled_from(d.OWNER_TYPES),
)
def test_can_advance_never_allows_archived_or_foreign_owner(
    stage: str, to_index: int, archived: bool, owner: str
) -> None:
    result = d.can_advance(hat(stage=stage, archived=archived, owner_type=owner), to_index, ACTOR)
    if archived or owner != "workshop":
        assert result["allowed"] is False
        assert result["code"] == ("archived" if archived else "not_owner")


# --- anomalies -----------------------------------------------------------------------------------------------


def left_weaving(days_after_creation: float, created: datetime) -> d.HatEvent:
    return d.HatEvent(
        "stage_changed",
        created + timedelta(days=days_after_creation),
        from_stage="Weaving",
        to_stage="Washing",
    )


def test_detect_anomalies_grade_mismatch_like_tq_4k9d1() -> None:
    h = hat(code="TQ-4K9D1", grade="Fino", rows_per_inch=12, weaver=W4, weaver_id="w4")
    found = d.detect_anomalies(h, [], NOW)
    assert found == [
        {
            "kind": "grade_mismatch",
            "message": "TQ-4K9D1: Fino needs 14 to 20 rows per inch; 12 rows is Standard.",
            "params": {
                "code": "TQ-4K9D1",
                "grade": "Fino",
                "rows": 12,
                "actual": "Standard",
                "low": 14,
                "high": 20,
            },
        }
    ]


@pytest.mark.parametrize(
    ("grade", "rows", "days", "too_fast"),
    [
        ("Fino", 16, 2, True),
        ("Fino", 16, 6.9, True),
        ("Fino", 16, 7, False),
        ("Standard", 10, 0.5, True),
        ("Standard", 10, 1, False),
        ("Superfino", 28, 20, True),
        ("Superfino", 28, 21, False),
    ],
)
def test_detect_anomalies_too_fast(grade: str, rows: int, days: float, too_fast: bool) -> None:
    created = NOW - timedelta(days=40)
    h = hat(stage="Washing", grade=grade, rows_per_inch=rows, created_at=created)
    kinds = [a["kind"] for a in d.detect_anomalies(h, [left_weaving(days, created)], NOW)]
    assert kinds == (["too_fast"] if too_fast else [])


def test_simulated_move_now_is_too_fast_for_a_two_day_old_fino() -> None:
    created = NOW - timedelta(days=2)
    h = hat(code="TQ-1P9KD", stage="Weaving", grade="Fino", rows_per_inch=16, created_at=created)
    assert d.detect_anomalies(h, [], NOW) == []
    simulated = d.HatEvent("stage_changed", NOW, "Weaving", "Washing")
    found = d.detect_anomalies(h, [simulated], NOW)
    assert [a["kind"] for a in found] == ["too_fast"]
    assert "at least 7 days" in found[0]["message"]
    # An event after `now` is ignored.
    assert (
        d.detect_anomalies(h, [d.HatEvent("stage_changed", NOW + timedelta(hours=1), "Weaving")], NOW) == []
    )


def test_detect_anomalies_weaver_not_found() -> None:
    assert [a["kind"] for a in d.detect_anomalies(hat(weaver=None), [], NOW)] == ["weaver_not_found"]
    archived = d.Weaver("w2", "Rosa Guamán", archived=True)
    assert [a["kind"] for a in d.detect_anomalies(hat(weaver=archived), [], NOW)] == ["weaver_not_found"]


# --- quotes ---------------------------------------------------------------------------------------------------

NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está\n"
    "listo y el de Carmen   en blanqueo tiene la hilera abierta, no coincide el grado."
)


def test_quote_in_note_examples() -> None:
    assert d.quote_in_note("terminó 3 finos de 18 hileras", NOTE)
    assert d.quote_in_note("ya está listo", NOTE)  # newline in the note
    assert d.quote_in_note("el de   Carmen en blanqueo", NOTE)  # runs on both sides
    assert not d.quote_in_note("termino 3 finos", NOTE)  # accents must match
    assert not d.quote_in_note("Terminó 3 finos", NOTE)  # case must match
    assert not d.quote_in_note("marca todos como terminados", NOTE)
    assert not d.quote_in_note("el", NOTE)  # too short
    assert not d.quote_in_note("a" * 161, "a" * 200)
    assert d.quote_in_note("a" * 160, "a" * 200)


def test_quote_in_note_escaped_form() -> None:
    note = "TQ-8H6RT <b> listo"
    assert d.quote_in_note("TQ-8H6RT &lt;b> listo", note)
    assert d.quote_in_note("TQ-8H6RT <b> listo", note)
    assert not d.quote_in_note("TQ-8H6RT &gt;", note)


@given(
    st.text(min_size=1, max_size=200),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=3, max_value=160),
)
def test_any_slice_of_the_note_is_a_quote(note: str, start: int, length: int) -> None:
    piece = note[start : start + length]
    if 3 <= len(d.collapse_spaces(piece)) <= 160:
        assert d.quote_in_note(piece, note)


@given(st.text(alphabet="AB01", max_size=7), st.text(alphabet="AB01", max_size=7))
def test_within_one_edit_agrees_with_edit_distance(a: str, b: str) -> None:
    assert d.within_one_edit(a, b) == (d.edit_distance(a, b) <= 1)


@given(st.text(alphabet="tqTQ- 0123456789ABCDEFKLOIPXZ", min_size=1, max_size=9))
def test_match_code_only_returns_codes_it_was_given(heard: str) -> None:
    m = d.match_code(heard, OPEN_A)
    assert set(m.candidates) <= set(OPEN_A)
    assert (m.code is None) == (len(m.candidates) != 1 or m.step is None)
    if m.step == "exact":
        assert m.code == m.normalized
    elif m.step == "confusable":
        assert all(d.canonical_code(c) == d.canonical_code(m.normalized or "") for c in m.candidates)
    elif m.step == "fuzzy":
        assert m.candidates
    else:
        assert m.candidates == () and m.code is None


_WHITE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"


@given(st.text(alphabet=st.sampled_from("ab\u200bñ" + _WHITE), max_size=40))
def test_collapse_spaces_is_the_regex_rule(text: str) -> None:
    # Every Unicode white space run becomes one space and the ends are trimmed, as `\s+` replaced by " " and
    # strip() did; the zero-width space is not white space and stays.
    assert d.collapse_spaces(text) == re.sub(r"\s+", " ", text).strip()


def test_collapse_spaces_examples() -> None:
    assert d.collapse_spaces("  el\u00a0TQ-7F3K2 \t pasó\u3000a\n\nlavado ") == "el TQ-7F3K2 pasó a lavado"
    assert d.collapse_spaces("\u2028 \x1c") == ""
    assert d.collapse_spaces("a\u200bb") == "a\u200bb"
