"""Every word of a question accounted for (docs/shifts-agent.md, "The three rules").

After :func:`reading.canonical`, each word of a question is one of: read into a slot (a measure, grouping,
shift, window, entity, unit or comparison word the reader knows), filler (words that carry no slot), a word
for something the plant's records do not hold (steam, temperatures, customers, names), or not understood.
An answer is ``complete`` only when nothing is left in the last two groups; the answer names them on one
line each ("Not in the records: …", "Not understood: …"). Pure text, no store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shopfloor.shifts.planning.dates import MONTH_SHORT, MONTHS, NUMBER_WORDS, UNRESOLVED, WEEKDAYS
from shopfloor.shifts.planning.plans import BAND_TILES, Plan
from shopfloor.shifts.planning.reading import COMMON, SPANISH_TIMES, VOCABULARY, canonical, entities
from shopfloor.shifts.planning.router import (
    AGAINST_LIMIT,
    BAND_WORDS,
    LOSS_WORDS,
    SHIFTS_COUNTED,
    YES_NO,
    reject_share_asked,
)
from shopfloor.shifts.planning.scope_words import TIME_RANGE, named_shifts
from shopfloor.shifts.planning.stories import SECOND_ASK, asked_clause
from shopfloor.shifts.plant.catalog import (
    CREWS,
    GRADE_TARGETS,
    REJECT_FAMILIES,
    STOP_KINDS,
    STOP_PLACES,
    STOP_REASONS,
    WEB_WIDTHS,
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry no slot: function words, politeness, and the verbs people wrap a question in.
FILLER = _words(
    """
    a about above after again against ago all also am an and any anyone anything anyway are around as ask
    asked at be because been before being below between both but by can could day days did didnt do does
    doing done down during each either else even ever every far for from get gets getting give go goes going
    gonna gotta got had has have having he her here him his how i if in into is it its just kind know let
    like look looked looks lot me mine more most much my need needs no nor not now of off ok okay on once one
    only or other our ours out over own please put quick quickly really right said same say see she should
    show showed shows so some still such sure tell than thanks that thats the their them then there these
    they thing things this those through to too up us very want wanted wants was way we were what whats when
    where which while who whom why will with would yes yet you your yours
    actually again alright also anyway basically hey hi just kindly maybe pls real so then thank well
    nah nope yep yeah yea yup
    give me us gimme lemme pull bring list see check find display
    happened happen went going gone getting got look looking run ran running runs made make making
    instead only exactly roughly overall whole entire today tonight currently current now full complete
    investigate explain analyse analyze supporting support detail details detailed breakdown
    number numbers figure figures total totals amount value values
    set beside alongside question questions logged recorded listed stay stayed
    """
)

# Words the reader reads into a slot beyond the measure vocabulary of ``reading.VOCABULARY``: units, shares,
# counts, comparisons, the line's own names, time words and the shift and window words.
READ = _words(
    """
    kpi kpis pareto fpm ft feet foot lineal msf sq square good gross board sheets sheet
    cost costs costing cost spent spend worth rates rate dollar dollars money lost lose losing loss losses
    share percent percentage pct fraction proportion portion ratio rate
    count counts many often times frequency frequent number
    hours hour hrs hr minutes minute mins min seconds
    top bottom rank ranks ranking ranked worst best highest lowest biggest largest smallest most least fewest
    first second third 1st 2nd 3rd shift shifts night swing evening graveyard day days
    week weeks weekly month months monthly quarter period periods fiscal year yearly annual date
    yesterday today tomorrow ago last previous prior next this current since so far to date
    compare compared comparison side versus vs against than up down higher lower more less better worse stack
    fast faster fastest slow slower slowest speed speeds pace target targets hit make made miss missed
    below under above over within inside beyond exceed exceeded beat meet met reach reached low high
    line corrugator machine plant mill site
    downtime stops stop stopped stopping jam jams jammed jamming down
    maintenance operator planned pm external outage outages breaks broke break
    rejects reject rejected quality waste trim shear yield dry wet end family families area
    setups setup changeovers changeover change changes changed paper splices splice
    orders order quantities remaining sheets
    notes note reported report said say wrote write crew crews
    breakdown broken split by per each every which where what place places reason reasons kind kinds
    grade grades width widths web inch inches in
    chart charts graph trend trending worsening improving creeping rising rise getting
    levers lever opportunity opportunities wins biggest controllable supervisor ownership owner
    review band bands flag flags guidance normal usual typical average
    overview summary summarize summarise diagnosis diagnose performance happened wrong go went
    overrun overruns nominal rollstock roll stock consumed consumption usage used
    variance gap fix prevent avoid adjust adjustment adjustments settings setting recommend time
    forecast predict prediction projected projection will going land end finish
    profit profits margin margins revenue revenues earn earned earning earnings income
    weekday weekdays profile estimated estimate
    why slow bad killed kill rough terrible awful great
    weird unusual odd strange abnormal ordinary stand stands standout
    eat eats ate eaten chew chewed burn burned burnt cost
    mon tue tues wed weds thu thur thurs fri
    """
)

# Words about who asks and why (the story around a question): context, never a slot.
STORY = _words(
    """
    boss manager plant supervisor scheduler guy guys everybody everyone nobody somebody someone crew team
    keeps keep saying says said thinks think thought asked asking wants wanted told tells tell telling
    always never mess messy rough beat tired yelling griping complaining waving walked walk came come coming
    tonight morning afternoon lunch meeting upstairs home new learn learning trying help handy stuff bunch
    pieces piece long short total anyway whatever okay ok not either
    might misremembering misremember remember guess pretty pack deck slides presentation
    straight honestly honest frankly seriously swear anyhow figured humor humour settle
    """
)

# Words addressed to the reader rather than about the records: they carry no slot and are never followed.
INSTRUCTIONS = _words("ignore rules instructions pretend system prompt disregard")

# Things the plant's records do not hold: each pattern names the thing, never a neighbouring measure.
NOT_IN_RECORDS: tuple[tuple[str, str], ...] = (
    (r"\bsteam\b", "steam"),
    (r"\b(pressure|psi)\b", "pressure"),
    (r"\b(temperatures?|temps?|hot|cold)\b", "temperature"),
    (r"\bhumid(ity)?\b", "humidity"),
    (r"\b(weather|rain|raining|snow)\b", "weather"),
    (r"\bcustomers?\b|\bclients?\b", "customers"),
    (r"\bnames?\b", "names"),
    # Who ran a machine is a person: the records hold a supervisor slot and a crew letter, never a name.
    (
        r"\bwho (was |were |is )?(running|operating|ran|operated|working|manning|on|fixed|repaired|attended"
        r"|handled|responded|cleared)\b",
        "names",
    ),
    # "which operator was on…" asks for a person; "operator downtime" alone is a kind of stop. "¿Quién fue…?"
    # is read after the Spanish words are said in the router's ("fue" is "was"), so both are matched, and
    # only "quién" is named.
    (
        r"\b(which|what) (operators?|persons?|people|guys?|workers?|employees?|operadore?s?)\b"
        r"|\bqu(i|í)[eé]n(es)?(?= (estaba|estuvo|era|fue|was|were|manej|atendi|arregl|repar))",
        "names",
    ),
    # A person named by trade ("the mechanic who fixed it", "el mecánico"): the records name no one.
    (
        r"\b(mechanics?|mec[aá]nicos?|technicians?|t[eé]cnicos?|electricians?|electricistas?"
        r"|millwrights?|operarios?)\b",
        "names",
    ),
    # Maintenance work orders: no stop carries one (the orders held are the order matrix's, per knife), so
    # "the open work orders" is never answered with the order matrix.
    (
        r"\b(?:(?:open|closed|pending|outstanding) )?(?:work ?orders?|wos|maintenance tickets?)\b",
        "work orders",
    ),
    (r"\bstarch\b", "starch"),
    # Print defects and moisture readings: the records hold dry-end reject families, not these.
    (r"\binks?\b|\bsmear(s|ed|ing)?\b|\bprint(ing)?\b", "printing"),
    (
        r"\bmoisture (on|of|in) (the )?(liner|medium|paper|board|sheet)s?\b|\bmoisture (content|readings?|levels?)\b",
        "moisture readings",
    ),
    # Sections of the corrugator that are no stop place (docs/record-format.md §2.6 lists the places): the
    # preheater, the single facer and the stackers are named, never read as the shift's whole downtime.
    (r"\bpre-?heaters?\b", "preheater"),
    (r"\bsingle[- ]?facers?\b", "single facer"),
    (r"\b(?:down-?)?stackers?\b", "stacker"),
    # Scrap causes the plant does not record: damage in handling is no dry-end reject family.
    (r"\b(forklifts?|clamp trucks?|damaged?)\b", "handling damage"),
    (r"\bwashboard(ing)?\b", "washboard"),
    (r"\bcrush(ed)?\b", "crush"),
    # A reading said as the verb or adjective of what it measures ("was it vibrating", "running hot",
    # "overheating", "noisy"), as well as by its name: no reading of the machine is recorded.
    (r"\bvibrat\w*|\bvibra(ba|ndo|ci[oó]n|ciones)\b|\bshak(ing|y|ier)\b", "vibration"),
    (r"\bnois(e|es|y|ier)\b|\bruidos?\b", "noise"),
    (r"\boverheat\w*|\bsobrecalent\w*", "temperature"),
    (r"\b(amps?|amperage|voltage|energy|electricity)\b", "electrical readings"),
    (r"\b(wages?|salary|salaries|overtime|payroll)\b", "pay"),
    # Units the records do not measure in: the paper is held in lineal feet and square feet, never by
    # weight (no basis weight is recorded), and glue or starch by no volume at all.
    (
        r"\b(tons?|tonnes?|tonnage|pounds?|lbs?|kilos?|kilograms?|kgs?|weights?|weigh(s|ed|ing)?"
        r"|basis weight)\b",
        "weight",
    ),
    (r"\b(gallons?|liters?|litres?)\b", "liquid volumes"),
)
HELD = (
    "the records hold speed and lineal feet, downtime stops (reason, place, kind), setups and paper changes, "
    "dry-end rejects, trim and shear, the order matrix and the crews' notes"
)


@dataclass(frozen=True)
class Accounting:
    """The words of a question that no slot holds: things the records do not hold, and words not read."""

    not_in_records: tuple[str, ...] = ()
    not_understood: tuple[str, ...] = ()
    not_applied: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The answer's lines naming them (empty when every word was accounted for)."""
        out = []
        if self.not_in_records:
            out.append(f"Not in the records: {', '.join(self.not_in_records)} ({HELD}).")
        if self.not_understood:
            out.append(f"Not understood: {', '.join(self.not_understood)}.")
        if self.not_applied:
            out.append(f"Not applied: {'; '.join(self.not_applied)}.")
        return out


