"""The reader: every entity a question names is in its reading, or the answer names it as not applied."""

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.reading import canonical, closest, entities, plan_read_as
from shopfloor.shifts.planning.router import route

DAY = date(2026, 9, 14)
GRADES = ["26-C", "32-C", "55-C", "200-C", "275-BC", "275-EB"]
REASONS = {"Knife jam": "knife jams", "Missed splice": "missed splices", "Paper break": "paper breaks"}
PLACES = {"Upper knife": "upper knife", "Splicer 3": "splicer 3", "Double backer": "double backer"}
SHIFT_WORDS = {1: "first shift", 2: "2nd shift", 3: "night shift"}
MEASURES = ["downtime", "speed", "rejects"]


@settings(max_examples=60, deadline=None)
@given(
    grade=st.sampled_from(GRADES),
    reason=st.sampled_from(sorted(REASONS)),
    place=st.sampled_from(sorted(PLACES)),
    shift=st.sampled_from([1, 2, 3]),
    measure=st.sampled_from(MEASURES),
)
def test_a_reading_names_every_entity_of_the_question(grade, reason, place, shift, measure):
    """Built from the vocabulary (a grade, a reason, a place, a shift, a measure): the plan carries every
    entity, so the Read-as line names it and the address encodes it."""
    question = f"show {measure} for {grade} on {SHIFT_WORDS[shift]}, {REASONS[reason]} at the {PLACES[place]}"
    plan = route(question, Scope(day=DAY, shift=2, include="day"))
    assert isinstance(plan, Plan)
    line = plan_read_as(plan)
    assert f"shift {shift}" in line
    named = [plan.grade, plan.reason, plan.place]
    assert named == [grade, reason, place]
    for value in named:
        assert value in line
    assert parse_address(plan.address()) == plan  # the address encodes the same reading


def test_misspellings_read_as_the_vocabulary_never_another_measure():
    assert canonical("show the dowtime") == "show the downtime"
    assert canonical("what were the rejcts") == "what were the rejects"
    assert canonical("waste breakdown last wk") == "waste breakdown last week"
    assert canonical("missed splice") == "missed splice"  # a neighbour word is never taken


def test_entities_spelt_as_the_catalogue():
    found = entities(canonical("275bc on crew b, knife jams at splicer 3 on the 98 inch web"))
    assert found.grades == ("275-BC",) and found.crews == ("B",)
    assert found.reasons == ("Knife jam",) and found.places == ("Splicer 3",) and found.widths == (98,)


def test_closest_questions_are_ranked_by_similarity():
    assert closest("how did the crews do on speed this month")[0] == "Speed by crew this month"
    assert closest("what are the biggest levers")[0] == "Where are the biggest levers this month?"


def test_a_plant_word_cut_short_by_one_letter_is_read_and_a_whole_word_is_left():
    from shopfloor.shifts.planning.reading import canonical

    assert canonical("first shift wast") == "first shift waste"
    assert canonical("spee on 2nd") == "speed on 2nd"
    assert canonical("what kind of stop") == "what kind of stop"


def test_this_quarter_is_read_as_the_445_period_with_the_span_it_covers():
    plan = route("downtime pareto this quarter", Scope(day=date(2026, 11, 19)))
    assert isinstance(plan, Plan) and plan.window == "fiscal"
    # P3 of the year anchored on Tue 2026-09-01 (4, 4, then 5 weeks): Tue 2026-10-27 to Mon 2026-11-30.
    assert plan_read_as(plan).endswith("4-4-5 P3 FY2026, Tue 2026-10-27 to Mon 2026-11-30 (5 weeks)")
    first = route("downtime pareto this quarter", Scope(day=date(2026, 9, 10)))
    assert isinstance(first, Plan)
    assert plan_read_as(first).endswith("4-4-5 P1 FY2026, Tue 2026-09-01 to Mon 2026-09-28 (4 weeks)")
