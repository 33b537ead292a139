"""The three rules on answers: a word no slot holds makes the answer partial and is named
(docs/shifts-agent.md, "The three rules")."""

import re
import string
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.planning.accounting import NOT_IN_RECORDS, account
from shopfloor.shifts.planning.dates import UNRESOLVED
from shopfloor.shifts.planning.reading import canonical

DAY = Scope(day=date(2026, 9, 16))
SHIFT2 = Scope(day=date(2026, 9, 16), shift=2, include="shift")
# Questions built from the vocabulary, each answered complete on the fixture day.
BASES = (
    "downtime by reason",
    "show the kpis",
    "fpm by grade",
    "downtime by place this week",
    "rejects on second shift",
)


def lines(answer):
    return " ".join(s["text"] for s in answer.sections if s["type"] in ("caveat", "text"))


def test_the_bases_are_complete(conn):
    for question in BASES:
        assert investigate(question, DAY, conn).status == "complete", question


def _unknown(word: str) -> bool:
    return (
        canonical(word) == word
        and account(word).not_understood == (word,)
        and not any(re.search(p, word) for p, _thing in NOT_IN_RECORDS)
        and not re.search(UNRESOLVED, word)
    )


WORDS = st.text(alphabet=string.ascii_lowercase, min_size=6, max_size=11).filter(_unknown)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(BASES), word=WORDS, first=st.booleans())
def test_one_unknown_word_makes_the_answer_partial_and_named(conn, base, word, first):
    question = f"{word} {base}" if first else f"{base} {word}"
    answer = investigate(question, DAY, conn)
    assert answer.status == "partial"
    assert f"Not understood: {word}." in lines(answer)


def test_a_thing_the_records_do_not_hold_is_named_not_swapped(conn):
    answer = investigate("downtime from the temperature on the wet end", SHIFT2, conn)
    assert answer.status == "partial"
    assert "Not in the records: temperature" in lines(answer)


def test_a_refusal_still_names_what_the_records_do_not_hold(conn):
    answer = investigate("steam psi", SHIFT2, conn)
    assert answer.status == "unavailable"
    assert "Not in the records: steam psi" in lines(answer)


def test_a_share_asked_is_the_headline_figure(conn):
    answer = investigate("what percent of downtime was knife jams", DAY, conn)
    assert answer.address.endswith("&ask=share")
    head = next(s for s in answer.sections if s["type"] == "headline")
    rows = answer.evidence[0]["rows"]
    jam = next(r for r in rows if r["key"] == "Knife jam")
    expected = round(100 * jam["minutes"] / sum(r["minutes"] for r in rows), 2)
    assert head["text"].startswith(f"Knife jam was **{expected:,.2f} %** of the recorded downtime")


def test_a_share_of_a_kind_reads_every_kind(conn):
    answer = investigate("what share of downtime was maintenance", DAY, conn)
    assert "&by=kind&kind=Maintenance&ask=share" in answer.address
    keys = {r["key"] for r in answer.evidence[0]["rows"]}
    assert "Maintenance" in keys and len(keys) > 1


def test_a_crew_over_every_shift_is_not_applied(conn):
    answer = investigate("crew A rejects", DAY, conn)
    assert answer.status == "partial"
    assert "Not applied: crew A" in lines(answer)


def test_the_asking_clause_of_a_story_decides_the_measure(conn):
    question = (
        "2nd shift was a mess tonight, guys were yelling and the supervisor before me left a note too, "
        "anyway just show me downtime by reason for my shift"
    )
    answer = investigate(question, DAY, conn)
    assert answer.address == "/a?day=2026-09-16&shift=2&measure=downtime&by=reason"


def test_a_yes_no_question_is_answered_yes_or_no_from_the_figure(conn):
    below = investigate("is 2nd shift below target?", DAY, conn)
    hit = investigate("did 2nd shift hit target?", DAY, conn)
    assert below.address.endswith("&ask=below_target") and hit.address.endswith("&ask=at_target")
    head = next(s for s in below.sections if s["type"] == "headline")
    value = next(p["value"] for p in head["parts"] if isinstance(p, dict) and p.get("unit") == "%")
    expected = "Yes" if value < 100 else "No"
    assert head["text"].startswith(f"{expected}: ")
    other = next(s for s in hit.sections if s["type"] == "headline")
    assert other["text"].startswith("No: " if expected == "Yes" else "Yes: ")


def headline(answer):
    return next(s["text"] for s in answer.sections if s["type"] == "headline")


def test_a_count_asked_leads_with_the_stops_listed(conn):
    # Shift 2 of the fixture day: a 20-minute knife jam and a 30-minute scheduled maintenance stop.
    answer = investigate("how many stops on 2nd shift", SHIFT2, conn)
    assert answer.status == "complete"
    assert headline(answer).startswith("**2 stops** recorded, 50.0 min of downtime (query 1)")