def _entity_words() -> frozenset[str]:
    names = [*STOP_PLACES, *STOP_REASONS, *STOP_KINDS, *REJECT_FAMILIES]
    names += [sub for subs in REJECT_FAMILIES.values() for sub in subs]
    words = {w for name in names for w in re.findall(r"[a-z]+", name.lower())}
    return frozenset(words | {w.removesuffix("s") for w in words})  # "glue dam" as well as "glue dams"


_KNOWN = (
    FILLER
    | READ
    | INSTRUCTIONS
    | STORY
    | COMMON
    | _entity_words()
    | frozenset(w for words in VOCABULARY.values() for w in words)
    | frozenset((*MONTHS, *MONTH_SHORT, *WEEKDAYS, *NUMBER_WORDS))
)
_WORD = re.compile(r"[a-zñáéíóúü]+(?:'[a-z]+)?")


def _known(word: str) -> bool:
    base = word.split("'")[0]
    if base in _KNOWN or len(base) < 3:
        return True
    for suffix in ("s", "es", "ed", "ing", "ly"):
        if base.endswith(suffix) and base[: -len(suffix)] in _KNOWN:
            return True
    return False


def account(question: str, plan: Plan | None = None) -> Accounting:
    """The words of ``question`` left unaccounted for: things the records do not hold, and words not read
    (a date word the dates layer cannot place, "payday", is not understood whatever else it is); with the
    ``plan`` read from it, also what it asks that the plan does not answer."""
    text = canonical(question)
    asked = _asked_not_answered(text, plan) + not_held(text, question, plan)
    unresolved = [m.group(0) for m in re.finditer(UNRESOLVED, text)]
    missing: list[str] = []
    spans = sorted(m.span() for pattern, _thing in NOT_IN_RECORDS for m in re.finditer(pattern, text))
    # Each thing named as the question says it, neighbours joined ("steam pressure", "crushed").
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and text[merged[-1][1] : start].strip() == "":
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in merged:
        phrase = text[start:end]
        if phrase not in missing:
            missing.append(phrase)
    for start, end in reversed(merged):
        text = text[:start] + " " + text[end:]
    # A time of day is named as not applied (``not_held``), its words with it ("3 oclock", "the early morning").
    text = re.sub(TIME_OF_DAY, " ", text)
    # Grade codes, widths and numbers are entities or figures the reader reads (or names as not applied).
    text = re.sub(r"\b\d+(?:[-.,/]\w+)*%?", " ", text)
    unknown = list(dict.fromkeys(unresolved))
    text = re.sub(UNRESOLVED, " ", text)
    # "Bridge" is read only in "speed bridge" (the speed-variance bridge); any other bridge is a part of the
    # line the records do not name.
    text = re.sub(r"\bspeed (variance )?bridge\b", " speed ", text)
    # A reaction in a story ("same old song", "same old story") asks nothing.
    text = re.sub(r"\bsame old (?:song|story|thing|stuff|tune)\b", " ", text)
    # A long, story-like question is read from its asking clause (planning/stories.asked_clause): the story before it
    # is context, its words never a slot, so only the clause's words can be left not understood. Things the
    # records do not hold are named wherever they are said.
    for word in _WORD.findall(asked_clause(text)):
        if not _known(word) and word not in unknown:
            unknown.append(word)
    return Accounting(tuple(missing), tuple(unknown), tuple(asked))


