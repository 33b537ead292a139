"""The word tables of the offline note reader (folded: lower case, no accents), Spanish and English.

Data only: stage words, delivery and finishing verbs, grade words, hat and row nouns, numbers, and the phrases
that mark instructions, the future, denials, noise and flags. ``reader`` compiles the patterns and applies the
tables; the stage and grade names themselves are the domain's (docs/workshop-agent.md, "One vocabulary").
"""

from __future__ import annotations

from shopfloor.workshop.domain import Grade, Stage

# Stage words (folded). Participles and nouns describe where a hat is or goes.
STAGE_WORDS: dict[str, Stage] = {}
_STAGE_WORDS: dict[Stage, str] = {
    "Weaving": "tejiendo tejido tejida tejer tejeduria weaving woven",
    "Washing": "lavado lavada lavados lavadas lavar lavando lavo lavaron lavamos lave washing washed wash",
    "Bleaching": (
        "blanqueo blanquear blanqueado blanqueada blanqueados blanqueando blanqueamos blanquearon azufrado "
        "azufrada azufrar azufrando azufre azufraron azufre bleaching bleached bleach sulphuring sulfuring"
    ),
    "Blocking": (
        "hormado hormada hormados hormar hormando hormamos hormaron horma planchado planchada planchar "
        "planchando planchamos plancharon blocking blocked pressing pressed ironed"
    ),
    "Finished": "terminado terminada terminados acabado acabada listo lista listos finished done ready complete",
}
for _stage, _words in _STAGE_WORDS.items():
    for _w in _words.split():
        STAGE_WORDS[_w] = _stage

# Verbs that finish a hat when the subject is a hat (in a weaver sentence they mean new hats arrived).
FINISH_VERBS = {
    "termino",
    "terminaron",
    "terminamos",
    "acabo",
    "acabaron",
    "acabamos",
    "finished",
    "completed",
}

CREATE_VERBS = {
    "termino",
    "terminaron",
    "entrego",
    "entregaron",
    "trajo",
    "trajeron",
    "dejo",
    "dejaron",
    "tejio",
    "tejieron",
    "hizo",
    "hicieron",
    "acabo",
    "acabaron",
    "entregado",
    "delivered",
    "finished",
    "brought",
    "dropped",
    "handed",
    "made",
    "wove",
    "completed",
    "turned",
}

GRADE_WORDS: dict[str, Grade] = {}
_GRADE_WORDS: dict[Grade, str] = {
    "Fino": "fino finos fina finas fine",
    "Superfino": "superfino superfinos superfina superfinas superfine extrafinos_never",
    "Standard": "estandar estandares standard standards normal normales corriente corrientes",
}
for _grade, _words in _GRADE_WORDS.items():
    for _w in _words.split():
        if not _w.endswith("_never"):
            GRADE_WORDS[_w] = _grade

HAT_NOUNS = {"sombrero", "sombreros", "hat", "hats", "cuerpo", "cuerpos", "body", "bodies", "pieza", "piezas"}
ROW_WORDS = {"hilera", "hileras", "row", "rows"}
GRADO_WORDS = {"grado", "grade"}

NUMBER_WORDS: dict[str, int] = {
    word: value
    for value, words in {
        1: "uno una un one",
        2: "dos two",
        3: "tres three",
        4: "cuatro four",
        5: "cinco five",
        6: "seis six",
        7: "siete seven",
        8: "ocho eight",
        9: "nueve nine",
        10: "diez ten",
        11: "once eleven",
        12: "doce twelve",
        13: "trece thirteen",
        14: "catorce fourteen",
        15: "quince fifteen",
        16: "dieciseis sixteen",
        17: "diecisiete seventeen",
        18: "dieciocho eighteen",
        19: "diecinueve nineteen",
        20: "veinte twenty",
        21: "veintiuno veintiun",
        22: "veintidos",
        23: "veintitres",
        24: "veinticuatro",
        25: "veinticinco",
        26: "veintiseis",
        27: "veintisiete",
        28: "veintiocho",
        29: "veintinueve",
        30: "treinta thirty",
        40: "cuarenta forty",
    }.items()
    for word in words.split()
}
TENS = {"veinte": 20, "treinta": 30, "cuarenta": 40, "twenty": 20, "thirty": 30, "forty": 40}

# Phrases that try to steer the assistant instead of describing the workshop (folded, word-bounded).
INJECTION_PATTERNS = [
    r"ignor[ae]\w*",
    r"olvida\w*",
    r"forget",
    r"(?:ahora )?eres (?:el |un |una )?admin\w*",
    r"you are (?:now )?(?:an? |the )?admin\w*",
    r"you are now",
    r"act(?:ua)? (?:as|como)",
    r"modo admin\w*",
    r"admin mode",
    r"borra\w*",
    r"elimina\w*",
    r"delete\w*",
    r"remove all",
    r"marca(?:r)? (?:todos|todo|todas)",
    r"mark (?:all|every\w*)",
    r"(?:todos|todas) (?:los|las) (?:sombreros|registros|hats)",
    r"all (?:the )?hats",
    r"every hat",
    r"system prompt",
    r"instruccion\w*",
    r"instructions?",
    r"(?:las|tus|your|the|new|nuevas) (?:reglas|rules)",
    r"override",
    r"jailbreak",
    r"sin reglas",
]

