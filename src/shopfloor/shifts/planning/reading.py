"""Reading a question into slots: shop words to the plant's vocabulary, the entities it names, and the one
"Read as" line that says how a plan reads (docs/shifts-agent.md, "Reading").

Pure text, no store. Three steps, in order:

1. ``canonical``: lower case, then a small explicit synonym table (shorthand such as "yday", "last wk",
   "this mo"; shop words such as "equipment" or "stopping"), then fuzzy matching of each remaining long word
   against the plant's own vocabulary with RapidFuzz, so "dowtime" and "rejcts" read as "downtime" and
   "rejects". A word is corrected only to a vocabulary word of the same measure family, never to a
   different measure: the vocabulary lists each measure's words once.
2. ``entities``: the grades, crews, reasons, places, kinds and widths the question names, each as the
   plant's catalogue spells it.
3. ``read_as``: the line every answer opens with, written from the plan alone, so the address (which
   encodes the plan) and the line can never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from rapidfuzz import fuzz, process

from shopfloor.shifts.planning.follow_ups import SPANISH_FOLLOW_UPS
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.plant.calendar import previous_window, window_for
from shopfloor.shifts.plant.catalog import CREWS, GRADE_TARGETS, STOP_PLACES, WEB_WIDTHS

# Spanish questions are read with the same slots: their words are said in the router's words first.
SPANISH_MONTHS = {
    "enero": "january", "febrero": "february", "marzo": "march", "abril": "april", "mayo": "in may",
    "junio": "june", "julio": "july", "agosto": "august", "septiembre": "september", "octubre": "october",
    "noviembre": "november", "diciembre": "december",
}  # fmt: skip
SPANISH_WEEKDAYS = {
    "lunes": "monday", "martes": "tuesday", "miercoles": "wednesday", "jueves": "thursday", "viernes": "friday",
}  # fmt: skip

SPANISH_HOURS = {
    "una": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6", "siete": "7", "ocho": "8",
    "nueve": "9", "diez": "10", "once": "11", "doce": "12",
}  # fmt: skip

# A time of day said in Spanish (docs/shifts-agent.md, "Known limits"): a clock range, a clock time, a meal, the
# small hours. Each is said in the router's words below, and named as not applied as the question says it
# (planning/accounting.not_held).
_HOUR = r"(\d{1,2}(?::\d{2})?|" + "|".join(SPANISH_HOURS) + r")"
_PART_OF_DAY = r"(?: de la (?:ma[ñn]ana|tarde|noche|madrugada))?"
SPANISH_CLOCK_RANGE = rf"\bentre (?:las? )?{_HOUR} y (?:las? )?{_HOUR}{_PART_OF_DAY}\b"
SPANISH_CLOCK = (
    r"\b(?:a|hacia|como a|cerca de|alrededor de|despu[eé]s de|antes de) (?:eso de )?las? "
    + _HOUR
    + r"(?: y (?:media|cuarto))?"
    + _PART_OF_DAY
    + r"\b"
)
SPANISH_MEAL = r"\b(despu[eé]s|antes) (del almuerzo|de la comida|de comer)\b"
SPANISH_SMALL_HOURS = r"\ben la madrugada\b|\bde madrugada\b"
SPANISH_TIMES = (SPANISH_CLOCK_RANGE, SPANISH_CLOCK, SPANISH_MEAL, SPANISH_SMALL_HOURS)

# The words a Spanish question opens with when it asks more than a yes or no, and the verbs of a target reached.
_ASKING = r"(?:qu[eé]|cu[aá]|c[oó]mo|d[oó]nde|qui[eé]n|por qu|para qu)"
_MET = r"(?:cumplimos|cumpli[oó]|cumplieron|alcanzamos|alcanz[oó]|alcanzaron|logramos|logr[oó]|lograron)"
_REACHED = (
    rf"(?:{_MET}|llegamos al?|lleg[oó] al?|llegaron al?)"  # "llegó a" reaches the target named after it
)

SPANISH: tuple[tuple[str, Any], ...] = (
    *SPANISH_FOLLOW_UPS,  # said first, before the filler words ("y", "con", "el") are dropped
    (r"\bx (equipo|lugar|m[aá]quina|raz[oó]n|causa|tipo|grado|turno)\b", r"por \1"),  # "paros x equipo"
    # A band's yes/no asked by its tone, no question word first ("¿el tiempo muerto … superó la banda?"):
    # said as the English question ("was … over the band"), answered Yes or No.
    (
        r"^\s*¿(?!\s*(qu[eé]|cu[aá]|c[oó]mo|d[oó]nde|qui[eé]n|por qu|para qu))(?=[^?]*\bbandas?\b)",
        "was ",
    ),
    # A target reached, said by its verb ("¿cumplimos la meta de velocidad en septiembre?", "¿el segundo turno
    # llegó al objetivo?"): the yes/no "did … hit target", answered Yes or No (docs/shifts-agent.md, rule 3).
    (
        rf"^(?![\s¿]*(?:was |{_ASKING}|(?:va|van|vamos) a\b))[\s¿]*"
        rf"(?=[^?]*\b{_REACHED}\b[^?]*\b(?:meta|objetivo)\b)",
        "did ",
    ),
    (rf"\b(?:llegamos|lleg[oó]|llegaron) al? (?:la )?(?=meta|objetivo)|\b{_MET}(?: con)?\b", "hit "),
    (r"[¿¡!]", " "),
    # A clock range ("entre las dos y las cuatro de la tarde"): a time of day, never a date range.
    (
        SPANISH_CLOCK_RANGE,
        lambda m: (
            "between "
            + SPANISH_HOURS.get(m.group(1), m.group(1))
            + " oclock and "
            + SPANISH_HOURS.get(m.group(2), m.group(2))
            + " oclock"
        ),
    ),
    # Last night, the last shift, a crew and maintenance's work orders said in Spanish.
    (r"\banoche\b", "last night"),
    # The day before yesterday ("anteayer", "antier"): two production days back (planning/dates.py).
    (r"\b(anteayer|antier|antes de ayer)\b", "the day before yesterday"),
    # The last or this 4-4-5 period ("el periodo pasado"), and N weeks back ("las últimas 12 semanas").
    (r"\b(el )?(per[ií]odo (pasado|anterior)|[uú]ltimo per[ií]odo)\b", "last period"),
    (r"\b(este|el actual) per[ií]odo\b|\bper[ií]odo actual\b", "this period"),
    (r"\b(las )?[uú]ltimas (\d{1,2}) semanas\b", r"the last \2 weeks"),
    (r"\btendencias?\b", "trend"),
    # Which crew had the most ("¿qué cuadrilla tuvo más rechazos?"): the crews compared on that loss.
    (r"\b(qu[eé]|q|cu[aá]l) cuadrilla\b", "which crew"),  # "q" is "qué" typed short
    (r"\b(qu[eé]|q|cu[aá]l) turno\b", "which shift"),  # "¿qué turno tuvo más paros?": the shifts compared
    (r"\bcuadrillas\b", "crews"),
    (r"\b(tuvo|tuvieron|hizo|hicieron|perdi[oó]|perdieron) (el |la |los |las )?m[aá]s\b", "had the most"),
    (r"\bc[oó]mo (?:le|les|nos|me) (?:fue|ha ido|fu[eé])\b", "how did it go"),
    (r"\balgo\b", "anything"),
    # What happened ("¿qué pasó anoche?") is the diagnosis; "pasó" alone is a limit passed (below).
    (r"\bqu[eé] (?:pas[oó]|ha pasado|sucedi[oó])\b", "what happened"),
    # A handover ("¿qué le digo al siguiente turno?"): what to tell the next shift, the selected shift's diagnosis.
    (
        r"\b(?:qu[eé] )?(?:le |les )?(?:digo|paso|aviso|cuento|dejo)(?: de)? (?:al?|para el) "
        r"(?:siguiente|pr[oó]ximo) turno\b",
        "what do i tell the next shift",
    ),
    # Compared with the shift before ("comparado con el turno anterior").
    (r"\bcomparad[oa]s? con\b|\ben comparaci[oó]n con\b", "compared to"),
    (r"\b(el |del |en el )?(?:[uú]ltimo turno|turno (?:anterior|pasado))\b", " last shift"),
    (r"\b(la )?cuadrilla ([abcd])\b", r"crew \2"),
    (r"\b[oó]rdenes de (trabajo|mantenimiento)\b|\b[oó]rdenes de servicio\b", "work orders"),
    (r"\b(raro|rara|extra[ñn][oa]|fuera de lo (normal|com[uú]n))\b", "weird"),
    # A clock time ("a las tres de la mañana", "a eso de las 2:30"): a time of day, never "tomorrow".
    (SPANISH_CLOCK, lambda m: "around " + SPANISH_HOURS.get(m.group(1), m.group(1)) + " oclock"),
    (SPANISH_MEAL, lambda m: {"d": "after", "a": "before"}[m.group(1)[0]] + " lunch"),
    (SPANISH_SMALL_HOURS, "in the early morning"),
    # Hours of downtime asked ("¿cuántas horas de paro?"): the figure in hours, never a count of stops.
    (r"\bhoras? (?:de )?(?:paro|paros|parada|paradas|tiempo muerto)\b", "hours of downtime"),
    (r"\bhoras\b", "hours"),
    # Getting worse or better ("¿van empeorando?"): the weekly trend, never a forecast.
    (r"\b(?:(?:va|van|est[aá]n?|sigue|siguen) )?empeorando\b", "getting worse"),
    (r"\b(?:(?:va|van|est[aá]n?|sigue|siguen) )?mejorando\b", "improving"),
    # The window so far ("con lo que va de la semana", "lo que llevamos del mes").
    (
        r"\b(?:con |en )?lo que (?:va|llevamos) (?:de la |del |de )(semana|mes)\b",
        lambda m: "so far this " + {"semana": "week", "mes": "month"}[m.group(1)],
    ),
    (r"\bparó\b|\bpararon\b|\bparamos\b|\bparaste\b", "stopped"),
    (r"\bparo\b", "stop"),
    # The year so far is no window of the Period control: said in English, it is named as not applied.
    (r"\ben lo que va del? a[ñn]o\b|\bel a[ñn]o hasta (hoy|la fecha)\b", "year to date"),
    (r"\beste a[ñn]o\b", "this year"),
    (r"\bel a[ñn]o pasado\b", "last year"),
    # What we made: a profit, which the records cannot give ("¿cuánto ganamos?", "las utilidades").
    (r"\b(ganancias?|utilidad(es)?)\b", "profit"),
    (r"\bingresos\b", "revenue"),
    (r"\b(ganamos|ganaron|gan[oó])\b", "earned"),
    # A Spanish yes/no is asked by its tone, not its word order ("el segundo turno estuvo abajo de la
    # meta"): said as the English question ("was second shift below target"), which is answered Yes or No.
    (
        r"^(.*?)\b(?:estuvo|est[aá]|estaba|fue|qued[oó]|anduvo|andaba|estuvieron|fueron|quedaron)"
        r" (?:por )?(abajo|debajo|arriba|encima) (?:de (?:la |el )?|del )(meta|objetivo)\b",
        lambda m: (
            "was " + m.group(1) + (" below" if m.group(2) in ("abajo", "debajo") else " above") + " target"
        ),
    ),
    (r"\b(?:por )?(abajo|debajo) (de (la |el )?|del )(meta|objetivo)\b", "below target"),
    (r"\b(?:por )?(arriba|encima) (de (la |el )?|del )(meta|objetivo)\b", "above target"),
    # Limits and units said in Spanish: a band passed, a web width in inches, a weight.
    (r"\bbandas?\b", "band"),
    (
        r"\b(pasaron|pas[oó]|superaron|super[oó]|rebasaron|rebas[oó]|excedieron|excedi[oó]) (de )?",
        "went over ",
    ),
    (r"\b(?:por )?(arriba|encima) (de (la |el )?|del )", "over the "),
    (r"\bdentro (de (la |el )?|del )", "within the "),
    (r"\b(\d{2,3}) ?(pulgadas|pulgada|pulg\.?)(?!\w)", r"\1 inch"),
    (r"\b(el |la )?ancho (de )?(\d{2,3})( inch)?\b", r"\3 inch web"),
    (r"\bancho\b", "width"),
    (r"\btoneladas?\b", "tons"),
    (r"\bpeso\b", "weight"),
    # Money and the splices said in Spanish ("¿cuánto dinero perdimos por empalmes fallidos?").
    (r"\bcu[aá]nto dinero\b", "how much money"),
    (r"\bdinero\b|\bplata\b|\bd[oó]lares\b", "money"),
    (r"\bempalmes? (fallid[oa]s?|perdid[oa]s?|fallad[oa]s?|mal hech[oa]s?)\b", "missed splices"),
    (r"\bempalmadoras\b", "splicers"),
    (r"\bempalmadora\b", "splicer"),
    (r"\bempalmes?\b", "splices"),
    (r"\bpor que\b", "why"),
    (r"\b2do\b", "segundo"),
    (r"\b1ro\b|\b1er\b", "primer"),
    (r"\b3ro\b|\b3er\b", "tercer"),
    (r"\bveces\b", "times"),
    (r"\bpies lineales\b", "lineal feet"),
    # Volume said in Spanish: "mil pies cuadrados" is MSF, "pies cuadrados" square feet, and "cartón bueno" the
    # good board (docs/shifts-agent.md, "Dates as people say them": Spanish is said in the router's words first).
    (r"\bmil(?:es de)? pies cuadrados\b", "msf"),
    (r"\bpies cuadrados\b|\bpies2\b", "square feet"),
    (r"\b(?:el |la )?cart[oó]n (?:buen[oa]|bueno)\b|\bbuen cart[oó]n\b", "good board"),
    (r"\bcart[oó]n\b", "board"),
    (r"\bcorri[oó]\b|\bcorrieron\b", "ran"),
    (r"\bcuchilla de arriba\b|\bcuchilla superior\b", "upper knife"),
    (r"\bcuchilla de abajo\b|\bcuchilla inferior\b", "lower knife"),
    (r"\b(abajo|debajo|por debajo) del objetivo\b", "below target"),
    (r"\bobjetivo\b|\bmeta\b", "target"),
    # Months and weekdays by their Spanish names; "el martes pasado" is last Tuesday (planning/dates.py).
    (
        r"\b(enero|febrero|marzo|abril|mayo|junio|julio|agosto|se(?:p)?tiembre|octubre|noviembre|diciembre)\b",
        lambda m: SPANISH_MONTHS[m.group(1).replace("setiembre", "septiembre")],
    ),
    (
        r"\b(el )?(lunes|martes|mi[eé]rcoles|jueves|viernes) (pasado|anterior)\b",
        lambda m: "last " + SPANISH_WEEKDAYS[m.group(2).replace("é", "e")],
    ),
    (
        r"\b(el )?(lunes|martes|mi[eé]rcoles|jueves|viernes)\b",
        lambda m: "on " + SPANISH_WEEKDAYS[m.group(2).replace("é", "e")],
    ),
    # What something will be is a forecast ("¿cuál va a ser la velocidad…?", "¿cómo vamos a cerrar el mes?").
    (r"\b(va|van|vamos) a (terminar|cerrar|quedar)\b", "will end up"),
    (r"\b(va|van|vamos) a (ser|estar|tener|dar)\b|\bser[aá]n?\b", "will be"),
    (r"\b(va|van|vamos) a (llegar|alcanzar|cumplir|pegar|hacer|correr)\b", "will hit"),
    (r"\b(nos|les?|me) ir[aá]n?\b|\bir[aá]n?\b|\biremos\b", "will go"),
    # How a group is going said with a verb of going ("¿qué turno anda peor?", "¿cuál salió mejor?"): a ranking.
    (
        r"\b(?:anda|andan|anduvo|andaba|sali[oó]|salieron|va|van|iba|est[aá]|est[aá]n) (peor|mejor)(?:es)?\b",
        lambda m: "was " + ("worst" if m.group(1) == "peor" else "best"),
    ),
    (r"\bpeor(es)?\b", "worst"),
    (r"\bmejor(es)?\b", "best"),
    (r"\bmantenimiento\b", "maintenance"),
    (r"\bde(l)? operador\b", " operator"),  # "la banda de operador": the operator band (a kind of stop)
    (r"\bporcentaje\b", "percent"),
    (r"\bpor qu[ée]\b", "why"),
    (r"\b(fue|estuvo|est[aá]|estaba|iba) (tan )?lent[oa]\b|\blent[oa]\b", "was slow"),
    (r"\b(el |del |en el )?primer(o)? turno\b", " first shift"),
    (r"\b(el |del |en el )?segundo turno\b", " second shift"),
    (r"\b(el |del |en el )?tercer(o)? turno\b", " third shift"),
    (r"\bcompara(r)? (el )?turno ([123]) con (el )?turno ([123])\b", r"compare shift \3 with shift \5"),
    (r"\b(el |del |en el )?turno ([123])\b", r" shift \2"),
    (r"\b(el |del |en el )?turno de (la )?noche\b|\b(el |del |en el )?turno nocturno\b", " night shift"),
    (r"\b(el |del |en el )?turno de (la )?tarde\b", " swing shift"),
    (r"\b(el |del |en el )?turno de (la )?ma[ñn]ana\b|\b(el |del |en el )?turno de d[ií]a\b", " day shift"),
    # A bare "el turno" is the selected shift ("¿cuánto nos costó el turno?").
    (r"\b(el|este|del|en el) turno\b(?! (de|[123]|uno|dos|tres|nocturno)\b)", "this shift"),
    (r"\bcompara(r)?\b", "compare"),
    (r"\bturno (uno|dos|tres)\b", lambda m: "shift " + {"uno": "1", "dos": "2", "tres": "3"}[m.group(1)]),
    (
        r"\ben el (primero|segundo|tercero?)\b(?! \w)",
        lambda m: {"p": " first", "s": " second", "t": " third"}[m.group(1)[0]] + " shift",
    ),
    # "compara el tercer turno con el primero": an ordinal alone after a shift named before it is a shift.
    (
        r"(\bshift\b.*?)\b(con|y|vs\.?|contra|versus) el (primero|segundo|tercero?)\b",
        lambda m: (
            m.group(1) + "with the " + {"p": "first", "s": "second", "t": "third"}[m.group(3)[0]] + " shift"
        ),
    ),
    (r"\bcambios? de papel\b", "paper changes"),
    (r"\bpapel\b", "paper"),
    (r"\borilla\b", "trim"),
    (r"\bcu[aá]nto tiempo (perdimos|perdieron|perdi[oó]|se perdi[oó])\b", "how much time did we lose"),
    (r"\b(perdimos|perdieron|perdi[oó]|se perdi[oó])\b", "lost"),
    (r"\bhumedad\b", "humidity"),
    (r"\btemperaturas?\b", "temperature"),
    (r"\bpresi[oó]n\b", "pressure"),
    (r"\bvapor\b", "steam"),
    (r"\balt[oa]s?\b", "high"),
    # "¿cuántos paros?" counts, but "¿cuánto tiempo muerto?" asks an amount: the singular is "how much".
    (r"\bcu[aá]nt[oa]s\b", "how many"),
    (r"\bcu[aá]nt[oa]\b", "how much"),
    (r"\b(tuvimos|tuvo|hubo|hicimos|hizo|tenemos)\b", " "),
    (r"\btiempo muerto\b|\bparos\b|\bparadas\b", "downtime"),
    (r"\bpor equipo\b|\bpor m[aá]quina\b|\bpor lugar\b", "by place"),
    (r"\bpor (raz[oó]n|causa|motivo)\b", "by reason"),
    (r"\bpor grado\b", "by grade"),
    (r"\bpor turno\b", "by shift"),
    (r"\bturnos\b", "shifts"),
    (r"\bturno\b", "shift"),
    (r"\b(la )?semana antepasada\b|\b(la )?semana antes de la pasada\b", "the week before last"),
    (r"\bhace (dos|2) semanas\b", "two weeks ago"),
    (r"\b(la )?semana pasada\b", "last week"),
    (r"\besta semana\b", "this week"),
    (r"\bel mes pasado\b|\bmes pasado\b", "last month"),
    (r"\beste mes\b", "this month"),
    (r"\bmes\b", "month"),
    (r"\bcu[aá]l(es)?\b", "which"),
    (r"\bc[oó]mo\b", "how"),
    (r"\b(la )?pr[oó]xima semana\b", "next week"),
    (r"\bayer\b", "yesterday"),
    (r"\bma[ñn]ana\b", "tomorrow"),  # after "turno de la mañana", the morning shift, above
    (r"\bhoy\b", "today"),
    (r"\bvelocidad\b", "speed"),
    (r"\brechazos?\b", "rejects"),
    (r"\bdesperdicio\b|\bmerma\b", "waste"),
    (r"\brecorte\b|\brefile\b", "trim"),
    (r"\b(se )?atasc[oó] la cuchilla\b|\batascos? de (la )?cuchilla\b", "knife jams"),
    (r"\batascos?\b", "jams"),
    (r"\b(se )?atasc[oó]\b", "jammed"),
    (r"\bcu[aá]ntas veces\b", "how many times"),
    (r"\bcu[aá]nto (nos )?(cost[oó]|costaron)\b|\bcost[oó]\b|\bcostaron\b|\bcosto\b|\bcoste\b", "cost"),
    (r"\bproyecci[oó]n\b|\bpron[oó]stico\b", "forecast"),
    (r"\bmuestra(me)?\b|\bdame\b", "show"),
    (r"\b(está|estuvo|fue|qued[oó])\b", "was"),
    (r"\b(fueron|estuvieron|quedaron)\b", "were"),
    # Spanish function words carry no slot; said in English they are filler.
    (r"\b(de|del|la|las|los|el|en|para|que|qu[eé]|se|un|una|y|o|nos|con|al|por)\b", " "),
)

# Shorthand and shop words -> the words the router reads. Whole words only, applied in order.
SYNONYMS: tuple[tuple[str, str], ...] = (
    (r"\byday\b|\byest\b|\byesterdays\b", "yesterday"),
    (r"\blast wk\b|\bprev wk\b", "last week"),
    (r"\bthis wk\b", "this week"),
    (r"\bthis mo\b|\bthis mth\b", "this month"),
    (r"\blast mo\b|\blast mth\b", "last month"),
    (r"\bwk\b", "week"),
    # One crew held to another ("was crew C worse than crew A"): the crews compared (docs/shifts-agent.md,
    # "Comparisons over a window").
    (r"\b(worse|better|slower|faster) than (?=crew [a-d]\b)", r"\1 vs "),
    (r"\bwks\b", "weeks"),
    (r"\bgraveyard( shift)?\b|\bnights\b", "night shift"),
    (r"\bswings\b", "swing shift"),
    (r"\b(graphs?|plots?|visuals?|a picture|pictures|diagram)\b", "chart"),
    (r"\b(equipment|machines?|machinery|locations?|stations?)\b", "place"),
    (r"\bstopping causes\b|\bstop causes\b|\bcauses of (the )?stops\b", "stops by reason"),
    (r"\bstopping\b|\bstoppages?\b", "stops"),
    (r"\bdelam\b", "delamination"),
    # Changing the paper is a paper change (a wet-end run, docs/METRICS.md).
    (r"\b(change|changed|changing|swap|swapped|switch|switched) (the )?(paper|rolls?)\b", "paper changes"),
    (r"\bline speed\b|\bmachine speed\b", "speed"),
    (r"\bft per min\b|\bfeet/min\b|\bfeet a minute\b", "fpm"),
    (r"\bpercent of target\b|\b% of target\b|\bvs target\b|\bto target\b", "speed to target"),
    (r"\bscrap\b", "waste"),
    # Board thrown out ("which crews threw out the most board") is the waste, never a word not understood.
    (r"\b(threw|throw|throws|throwing|thrown|tossed|tossing|toss) (out|away)\b", "waste"),
    (r"\bcrew ([abcd])'s\b", r"crew \1"),
    (r"\bspead\b|\bsped\b", "speed"),
    (r"\b(this|last) months\b", r"\1 month"),
    (r"\bdt\b", "downtime"),
    (r"\brsns?\b", "reason"),
    (r"\bu\b", "you"),
    (r"\bmaint\b", "maintenance"),
    (r"\bw/", "with"),
    (r"\btmrw\b|\btmw\b", "tomorrow"),
    # Texting shorthand a supervisor types on a phone: "r we at target", "shft", "shfts".
    (r"^r (we|u|they|the)\b", r"are \1"),
    (r"\bshfts\b|\bshfits\b", "shifts"),
    (r"\bshft\b|\bshfit\b", "shift"),
    # A limit word typed without its vowels ("ovr the band", "undr target").
    (r"\bovr\b", "over"),
    (r"\bundr\b", "under"),
    (r"\babv\b", "above"),
    (r"\bblw\b", "below"),
)

# The plant's vocabulary for fuzzy correction: each word once, grouped by the measure it belongs to.
VOCABULARY: dict[str, tuple[str, ...]] = {
    "speed": ("speed", "slow", "slower", "slowest", "faster", "fastest", "target"),
    "volume": ("throughput", "output", "volume", "produced", "footage", "lineal"),
    "downtime": ("downtime", "maintenance", "operator", "outage", "planned", "stops", "jams"),
    "quality": ("quality", "rejects", "rejected", "warp", "bond", "delamination", "misalignment", "moisture"),
    "waste": ("waste", "trim", "shear", "yield"),
    "setups": ("setups", "changeovers", "matrix"),
    "orders": ("orders", "quantities"),
    "notes": ("notes",),
    "rankings": ("rankings", "ranking", "ranked"),
    "money": ("dollars", "money", "profit", "costs"),
    "overview": ("overview", "summary", "summarize", "summarise", "performance", "diagnosis"),
    "trend": ("trend", "trending", "weekly"),
    "compare": ("compare", "compared", "comparison", "versus", "better", "worse", "best", "worst"),
    "chart": ("chart", "charts"),
    "scope": ("shift", "shifts", "yesterday", "week", "month", "period", "today", "second", "third", "first"),
    "grouping": ("reason", "place", "grade", "width", "crew", "kind", "splicer", "knife", "upper", "lower"),
    # Entity words, listed so that fuzzy correction never turns one into a neighbour ("splice" -> "splicer").
    "entities": (
        "splice", "splices", "missed", "paper", "break", "breaks", "glue", "skip", "flute", "transition",
        "double", "backer", "belt", "slitter", "scorer", "external", "power", "grades", "widths", "crews",
        "places", "reasons", "kinds", "equipment", "scheduled", "inches",
    ),
    "window": (
        "january", "february", "march", "april", "june", "july", "august", "september", "october",
        "november", "december",
    ),
}  # fmt: skip
_WORDS = tuple(sorted({w for words in VOCABULARY.values() for w in words}))
_COMMON_TEXT = (
    "about above after again against all also and any are because been before being below between both "
    "but can cause caused could did does doing down during each every from had has have how into its "
    "just last more most much next now only other our out over please same should show since some still "
    "than that the their them then there these they this those through too under until very was were "
    "what when where which while who why will with would your tell give lost lose made make many run "
    "ran running runs happened going went look looks looking getting"
)
COMMON = frozenset(_COMMON_TEXT.split())
# A question is read as Spanish when it holds a word only Spanish questions use.
SPANISH_CUE = (
    r"[¿¡ñ]|\b(turno|humedad|paros|por qu[eé]|velocidad|rechazos|atascos?|cuchilla|ayer|semana|mes|cu[aá]nt[oa]s?"
    r"|costaron|cost[oó]|tiempo muerto|compara|proyecci[oó]n|pr[oó]xima|equipo|raz[oó]n|grado|cambios|orilla"
    r"|desperdicio|hoy|objetivo|lineales|cuadrados|cart[oó]n|turno|porcentaje|pasado|va a ser|ser[aá]|ma[ñn]ana|ir[aá]|iremos"
    r"|a las|madrugada|almuerzo|anoche|cuadrilla|[oó]rdenes|a[ñn]o|ganamos|ganancias?|utilidad(es)?|ingresos"
    r"|meta|dinero|empalmes?|empalmadoras?|ancho|pulgadas|banda|toneladas|turnos|perdimos|horas|empeorando|mejorando"
    r"|enero|febrero|marzo|abril|junio|julio|agosto|se(p)?tiembre|octubre|noviembre|diciembre"
    r"|lunes|martes|mi[eé]rcoles|jueves|viernes|anteayer|antier|paramos|per[ií]odo|tendencias?|semanas|[uú]ltim[oa]s)\b"
)
FUZZY_CUTOFF = 85  # RapidFuzz ratio (0-100); below it a word is left as written


def canonical(question: str) -> str:
    """The question in the router's words: lower case, synonyms applied, misspellings corrected."""
    text = question.replace("’", "'").replace("“", '"').replace("”", '"').lower()
    if re.search(SPANISH_CUE, text):
        for pattern, replacement in SPANISH:
            text = re.sub(pattern, replacement, text)
    text = re.sub(r"\s+", " ", text).strip()
    for pattern, replacement in SYNONYMS:
        text = re.sub(pattern, replacement, text)
    text = re.sub(r"\b[a-z]{4}\b", _truncated, text)
    return re.sub(r"[a-z]{5,}", _corrected, text)