# A target beside a loss ("was waste over target?"): the yes/no reads speed to target only, and no target is
# recorded for a loss, so the target is named, never answered with the speed (docs/shifts-agent.md, rule 3).
LOSS_TARGET = (
    "the target or threshold asked (a yes/no against target reads speed to target only; losses are shown "
    "against the owner's bands where there is one)"
)


# A limit said in figures: "over 5%", "the 2.5% target", "the 2.5 band".
_LIMIT_SAID = (
    r"\b(?:over|above|under|below|within|inside|more than|less than|exceed\w*|beyond) (?:the )?([\d.]*\d) ?(?:%|percent)?"
    r"|\b([\d.]*\d) ?(?:%|percent)? (?:bands?|flags?|targets?|thresholds?|limits?)\b"
)


# A share of the rejects ("what share of rejects were down warp") is answered by the waste breakdown's
# shares (``ask=share``); a plan that reads it otherwise (a trend, a ranking) names it as not applied.
REJECT_SHARE = (
    "the share of the rejects asked (this answer lists the rejects by family with their area, not as a "
    "share; ask for the share on its own)"
)


# "How many shifts went over the maint band": the figure held to the band or target leads (over the window or
# the day); no tool counts the shifts past it (docs/shifts-agent.md, "Known limits").
SHIFTS_COUNTED_LINE = (
    "the count of shifts asked (this answer states the figure against its band or target over the whole "
    "window or day, not each shift's; no tool counts the shifts past it)"
)