FUTURE_PATTERNS = [
    r"(?<!esta )(?<!la )(?<!por )manana",
    r"pasado manana",
    r"(?:la )?proxima semana",
    r"la semana que viene",
    r"el (?:lunes|martes|miercoles|jueves|viernes|sabado|domingo) que viene",
    r"ya mismo",
    r"mas tarde",
    r"luego",
    r"despues",
    r"(?:va|van|vamos|voy) a",
    r"tomorrow",
    r"next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
    r"later",
    r"will",
    r"(?:is|are|am) going to",
    r"going to",
    r"(?:entregar|terminar|pasar|traer|llevar|hacer|tejer|lavar|blanquear|hormar)(?:a|an|e|emos)",
]

# Words that say something did NOT happen ("no pasó", "todavía no", "not bleached yet", "ningún problema").
# A stage change or new hats said with one of them is left alone: the reader never turns a denial into a change.
NEGATION_PATTERNS = [
    r"no",
    r"not",
    r"never",
    r"nunca",
    r"ni",
    r"ningun[oa]?",
    r"nada",
    r"nothing",
    r"none",
    r"without",
    r"\w+n['\u2019]t",
]

NOISE_WORDS = {
    "hola",
    "buenos",
    "buenas",
    "dias",
    "tardes",
    "noches",
    "gracias",
    "hello",
    "hi",
    "good",
    "morning",
    "afternoon",
    "thanks",
    "thank",
    "you",
    "ok",
    "okay",
    "vale",
    "bueno",
    "si",
    "yes",
    "no",
    "eh",
    "em",
    "mmm",
    "este",
    "pues",
}

FLAG_PATTERNS: list[tuple[str, str]] = [
    (
        "grade_mismatch",
        r"no coincide\w* (?:con )?(?:el |la )?(?:grado|hileras?)|(?:grado|hileras?) no coincide\w*"
        r"|grado (?:equivocado|incorrecto|mal)|(?:wrong|mismatched) grade|grade (?:does ?n[o']t|doesnt|does not)"
        r" match|grade mismatch|(?:rows|grade) (?:do|does) not match|no corresponde\w* (?:al|el) grado",
    ),
    ("too_fast", r"(?:muy|demasiado) (?:rapido|pronto)|too (?:fast|quick\w*|soon)"),
    (
        "weaver_not_found",
        r"(?:sin|no tiene) tejedora|no (?:hay|aparece|existe) (?:la )?tejedora|(?:no|missing) weaver|weaver (?:is )?missing",
    ),
    (
        "other",
        r"hilera abierta|defect\w*|rot[oa]s?|manchad[oa]s?|mancha|roto|hueco|agujero|damaged|broken|stain\w*"
        r"|hole|torn|problema|problem",
    ),
]

# Words before "en"/"in" that make the stage after it where the hat is now ("está en lavado"), not a locator.
TARGET_BEFORE_EN = {
    "esta",
    "estan",
    "sigue",
    "siguen",
    "queda",
    "quedo",
    "paso",
    "pasaron",
    "pasa",
    "ya",
    "ahora",
}

# Who did it, when it is not a name: never taken as a weaver's name in a dictated note.
PRONOUNS = {
    "yo", "ella", "el", "ellas", "ellos", "nosotras", "nosotros", "usted", "ustedes", "alguien", "quien",
    "se", "le", "les", "lo", "me", "nos", "te", "recien", "apenas", "solo", "ahorita", "aqui", "ahi", "alli",
    "finalmente", "luego", "todo", "todos", "todas",
    "i", "she", "he", "we", "they", "someone", "who", "you", "just", "finally", "all",
}  # fmt: skip

# Words that start sentences or describe hats and are never names.
STOP_WORDS = (
    set(STAGE_WORDS)
    | set(GRADE_WORDS)
    | set(NUMBER_WORDS)
    | HAT_NOUNS
    | ROW_WORDS
    | GRADO_WORDS
    | NOISE_WORDS
    | CREATE_VERBS
    | {
        "el",
        "la",
        "los",
        "las",
        "de",
        "del",
        "y",
        "e",
        "en",
        "a",
        "al",
        "ya",
        "hoy",
        "ayer",
        "manana",
        "the",
        "and",
        "today",
        "yesterday",
        "tomorrow",
        "tq",
        "paso",
        "pasaron",
        "esta",
        "estan",
        "moved",
        "is",
        "are",
        "was",
        "were",
        "also",
        "tambien",
        "ademas",
        "pero",
        "but",
        "con",
        "with",
        "sin",
        "que",
        "por",
        "favor",
        "please",
        "nota",
        "note",
        "ahora",
        "now",
        "next",
        "semana",
        "week",
        "proxima",
        "one",
        "from",
        "of",
        "by",
        "to",
        "in",
        "it",
        "its",
        "this",
        "that",
        "mi",
        "my",
        "su",
        "his",
        "her",
        "sombrero",
        "grado",
        "hilera",
    }
)