def test_hours_asked_lead_in_hours(conn):
    answer = investigate("how many hours of downtime on 2nd shift", SHIFT2, conn)
    assert answer.status == "complete"
    assert headline(answer).startswith("Downtime came to **0.83 hours** (50.0 min over 2 stops)")


def test_msf_asked_leads_with_the_gross_area_in_msf(conn):
    # Shift 2's setups: 84,000 ft at 92 in and 150,000 ft at 87 in: 1,731,500 sq ft gross.
    answer = investigate("how many MSF did 2nd shift run", SHIFT2, conn)
    assert answer.status == "complete"
    assert headline(answer).startswith("Shift 2 ran **1,731.5 MSF** of gross board")


def test_a_count_asked_of_a_place_with_no_stop_says_none(conn):
    answer = investigate("how many stops on splicer 3", SHIFT2, conn)
    assert headline(answer).startswith("Splicer 3: no stop recorded here (0 stops)")


def test_a_headline_that_does_not_answer_the_asked_figure_is_never_complete():
    from shopfloor.shifts.planning.accounting import figures_not_led
    from shopfloor.shifts.planning.plans import parse_address

    yes_no = parse_address("/a?window=month&anchor=2026-04-09&measure=fpm&by=crew&crew=C&ask=below_target")
    assert figures_not_led(None, yes_no, "275-BC / C: typical 431 ft/min, **0.85 h** of opportunity")
    assert not figures_not_led(None, yes_no, "Yes: Shift 2 ran at **84.00 %** of grade target speed")
    share = parse_address("/a?day=2026-09-16&measure=downtime&by=reason&reason=Knife%20jam&ask=share")
    assert figures_not_led(None, share, "The largest downtime was Equipment stop at **13.2 min**")
    plain = parse_address("/a?day=2026-09-16&shift=2&measure=downtime&by=reason")
    missing = figures_not_led(
        "downtime in hours", plain, "The largest downtime was Paper break at **3.5 min**"
    )
    assert missing and missing[0].startswith("the figure in hours")


def test_trim_is_said_against_the_owners_flag(conn):
    answer = investigate("how did 2nd shift trim look compared to the flag", DAY, conn)
    assert answer.status == "complete"
    assert headline(answer).endswith("; trim flags above 3.25 % per setup.")


def test_a_count_of_a_place_named_with_its_reason_leads_with_the_place_row(conn):
    # Shift 2's knife jam was on the upper knife: the rows are by place, kept to the knife jams, so the
    # place's row answers and the headline names both.
    answer = investigate("how many times did the upper knife jam on 2nd shift", DAY, conn)
    assert headline(answer).startswith("Knife jam at Upper knife: **20.0 min** over 1 stop")


def test_square_feet_of_good_board_leads_with_the_estimated_good_area(conn):
    answer = investigate("square feet of good board on 2nd shift", SHIFT2, conn)
    assert answer.status == "complete" and answer.address == "/a?day=2026-09-16&shift=2&measure=volume"
    good = next(r for r in answer.evidence[0]["rows"] if r["measure"] == "estimated_good_sqft")
    assert headline(answer).startswith(f"Estimated good area was **{good['value']:,.1f} sq ft**")
    assert good["value"] < 1_731_500  # below the shift's gross area (84,000 ft x 92 in + 150,000 ft x 87 in)


def test_short_weekdays_and_loss_verbs_are_read():
    assert account("rejects from last tues").lines() == []
    assert account("how many minutes did knife jams eat on 2nd").lines() == []


def test_a_count_of_paper_changes_leads_with_the_paper_changes(conn):
    answer = investigate("how many paper changes on 2nd shift", SHIFT2, conn)
    changes = next(r for r in answer.evidence[0]["rows"] if r["measure"] == "paper_changes")
    # Shift 2 ran two wet-end runs (W002, W003) on the fixture day.
    assert changes["value"] == 2
    assert headline(answer).startswith("**2** paper changes (wet-end runs)")
    assert answer.status == "complete"


def test_dry_end_percent_leads_with_the_shifts_tile(conn):
    # Shift 1: 1,000 sq ft of rejects on (90,000 + 270,000) ft x 98 in / 12 = 2,940,000 sq ft gross: 0.03 %.
    answer = investigate("dry end % on 1st shift", DAY, conn)
    assert answer.status == "complete"
    assert answer.address == "/a?day=2026-09-16&shift=1&measure=kpis&metric=dry_end_pct"
    assert headline(answer).startswith("Dry-end waste was **0.03 %** of gross (flag above 1 %)")
    texts = [s["text"] for s in answer.sections]
    assert sum("Dry-end waste" in t for t in texts) == 1  # the tile is said once, as the headline