def _asked_not_answered(text: str, plan: Plan | None = None) -> list[str]:
    out = []
    threshold = r"\btargets?\b|\b(over|above|under|below|more than|less than) [\d.]+ ?(%|percent)"
    banded = plan is not None and plan.measure == "kpis" and plan.metric in BAND_TILES
    if banded and plan is not None:
        # A loss held to its owner band: a limit said in other figures is not the band it is held to.
        band = BAND_TILES[str(plan.metric)]
        for said in re.findall(_LIMIT_SAID, text):
            value = float(said[0] or said[1])
            if abs(value - band) > 1e-9:
                out.append(
                    f"the threshold {value:g} % (the verdict is held to the owner's band, {band:g} %; no other "
                    "limit is recorded)"
                )
    elif re.search(YES_NO, text) and re.search(threshold, text) and re.search(LOSS_WORDS, text):
        out.append(LOSS_TARGET)
    if re.search(SHIFTS_COUNTED, text) and re.search(BAND_WORDS, text):
        out.append(SHIFTS_COUNTED_LINE)
    shared = plan is not None and plan.ask == "share" and plan.measure == "waste"
    if reject_share_asked(text) and not shared:
        out.append(REJECT_SHARE)
    return out


# A clock time or a time of day ("around 3am", "at 2:30", "after lunch", "a las tres"): no tool filters the stops
# by the clock, so the whole shift or day is read and the time named as not applied (docs/shifts-agent.md,
# "Known limits"). Only the asking clause's: a time in the story around a question ("came by after lunch") is
# context.
TIME_OF_DAY = (
    # A clock range first, whole ("between 2 and 4 pm"), then one time.
    TIME_RANGE + r"|\b(?:(?:at|around|about|near|after|before|by|until|till|from|since|between) )?"
    r"(?:\d{1,2}(?::\d{2})? ?(?:am|pm|a\.m\.|p\.m\.|oclock|o'clock)|\d{1,2}:\d{2}|noon|midnight|midday)(?!\w)"
    r"|\b(?:after|before|during|at|around|by) (?:the )?(?:lunch|dinner|breakfast|supper|lunch break)\b"
    r"|\b(?:in the (?:early |late )?|this |early |late |mid-?)(?:morning|afternoon|evening)\b(?! (shift|meeting)\b)"
)
# The year so far is no window the investigator reads (the Period control: day, week, month, 4-4-5 period).
YEAR_SAID = (
    r"\b(year to date|year-to-date|ytd|so far this year|this year|last year|the past year|the whole year"
    r"|all year|the last (12|twelve) months)\b"
)
# A figure held to the speed target's yes/no ("were we around 85% of target"): the verdict is held to 100 %.
_PERCENT_SAID = r"(?<![\d.])(\d+(?:\.\d+)?) ?(?:%|percent\b|pct\b|por ?ciento\b)"
# A grade code or a web width the catalogue does not hold ("44-C", "the 90 inch web"): named, never read as
# every grade or every width.
_GRADE_SAID = r"\b(\d{2,3})-([a-z]{1,2})\b"
_WIDTH_SAID = r"\b(\d{2,3}) ?-?(?:inch(?:es)?\b|in\.|\"|”|in(?= (?:web|wide|width)\b))"
# A splicer number or a crew letter the plant does not have ("splicer 6", "crew E"): named, never read as every
# splicer or as the shift's own crew. "Crew i", "crew y", "crew o" and "crew u" are a pronoun or a conjunction.
_SPLICER_SAID = r"\b(?:splicer|empalmador|empalmadora) #?(\d+)\b"
_CREW_SAID = r"\b(?:crew|cuadrilla) ([b-hj-np-tv-xz])\b"
# A ranking on trim: the groups are ranked on speed to target, unplanned downtime or dry-end waste only, whether
# the groups are compared ("which crew ran the worst trim") or ranked by their N ("top 3 grades by trim").
_TRIM_SAID = r"\b(?:side )?trim\b"
_GROUPS_RANKED = r"\b(?:top|bottom|best|worst|rank(?:ed)?(?: the)?) (?:[2-5] |two |three |four |five )?(grade|crew|shift|width)s?\b"
# A grouping no tool makes: the flute is a letter of a grade's code (26-C runs C flute), never a grouping of the
# records, so "MSF by flute" names it and never reads the rows by grade silently (docs/shifts-agent.md, rule 1).
_FLUTE_GROUPED = r"\b(?:by|per|each) flutes?\b|\b(?:which|what) flutes? (?:had|has|have|ran|was|were)\b"
FLUTE_LINE = (
    "by flute (no tool groups by flute; a grade's code carries its flute, 26-C is C flute: ask by grade)"
)