# Four-letter words that are words of their own, never a plant word cut short ("kind" is not "kinds").
_WHOLE_WORDS = frozenset(
    [
        "kind",
        "cost",
        "note",
        "stop",
        "crew",
        "last",
        "what",
        "when",
        "with",
        "time",
        "week",
        "fast",
        "made",
        "make",
        "good",
    ]
)


def _truncated(match: re.Match[str]) -> str:
    """A plant word typed without its last letter ("wast", "spee"): too short for the fuzzy ratio, so it is
    corrected only to the one five-letter vocabulary word it begins."""
    word = match.group(0)
    if word in COMMON or word in _WORDS or word in _WHOLE_WORDS:
        return word
    found = [w for w in _WORDS if len(w) == 5 and w.startswith(word)]
    return found[0] if len(found) == 1 else word


def _corrected(match: re.Match[str]) -> str:
    word = match.group(0)
    if word in COMMON or word in _WORDS or word.removesuffix("s") in _WORDS:
        return word
    found = process.extractOne(word, _WORDS, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
    return str(found[0]) if found else word


# --- entities -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entities:
    """The plant entities a question names, spelt as the catalogue spells them."""

    grades: tuple[str, ...] = ()
    crews: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    widths: tuple[int, ...] = ()
    rejects: tuple[str, ...] = ()


_GRADE = re.compile(r"\b(26|32|55|200|275)[- ]?(c|bc|eb)\b")
_REASON_WORDS = {
    "Knife jam": r"\bknife jams?\b|\bjams?\b|\bjammed\b",
    "Equipment stop": r"\bequipment stops?\b|\bplace stops?\b",
    # The splice a splicer missed, however it is said: "missed a splice", "splicer 3 misses".
    "Missed splice": r"\bmissed splices?\b|\bmiss(ed|es|ing)? (a |the )?splices?\b|\bsplices? (missed|misses)\b"
    r"|\bsplicer( \d)? miss(es|ed)?\b",
    "Paper break": r"\bpaper breaks?\b|\bweb breaks?\b",
    "Glue skip": r"\bglue skips?\b",
    "Flute transition": r"\bflute transitions?\b",
    "Scheduled maintenance": r"\bscheduled maintenance\b",
    "Power outage": r"\bpower outages?\b|\bpower cuts?\b|\boutages?\b",
}
# The dry-end rejects, a reported reason before its family: "up warp" names Up warp, never warp as well.
_REJECT_REASON_WORDS = {
    "Up warp": r"\bup[- ]?warp(ed)?\b",
    "Down warp": r"\bdown[- ]?warp(ed)?\b",
    "Bond - delamination": r"\b(bond[- ]{1,3})?delaminat(ion|ed|ing)\b",  # "bond delamination" too
    "Bond - paper/raw-material issue": r"\braw[- ]?materials?\b|\bpaper (issues?|problems?)\b",
}
_REJECT_FAMILY_WORDS = {
    "warp": r"\bwarp(ed|ing|s)?\b",
    "bond": r"\bbond(ing|s)?\b",
    "misalignment": r"\bmisalign(ment|ments|ed)?\b",
    "moisture": r"\bmoisture\b",
    "bale": r"\bbales?\b",
}
_KIND_WORDS = {
    "Maintenance": r"\bmaintenance\b",
    "Operator": r"\boperators?\b",
    "PM": r"\bplanned maintenance\b|\bpm\b",
    "External": r"\bexternal\b",
}


def entities(text: str) -> Entities:
    """The entities named in ``text`` (already :func:`canonical`)."""
    grades = []
    for m in _GRADE.finditer(text):
        code = f"{m.group(1)}-{m.group(2).upper()}"
        if code in GRADE_TARGETS and code not in grades:
            grades.append(code)
    crews = [c for c in CREWS if re.search(rf"\bcrew {c.lower()}\b", text)]
    reasons = [r for r, pattern in _REASON_WORDS.items() if re.search(pattern, text)]
    if "Scheduled maintenance" in reasons:
        reasons = [r for r in reasons if r != "Scheduled maintenance"]  # a kind (PM), read below
    places = [p for p in STOP_PLACES if _place_named(p, text)]
    # "The splicer" without its number is every splicer (PLACE_FAMILIES); a number that is a shift's ordinal
    # ("the splicers 1st shift") is no splicer's number.
    if not any(p.startswith("Splicer ") for p in places) and re.search(r"\bsplicers?\b(?! ?\d+(?!\w))", text):
        places.append("Splicers")
    kinds = [k for k, pattern in _KIND_WORDS.items() if re.search(pattern, text)]
    if "PM" in kinds and "Maintenance" in kinds and not re.search(r"(?<!planned )maintenance", text):
        kinds.remove("Maintenance")
    widths = [int(w) for w in WEB_WIDTHS if re.search(rf"\b{int(w)}(?:[- ]?(?:inch|inches|in)\b|\"|”)", text)]
    # Widths listed before one shared unit ("the 95 and 87 inch webs"): each listed number is a width named.
    listed = r"\b((?:\d{2}\s*(?:,|and|or|&|y|o)?\s*)+)\d{2}[- ]?(?:inch|inches|in\b|\"|”)"
    for m in re.finditer(listed, text):
        for number in re.findall(r"\d{2}", m.group(1)):
            if float(number) in WEB_WIDTHS and int(number) not in widths:
                widths.append(int(number))
    # In the order said, so the first width named is the one applied ("the 95 and 87 inch webs": 95).
    widths.sort(key=lambda w: m.start() if (m := re.search(rf"\b{w}\b", text)) else len(text))
    return Entities(
        tuple(grades), tuple(crews), tuple(reasons), tuple(places), tuple(kinds), tuple(widths), rejects(text)
    )


def rejects(text: str) -> tuple[str, ...]:
    """The dry-end rejects ``text`` names, in the order it says them: a reported reason ("up warp",
    "delam") as its own, and a family ("warp", "bond") where no reason of it is said in those words."""
    found: list[tuple[int, str]] = []
    rest = text
    for name, pattern in _REJECT_REASON_WORDS.items():
        for m in re.finditer(pattern, rest):
            found.append((m.start(), name))
            rest = rest[: m.start()] + " " * (m.end() - m.start()) + rest[m.end() :]
    for name, pattern in _REJECT_FAMILY_WORDS.items():
        family = re.search(pattern, rest)
        if family is not None:
            found.append((family.start(), name))
    return tuple(dict.fromkeys(name for _at, name in sorted(found)))


def _place_named(place: str, text: str) -> bool:
    word = place.lower().replace("/", "[/ ]")
    if place == "Plant":
        return False  # "the plant" is how people name the whole site, never the stop place
    if place == "Wet end":
        # "wet-end speed" is a measure; the wet end is a place only beside downtime words, a stop reason or
        # a kind of stop ("missed splices … the wet end", "maintenance on the wet end").
        stop_words = [r"\bdowntime|stops?\b", *_REASON_WORDS.values(), *_KIND_WORDS.values()]
        return re.search(r"\bwet[- ]end\b", text) is not None and any(re.search(w, text) for w in stop_words)
    if place == "Shear knife":
        return re.search(r"\bshear knife\b", text) is not None
    # Named in the singular or the plural ("glue dam", "the glue dams").
    return re.search(rf"\b{word.removesuffix('s')}s?\b", text) is not None


# --- the Read-as line --------------------------------------------------------------------------------------

MEASURE_WORDS = {
    "overview": "diagnosis",
    "kpis": "KPIs",
    "downtime": "downtime",
    "quality": "dry-end rejects",
    "fpm": "speed to target",
    "volume": "volume",
    "setups": "setup matrix",
    "orders": "order matrix",
    "notes": "shift and stop notes",
    "rankings": "rankings",
    "dollars": "where the money went",
    "compare_shifts": "shift comparison",
    "compare": "window comparison",
    "pareto": "downtime pareto",
    "waste": "waste breakdown",
    "stops": "stops profile",
    "trend": "weekly trend",
    "overrun": "knife overrun",
    "rollstock": "rollstock consumed",
    "review": "downtime review against the bands",
    "speed_opportunity": "speed opportunity",
    "variance": "where the speed went",
    "opportunities": "levers in $ a year",
    "compare_groups": "shifts compared on speed to target",
    "named_cost": "cost at the assumed rates",
}
RANK_WORDS = {"speed": "speed", "downtime": "downtime", "quality": "quality", "lineal_ft": "lineal feet"}
TREND_WORDS = {
    "speed": "speed",
    "speed_to_target": "speed to target",
    "lineal_ft": "lineal feet",
    "downtime_pct": "downtime",
    "maintenance_pct": "maintenance downtime",
    "operator_pct": "operator downtime",
    "trim_pct": "trim",
    "dry_end_pct": "dry-end waste",
}


def read_as(
    measure: str,
    *,
    day: date,
    shift: int | None,
    window: str,
    anchor: date | None,
    by: str | None = None,
    kind: str | None = None,
    metric: str | None = None,
    other_shift: int | None = None,
    other_anchor: date | None = None,
    grade: str | None = None,
    crew: str | None = None,
    reason: str | None = None,
    place: str | None = None,
    width: int | None = None,
    reject: str | None = None,
    chart: bool = False,
    follow_up: bool = False,
    ask: str | None = None,
    before: bool = False,
) -> str:
    """The "Read as" line of a plan: the measure, its breakdown and filters, the shifts and the window (with
    ``before``, against the window before, as a window comparison's)."""
    what = MEASURE_WORDS[measure]
    if measure == "overview":
        what = "shift diagnosis" if shift is not None and window == "day" else "diagnosis"
    if measure == "rankings":
        what = f"rankings of {RANK_WORDS[metric]}" if metric else "rankings of speed, downtime and quality"
        what += f" (the {ask} first)" if ask in ("most", "least") else ""
    if measure == "trend":
        what = f"weekly trend of {TREND_WORDS.get(metric or 'speed', metric or 'speed')}"
    if measure == "volume" and by != "grade":
        what = "volume (lineal feet)"
    if measure == "compare_groups":
        on = {"downtime": "unplanned downtime", "quality": "dry-end waste", "lineal_ft": "lineal feet"}.get(
            metric or "", "speed to target"
        )
        ends = f"the {ask} first" if ask in ("most", "least") else "best and worst"
        what = f"{'crews' if by == 'crew' else 'shifts'} compared on {on} ({ends})"
        by = None
    if measure == "named_cost":
        by = None
    if measure == "kpis" and metric in TREND_WORDS:
        # One tile asked ("dry end % on 3rd"), held to its owner band where it has one.
        what = f"{TREND_WORDS[metric]} (KPI tile)"
        if ask in ("over_band", "within_band"):
            side = "over" if ask == "over_band" else "within"
            what = f"{TREND_WORDS[metric]}: {side} its owner band, yes or no"
    if measure == "waste" and (ask == "share" or reject):
        # The rejects read on the waste breakdown: a share of them, or one named.
        what = "share of the dry-end rejects" if ask == "share" else "dry-end rejects (waste breakdown)"
    parts = [what + (f" by {by}" if by else "")]
    if kind:
        # A kind read in the rows by kind is its own row there, not a filter of the rows.
        parts.append(
            f"share of {kind}" if ask == "share" else f"{kind}'s row" if by == "kind" else f"{kind} only"
        )
    elif ask == "share" and measure != "waste":
        parts.append("as a share of the downtime")
    for label, value in (
        ("grade", grade),
        ("crew", crew),
        ("reason", reason),
        ("place", place),
        ("reject", reject),
    ):
        if value:
            parts.append(f"{label} {value}")
    if width:
        parts.append(f"{width} in web")
    parts.append(_shifts_words(measure, shift, other_shift))
    parts.append(_window_words(window, anchor or day, other_anchor, before=before or measure == "compare"))
    line = "Read as: " + ", ".join(parts)
    if chart:
        line += "; with a chart"
    if follow_up:
        line += " (follow-up)"
    return line


def _shifts_words(measure: str, shift: int | None, other: int | None) -> str:
    if measure == "compare_shifts":
        if shift is None:
            return "shifts 1, 2 and 3"
        return f"shift {shift} against shift {other}"
    return f"shift {shift}" if shift is not None else "every shift"


def _window_words(window: str, anchor: date, other_anchor: date | None, before: bool = False) -> str:
    w = window_for(window, anchor)  # type: ignore[arg-type]
    if window == "day":
        return f"production day {w.start:%a %Y-%m-%d}"
    text = {
        "week": f"week of {w.start.isoformat()} (Mon–Fri)",
        "month": f"{w.start:%B %Y}",
        # The 4-4-5 period ("this quarter") says the span it covers: its dates and its 4 or 5 weeks.
        "fiscal": f"{w.label.split(' (')[0]}, {w.start:%a %Y-%m-%d} to {w.end:%a %Y-%m-%d} "
        f"({(w.end - w.start).days // 7 + 1} weeks)",
    }[window]
    if other_anchor is not None:
        o = window_for(window, other_anchor)  # type: ignore[arg-type]
        text += " against " + (f"week of {o.start.isoformat()}" if window == "week" else o.label)
    elif before:
        # A window against the one before ("this week vs last week"): both windows said by their dates.
        o = previous_window(w)
        text += " against the window before, " + (
            f"week of {o.start.isoformat()}" if window == "week" else o.label
        )
    return text


def plan_read_as(plan: Plan, before: bool = False) -> str:
    """The "Read as" line of ``plan`` (written from the plan alone, as its address is; with ``before``, its
    window against the window before)."""
    return read_as(
        plan.measure,
        day=plan.day,
        shift=plan.shift,
        window=plan.window,
        anchor=plan.anchor,
        by=plan.by,
        kind=plan.kind,
        metric=plan.metric,
        other_shift=plan.other_shift,
        other_anchor=plan.other_anchor,
        grade=plan.grade,
        crew=plan.crew,
        reason=plan.reason,
        place=plan.place,
        width=plan.width,
        reject=plan.reject,
        chart=plan.chart,
        follow_up=plan.after is not None,
        ask=plan.ask,
        before=before,
    )


# --- the closest supported questions ------------------------------------------------------------------------

# Questions the offline router answers in any day scope; an unsupported question gets the three nearest.
SUPPORTED = (
    "Why was this shift slow?",
    "Show the KPIs",
    "Show the downtime by reason",
    "Show the downtime by place",
    "Was it maintenance or operator downtime?",
    "Show speed to target",
    "fpm by grade",
    "How much did we make?",
    "Show dry-end quality waste",
    "Show the setup matrix",
    "Show orders and quantities",
    "Show rankings",
    "What did the notes say?",
    "Where did the money go this shift?",
    "Compare all shifts",
    "Downtime pareto this month",
    "Waste breakdown this week",
    "Speed trend over the last 8 weeks",
    "Is knife jam downtime getting worse?",
    "Where are the biggest levers this month?",
    "Show the downtime review this month",
    "Speed by crew this month",
)


def closest(question: str, limit: int = 3) -> list[str]:
    """The supported questions nearest to ``question``, most similar first (RapidFuzz token set ratio)."""
    found = process.extract(
        canonical(question), [canonical(s) for s in SUPPORTED], scorer=fuzz.token_set_ratio, limit=limit
    )
    return [SUPPORTED[index] for _text, _score, index in found]