def times_typed(question: str) -> list[str]:
    """The times of day ``question`` says in Spanish, as typed and in the order said (``reading.SPANISH_TIMES``)."""
    typed = question.lower()
    found = sorted({m.span(): m.group(0) for p in SPANISH_TIMES for m in re.finditer(p, typed)}.items())
    out: list[tuple[int, int, str]] = []
    for (start, end), said in found:
        if not out or start >= out[-1][1]:  # a range holds its clock times: the range alone is said
            out.append((start, end, said))
    return [said for _start, _end, said in out]


def not_held(text: str, question: str, plan: Plan | None = None) -> list[str]:
    """What ``text`` (the question in the router's words; ``question`` as typed) names that no tool applies:
    a time of day, the year so far, a threshold on the speed target other than 100 %, a grade, a width, a
    splicer or a crew the records do not hold, a second ask, a ranking on trim; each said with why
    (docs/shifts-agent.md, rule 2)."""
    out = []
    clause = asked_clause(text)
    typed = times_typed(question)
    for m in re.finditer(TIME_OF_DAY, clause):
        # Named as the question says it: a time said in Spanish is read in the router's words ("a las tres" is
        # "around 3 oclock"), so the typed words stand for it, in the order said.
        said = m.group(0).strip()
        if said not in question.lower() and typed:
            said = typed.pop(0)
        out.append(
            f"the time of day, {said} (this answer reads the whole shift or day; no tool filters the stops by "
            "the clock)"
        )
    year = re.search(YEAR_SAID, text)
    if year is not None:
        # The year so far, however said ("so far this year", "YTD"), is named as the docs name it.
        said = year.group(0)
        if said in ("year-to-date", "ytd", "so far this year", "this year"):
            said = "year to date"
        out.append(
            f"{said} (the windows read are a production day, a Mon–Fri week, a month and a 4-4-5 period; "
            "no year window: ask for a month or this period)"
        )
    if plan is not None and plan.ask in ("below_target", "at_target"):
        for said in re.findall(_PERCENT_SAID, question.lower()):
            if abs(float(said) - 100) > 1e-9:
                out.append(
                    f"the threshold {float(said):g} % (the verdict is held to the grade target, 100 %; no other "
                    "limit is recorded)"
                )
    for number, letters in re.findall(_GRADE_SAID, text):
        code = f"{number}-{letters.upper()}"
        if code not in GRADE_TARGETS:
            out.append(
                f"grade {code} (no grade of that name is in the records: the grades are "
                f"{', '.join(GRADE_TARGETS)}; this answer reads every grade)"
            )
    for number in re.findall(_SPLICER_SAID, text):
        if f"Splicer {int(number)}" not in STOP_PLACES:
            out.append(
                f"splicer {number} (no place of that name is in the records: the splicers are Splicer 1 to "
                f"Splicer {sum(p.startswith('Splicer ') for p in STOP_PLACES)}; this answer reads every place)"
            )
    for letter in re.findall(_CREW_SAID, text):
        if letter.upper() not in CREWS:
            out.append(
                f"crew {letter.upper()} (no crew of that name is in the records: the crews are "
                f"{', '.join(CREWS[:-1])} and {CREWS[-1]}; this answer reads the crew that ran)"
            )
    second = re.search(SECOND_ASK, clause)
    if second is not None:
        out.append(
            f"the second ask, “{second.group(1).strip(' ?')}” (one question per answer is read; ask it on its own)"
        )
    if plan is not None and re.search(_TRIM_SAID, text) and _groups_ranked(text, plan):
        out.append(
            "the ranking on trim (the groups are ranked on speed to target, unplanned downtime or dry-end "
            "waste; trim is shown side by side, never ranked: ask to compare them side by side)"
        )
    if re.search(_FLUTE_GROUPED, text):
        out.append(FLUTE_LINE)
    for number in re.findall(_WIDTH_SAID, text):
        if float(number) not in WEB_WIDTHS:
            out.append(
                f"the {number} in web (no web of that width is in the records: the webs are "
                f"{', '.join(f'{w:g}' for w in WEB_WIDTHS)} in; this answer reads every width)"
            )
    return list(dict.fromkeys(out))


# A speed or volume question against the window before ("MSF this week vs last week") runs its own plan, whose KPI
# tiles carry the window before (planning/router.py): its "Read as" line names that window by its dates, as a
# window comparison's does (docs/shifts-agent.md, "Reading").
_AGAINST_BEFORE = (
    r"\b(compare|compared|vs\.?|versus|against|than)\b.*\b(last|previous|prior) (week|month|period)\b"
    r"|\b(last|previous|prior) (week|month|period)\b.*\b(compared?|vs\.?|versus|against|than)\b"
)


def window_before_asked(question: str, plan: Plan) -> bool:
    """Whether ``question`` asks ``plan``'s window of speed or volume against the window before, which its KPI
    tiles carry (the "Read as" line then names it)."""
    text = canonical(question)
    return (
        plan.measure in ("volume", "fpm")
        and plan.window != "day"
        and plan.other_anchor is None
        and re.search(_AGAINST_BEFORE, text) is not None
        and re.search(AGAINST_LIMIT, text) is None
    )


def _groups_ranked(text: str, plan: Plan) -> bool:
    """Whether ``text`` asks the groups ranked: compared by the plan, or a kind ranked by its N ("top 3 grades")
    that the plan does not group by."""
    ranked = re.search(_GROUPS_RANKED, text)
    return plan.measure == "compare_groups" or (ranked is not None and plan.by != ranked.group(1))


def more_values(question: str, plan: Plan) -> tuple[list[str], list[str]]:
    """The values of one entity kind beyond the plan's (a plan applies one per kind): those a result grouped
    by that kind shows (its row, or its absence, is the answer), and the others, each named as not applied
    with why; and the named shifts the plan does not read (docs/shifts-agent.md, "Reading": never the first
    value silently). Returns (not applied, also read)."""
    named = entities(canonical(question))
    missing: list[str] = []
    also: list[str] = []
    for name, values in (
        ("grade", named.grades),
        ("crew", named.crews),
        ("reason", named.reasons),
        ("place", named.places),
        ("width", named.widths),
        ("reject", named.rejects),
    ):
        first = getattr(plan, name)
        for value in values:
            if value == first:
                continue
            label = f"{value} in web" if name == "width" else f"{name} {value}"
            one_shift = name == "crew" and plan.window == "day" and plan.shift is not None
            if plan.by == name and one_shift:
                # One shift of one day ran one crew: the rows by crew hold that crew alone, never the other.
                missing.append(
                    f"{label} (one shift runs one crew: this answer reads shift {plan.shift}'s crew; ask about "
                    f"crew {value} over a window)"
                )
                continue
            if plan.by == name:
                also.append(f"{label} (in the rows by {name})")
                continue
            if first is None:
                # Named (in a story's words, or beside a measure that reads every one) but not applied.
                missing.append(f"{label} (this answer reads every {name}; ask about {value} on its own)")
                continue
            applied = f"{first} in web" if name == "width" else f"{name} {first}"
            missing.append(
                f"{label} (one {name} per answer is applied, {applied}; ask about {value} on its own)"
            )
    for by, pattern in ASKED_GROUPINGS:
        if (
            re.search(pattern, canonical(question))
            and plan.by != by
            and plan.measure not in GROUPED_ELSEWHERE
        ):
            missing.append(f"by {by} (this answer's tools do not break {plan.measure} down by {by})")
    top = re.search(TOP_N, canonical(question))
    if plan.measure == "compare_groups" and top:
        # "Worst 2 shifts", "which two crews": every group is listed, ranked with which end it is; the N asked
        # is not a cut.
        missing.append(f"the {top.group(1)} asked (every {plan.by} is listed, ranked best first)")
    elif (
        top
        and plan.by is not None
        and plan.measure in ROWS_LISTED
        and re.search(r"\bexactly\b", question, re.I)
    ):
        # Rows listed largest first hold their top N ("top 3 stops"); "exactly the top 2 downtime reasons" asks
        # for a cut, which no answer makes: the rows are every one of the grouping's.
        missing.append(f"the {top.group(1)} asked (every {plan.by} is listed)")
    if plan.measure == "compare_shifts" and re.search(r"\brank(s|ed|ing)?\b", canonical(question)):
        missing.append(
            "the ranking (two named shifts are shown side by side, not ranked; every shift of the day is "
            "ranked: ask to rank the shifts)"
        )
    read = {plan.shift, plan.other_shift} if plan.shift is not None else {1, 2, 3}
    for shift in named_shifts(question):
        if shift not in read:
            missing.append(
                f"shift {shift} (this answer reads shift {plan.shift}; ask about shift {shift} on its own)"
            )
    return missing, also


# A number of groups or rows asked ("worst 2 shifts", "which two crews", "the top 3 grades"): no answer cuts its rows
# to N, so the N is named as not applied.
TOP_N = r"\b(?:top|bottom|best|worst|slowest|fastest|which) ([2-5]|two|three|four|five)\b"
ROWS_LISTED = frozenset({"pareto", "downtime", "volume", "fpm"})


# A breakdown the question asks for in so many words ("downtime by grade"); an answer not grouped that way
# names it (never another breakdown silently). Comparisons and the money levers group by their own rows.
ASKED_GROUPINGS = (
    # "Which grade had the worst trim" asks the rows by grade as "by grade" does.
    (
        "grade",
        r"\b(by|per|each) (board )?grades?\b|\b(which|what) (board )?grades? (had|has|have|ran|was|were)\b"
        # The grades ranked by their N ("top 3 grades by trim") are the rows by grade too.
        r"|\b(top|bottom|best|worst) ([2-5]|two|three|four|five) (board )?grades\b|\brank (the )?grades\b",
    ),
    (
        "width",
        r"\b(by|per|each) (web )?widths?\b|\b(which|what) (web )?widths? (had|has|have|ran|was|were)\b",
    ),
    ("crew", r"\b(by|per|each) crews?\b"),
    ("place", r"\b(by|per) (place|location|machine|equipment)s?\b"),
    ("kind", r"\b(by|per) (kind|type|category)\b"),
)
GROUPED_ELSEWHERE = frozenset(
    {"compare_shifts", "compare_groups", "compare", "opportunities", "speed_opportunity", "trend", "overview"}
)


def read_whole(question: str, plan: Plan) -> bool:
    """Whether ``plan`` holds every word of ``question``: no word left unread (not in the records, not
    understood), no further value the plan does not apply and no unit or count the address does not carry
    (:func:`asked_figures`). Only then does the question's answer equal
    its address's (the address carries the plan, not the words it left out), so only then may a page
    answer it by its address (docs/shifts-agent.md, "The three rules")."""
    return (
        not account(question, plan).lines()
        and not more_values(question, plan)[0]
        and not asked_figures(question)
    )


# Figures a question asks for in a unit, or as a count, that the address does not carry (docs/shifts-agent.md,
# rule 3): (what is asked, the question's words, the headline's bold figure that states it).
_COUNTED = r"(stops?|times|jams?|splices?|changes?|changeovers?|setups?|breaks?|outages?)"
ASKED_FIGURES: tuple[tuple[str, str, str, str], ...] = (
    ("hours", "the figure in hours", r"\b(hours?|hrs?)\b", r"\*\*[\d,.]+ ?(h|hours?)\*\*"),
    ("msf", "the figure in MSF", r"\bmsf\b", r"\*\*[\d,.]+ ?MSF\*\*"),
    (
        "sqft",
        "the figure in square feet",
        r"\b(sq\.? ?(ft|feet|foot)|square (feet|foot|ft)|sqft)\b",
        r"\*\*[\d,.]+ ?sq ft\*\*",
    ),
    (
        "count",
        "the count asked",
        rf"\bhow many (\w+ ){{0,2}}{_COUNTED}\b|\bhow often\b|\bnumber of (\w+ ){{0,2}}{_COUNTED}\b",
        rf"\*\*[\d,]+ ?{_COUNTED}\*\*|\*\*[\d,]+\*\* (\w+ ){{0,2}}{_COUNTED}\b",
    ),
)


def asked_figures(question: str) -> list[tuple[str, str, str]]:
    """The figures ``question`` asks for in a unit or as a count: (key, what is asked, the headline's
    pattern); the keys are what the answer's shapes lead with (``answers/shapes.asked_headline``)."""
    text = canonical(question)
    return [(key, name, said) for key, name, asked, said in ASKED_FIGURES if re.search(asked, text)]


# A yes/no asked ("was maint dt over the band", "is downtime up from last week?", "… yes or no") whose
# headline states a figure but no Yes or No: the supervisor decides, so the answer is never complete.
YES_NO_UNLED = "the verdict asked (this answer's headline states the figure, not whether it is so)"


def yes_no_asked(question: str) -> bool:
    """Whether ``question`` asks for a yes or a no (docs/shifts-agent.md, rule 3)."""
    text = canonical(question)
    if re.search(r"\b\w+ or \w+\b", text) and not re.search(r"\byes or no\b|\bor not\b", text):
        return False  # a choice ("was it maintenance or operator downtime") is answered by its rows
    return bool(re.search(YES_NO, text) or re.search(r"\byes or no\b|\by/n\b|\bor not\b|^any\b.*\?", text))


_UP_OR_DOWN = (
    r"\b(up|down|higher|lower|more|fewer|less|worse|better|increased?|decreased?|rising|falling)\b"
    r".*\b(from|than|vs\.?|versus|compared|since)\b"
)


_PER_RATIO = r"\bper (paper change|setup|changeover|wet[- ]end run)s?\b"


def figures_not_led(
    question: str | None, plan: Plan, headline: str, lead_tool: str | None = None
) -> list[str]:
    """What the question (or the plan's ``ask=``) asked that ``headline`` does not state, each with why: an
    answer whose headline does not answer the question is never ``complete`` (docs/shifts-agent.md, rule 3).
    ``question`` is ``None`` for an answer opened from its address; ``lead_tool`` is the tool whose result
    the headline cites, when known."""
    missing = []
    if plan.ask in ("below_target", "at_target") and not re.match(r"(Yes|No):", headline):
        missing.append("the answer against target (this answer's headline is not its speed to target)")
    if plan.ask in ("over_band", "within_band") and not re.match(r"(Yes|No):", headline):
        missing.append("the answer against the band (this answer's headline is not the figure held to it)")
    # A share of the rejects is said as a part of the rejected area, never another percent (of gross).
    share = (
        r"\*\*[\d,.]+ ?%\*\* of the rejected area|\(0 %\)"
        if plan.measure == "waste"
        else r"\*\*[\d,.]+ ?%\*\*|\(0 %\)"
    )
    if plan.ask == "share" and not re.search(share, headline):
        missing.append("the share asked (no row of this answer holds the one asked for)")
    # A ratio "per paper change" or "per setup" asked (docs/METRICS.md, lineal per paper change): no
    # headline leads with it yet, so it is named as not applied, never left unsaid.
    per = re.search(_PER_RATIO, canonical(question)) if question else None
    if per is not None and f"per {per.group(1)}" not in headline:
        missing.append(f"the figure per {per.group(1)} asked (a ratio no headline leads with yet)")
    named = plan.reason or plan.place
    # A trend says its own direction, and a named reason or place leads with its own stops (its count
    # answers "were there any"): both answer the yes/no without the word.
    led = (named, f"{plan.reason} at {plan.place}") if named else ()
    # "Were knife jams up from last week?" asks a comparison: the reason's own stops do not answer it.
    compared = question is not None and re.search(_UP_OR_DOWN, canonical(question)) is not None
    answered = plan.measure == "trend" or (not compared and any(headline.startswith(lead) for lead in led))
    if question and yes_no_asked(question) and not answered and not re.match(r"(Yes|No)\b", headline):
        missing.append(YES_NO_UNLED)
    for key, name, said in asked_figures(question) if question else []:
        # A named reason or place leading the headline states its own stops ("Upper knife: 4.6 min over 1
        # stop"): that is the count asked of it.
        # A reason filtered on the rows by place leads as "Knife jam at Upper knife: …".
        own = (
            name == "the count asked"
            and named
            and (headline.startswith(f"{named}:") or headline.startswith(f"{plan.reason} at {plan.place}:"))
        )
        if not (re.search(said, headline) or (own and re.search(rf"\b[\d,]+ {_COUNTED}", headline))):
            missing.append(f"{name} (this answer's headline states its measure's own figure)")
        elif (
            key in ("msf", "sqft")
            and plan.measure == "volume"
            and plan.by
            and lead_tool in (None, "get_grade_totals")
            and not _asks_group(question or "")
        ):
            # "How many MSF did we run this week": the window's figure (its tiles), not its largest grade's.
            missing.append(f"{name} for the whole window (this answer's headline states one {plan.by}'s)")
    return missing


_GROUP_ASKED = (
    r"\b(which|what) (board )?(grades?|crews?|places?|widths?|reasons?|kinds?)\b"
    r"|\b(most|largest|biggest|top|highest|least|lowest|smallest)\b"
)


def _asks_group(question: str) -> bool:
    """Whether ``question`` asks about the groups of a breakdown (by one, or which one leads)."""
    text = canonical(question)
    return bool(re.search(_GROUP_ASKED, text)) or any(re.search(p, text) for _by, p in ASKED_GROUPINGS)
