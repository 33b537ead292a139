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
# Words read as a stage that do not name it: "ya está listo", "it's ready" say the hat is done, and Finished is
# inferred from them, so their move is never confidence high (docs/workshop-agent.md, "The three rules").
STAGE_BY_INFERENCE = {"listo", "lista", "listos", "done", "ready", "complete"}

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

# Deliveries said with a verb of coming and an infinitive ("vino a dejar 4 finos", "came by to drop off"): a
# past delivery like "entregó", unlike "vino a cobrar" (came to be paid), which delivers nothing.
DELIVERY_PHRASES = [
    r"(?:vino|vinieron|paso|pasaron) a (?:dejar|entregar|traer)(?:nos|me|le|les)?",
    r"(?:paso|pasaron) dejando",
    r"came (?:by |over |in )?to (?:drop|deliver|bring|hand)",
]

# Hats a person took away, sold or keeps ("se fue con dos normales para vender", "se llevó 5 finos", "los
# tiene en su casa"): no delivery, so a batch said with them never borrows the licence of a delivery before it.
TAKEN_AWAY_PHRASES = [
    r"se (?:fue|fueron|llevo|llevaron|regreso|regresaron) con",
    r"se (?:llevo|llevaron)",
    r"(?:vendio|vendieron|llevo a vender|llevaron a vender)",
    r"(?:vino|vinieron) a cobrar",
    r"(?:took|takes|left with|went off with|sold|kept)",
]

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
    r"(?:le |les )?faltan?",
    r"casi|almost|nearly",  # "casi termina el TQ-8H6RT": not yet (a count said with it is an estimate first)
    r"still needs?",
    r"yet to",
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
        r"|hole|torn|problema|problem|broke",
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
    "already",  # "is already in bleaching": where the hat is now, like "ya está en"
    "ahora",
}

# A hat said to stay at a stage ("sigue en lavado", "is still in washing", "todavía está en hormado"): no move.
STILL_WORDS = {
    "still", "sigue", "siguen", "todavia", "aun", "continua", "continuan", "remains", "remain", "stays",
}  # fmt: skip
STILL_BETWEEN = {"is", "are", "esta", "estan", "en", "in", "at"}

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

# ---------------------------------------------------------------------------------------------------------
# Notes as people say them (docs/workshop-agent.md, "What the reader understands, by class")
# ---------------------------------------------------------------------------------------------------------

# Words that take back what was just said; the value after them replaces the one before ("pasó a lavado, no,
# perdón, a blanqueo"). A bare ", no," counts only when a value of the same kind follows it.
CORRECTION_PATTERNS = [
    r"(?:no\s*,?\s*)?(?:perdon|perdona|perdoname|disculpa|disculpe|disculpen)",
    r"(?:no\s*,?\s*)?(?:digo|mejor dicho|quise decir|quiero decir|o sea|corrijo|me equivoque|no espera|espera)",
    r"(?:no\s*,?\s*)?(?:i mean|sorry|rather|no wait|make that|correction|actually)",
    # Told in the past ("sorry, I meant 16 rows"), after an apology or alone.
    r"(?:no\s*,?\s*)?(?:(?:sorry|oops|my bad)\s*,?\s*)?(?:i meant(?: to say)?|what i meant (?:is|was))",
    # A bare "no" said right before a correction word is part of it ("…a terminado, no, me confundí, a hormado"),
    # never a denial of the event.
    r"(?:no\s*,?\s*)?(?:mentira|me confundi|me equivoque|(?:ay|uy|ah) no)",
    r"(?:no\s*,?\s*)?(?:scratch that|strike that|my bad|oops|wait no)",
]
# Words between a correction and its new value that only re-introduce it ("no, eran siete", "sorry, it was").
CORRECTION_FILLERS = (
    r"(?:(?:eran|era|es|son|fue|fueron|fueron|mas bien|it was|it is|it's|its|they were|were|was)\s+)?"
)

# Questions without punctuation: how a sentence starts when it asks rather than reports.
QUESTION_LEADS = [
    r"(?:y )?(?:sabes|sabe|saben) si",
    r"no se si",
    r"(?:me )?(?:puedes|podrias|puede|podria) (?:decir|decirme|confirmar|confirmarme|ver|revisar)",
    r"(?:cuantos|cuantas|cual|cuales|donde|cuando|que paso con|por que|acaso|sera que|quien)",
    r"(?:is|are|was|were|did|does|do|has|have|had|can|could|should) (?:the |it |tq|\w+ )",
    r"(?:what|which|where|when|why|how many|how much|who)",
    r"(?:do you know|can you tell me|could you check)",
    r"(?:dime|dinos|digame|diganme|avisame|avisenme|confirmame|fijate|averigua|revisa|mira|ve|checa|chequea) si",
    r"(?:tell me|let me know|check|find out) (?:if|whether)",
]
# A short tag that turns the sentence before it into a question ("ya está listo, ¿no?", "right?").
QUESTION_TAGS = {
    "no",
    "verdad",
    "cierto",
    "si",
    "right",
    "correct",
    "ok",
    "okay",
    "o no",
    "isn't it",
    "no es cierto",
}

# Clauses that deny something that is no event ("no hay tiempo", "no sé por qué"): an aside, not a denial.
ASIDE_PATTERNS = [
    r"no hay (?:tiempo|apuro|prisa|problema|novedad)",
    r"no (?:se|sabemos|recuerdo|me acuerdo)(?: (?:por que|bien|exactamente|cuando))?",
    r"no (?:importa|pasa nada|te preocupes|se preocupe|hay que esperar)",
    r"(?:there is |there's )?no time",
    r"no (?:worries|rush|problem)",
    r"(?:i )?(?:don't|do not) know why",
    r"no hay mas",
    r"nada mas",
    r"eso es todo",
    r"that's all",
    r"nothing else",
    # A call to look into what the note just said ("…solo tiene doce hileras, hay que revisar eso"): a
    # comment on it, not a plan of a move.
    r"(?:hay que|toca|tenemos que) (?:revisar|ver|chequear|checar|mirar) (?:eso|esto|bien)",
    # A report's polite opening, and a weekday said alone ("Le informo lo del día de hoy, jueves."): filler.
    r"(?:le|les|te) (?:informo|cuento|comento|reporto)(?: lo (?:del|de) (?:dia|hoy|la semana)(?: de hoy)?)?$",
    r"(?:hoy )?(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo)$",
    r"(?:we |someone |somebody )?(?:need to|needs to|should|must) (?:check|look at) (?:that|this|it)",
]
# Asides that can stand anywhere, even in a dictated note without commas ("… sáltate el blanqueo no hay tiempo").
ASIDES_ANYWHERE = [
    r"no hay (?:tiempo|apuro|prisa)",
    r"no (?:importa|te preocupes|se preocupe)",
    r"(?:there is |there's )?no time",
    r"no (?:worries|rush)",
    r"nada mas",
    r"eso es todo",
    r"that's all",
    r"nothing else",
]
# Stages said as skipped: never a target ("sáltate el lavado", "sin pasar por lavado", "skip the washing").
SKIP_PATTERNS = [
    r"salta\w*",
    r"sin pasar por",
    r"sin (?:el |la )?",
    r"omit\w*",
    r"skip\w*",
    r"without",
    r"no hace falta (?:el |la )?",
]

# Words that carry nothing to record when a clause holds only them ("bueno", "oye", "ya", "gracias").
FILLER_WORDS = NOISE_WORDS | {
    "oye", "oiga", "mira", "ya", "bien", "entonces", "bueno", "ah", "ay", "uy", "ojo", "saludos", "chao",
    "adios", "hey", "so", "well", "um", "uh", "anyway", "alright", "great", "perfecto", "excelente", "dale",
    "porfa", "favor", "por", "please", "muchas", "nomas",
    # "okay so quick update, …": an opening that announces the note, not part of it.
    "quick", "update", "updates",
    # "ya, listo, gracias": said alone, "listo" is an "ok" (with a hat or a verb it is Finished: "ya está listo").
    "listo",
}  # fmt: skip

# Quantities people say: dozens and pairs.
# Collectives: how many each one counts ("una docena" 12, "dos docenas" 24, "una veintena" 20).
DOZEN_WORDS = {
    "docena": 12, "docenas": 12, "dozen": 12, "dozens": 12, "veintena": 20, "veintenas": 20, "decena": 10,
    "decenas": 10,
}  # fmt: skip
# "otro de 26", "another of 26": one more hat, of its own rows.
ANOTHER_WORDS = {"otro", "otra", "another"}
SUM_WORDS = {"mas", "plus"}
PAIR_WORDS = {"par": 2, "pair": 2, "couple": 2}
HALF_WORDS = {"media", "medio", "half", "half-a"}
# Words that count hats, and those that open a name said before its batch ("…y el manuel, este, tres…").
COUNT_WORDS = set(NUMBER_WORDS) | set(PAIR_WORDS) | set(DOZEN_WORDS) | HALF_WORDS
NAME_OPENERS = {"y", "e", "and", "el", "la", "don", "dona"}

# A person named by kin ("mi mami", "my mom", "su tía"): someone, but no weaver's name, so a delivery of theirs
# is asked with no lookup (docs/workshop-agent.md, "The three rules", rule 3). Folded.
KIN_OWNERS = {"mi", "mis", "su", "sus", "tu", "my", "her", "his", "our", "nuestra", "nuestro"}
KIN_WORDS = {
    "mama", "mami", "mamita", "mamacita", "madre", "papa", "papi", "papito", "padre", "hermana", "hermanita",
    "hermano", "hermanito", "tia", "tiita", "tio", "abuela", "abuelita", "abuelo", "abuelito", "suegra",
    "suegro", "prima", "primo", "hija", "hijo", "comadre", "compadre", "vecina", "vecino", "nuera", "cunada",
    "mom", "mum", "mommy", "mother", "dad", "father", "sister", "brother", "aunt", "auntie", "uncle",
    "grandma", "grandmother", "granny", "grandpa", "cousin", "daughter", "son", "neighbor", "neighbour",
    "mother-in-law", "sister-in-law",
}  # fmt: skip

# Spanish letter names as speech recognition writes a spelled code ("te cu siete efe tres ka dos").
LETTER_NAMES: dict[str, str] = {
    "a": "A", "be": "B", "ce": "C", "de": "D", "e": "E", "efe": "F", "ge": "G", "hache": "H", "i": "I",
    "jota": "J", "ka": "K", "ca": "K", "ele": "L", "eme": "M", "ene": "N", "o": "O", "pe": "P", "cu": "Q",
    "erre": "R", "ere": "R", "ese": "S", "te": "T", "u": "U", "ve": "V", "uve": "V", "equis": "X", "ye": "Y",
    "zeta": "Z", "seta": "Z", "doble": "W",
}  # fmt: skip
DIGIT_WORDS: dict[str, str] = {
    "cero": "0", "uno": "1", "una": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6",
    "siete": "7", "ocho": "8", "nueve": "9", "zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3",
    "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
}  # fmt: skip
# Pauses a person makes while spelling a code ("te cu, este, ocho hache seis, eh, erre te"): skipped between its
# characters, never read as letters ("o" of "o sea", "a" of "a ver", "eh" as E and H).
CODE_PAUSES = r"este|eh+|ehm+|em+|mm+|um+|uh+|uhm+|hmm+|o sea|a ver|pues|digamos|like|you know"
# How the code prefix sounds when spoken: "tq", "t q", "te cu", "tecu", "t cu".
PREFIX_TOKENS = [
    ("tq",),
    ("t", "q"),
    ("te", "cu"),
    ("tecu",),
    ("t", "cu"),
    ("te", "q"),
    ("tee", "queue"),
    ("t", "k"),
    ("te", "ka"),
    ("tk",),
]

# Shorthand typed in a hurry, and common misspellings, mapped to the reader's own words.
SHORTHAND: dict[str, str] = {
    "std": "estandar", "stds": "estandares", "est": "estandar", "sup": "superfino", "sups": "superfinos",
    "sfino": "superfino", "sfinos": "superfinos", "hil": "hileras", "hils": "hileras", "hrs": "hileras",
    "somb": "sombrero", "sombs": "sombreros", "sombre": "sombreros", "lav": "lavado", "blanq": "blanqueo",
    "horm": "hormado", "term": "terminado", "termi": "terminado", "pq": "porque",
}  # fmt: skip
# Domain words a one-letter slip is corrected to (long enough that one edit is not another common word).
FUZZY_TARGETS = sorted(
    {w for w in STAGE_WORDS if len(w) >= 6 and not w.endswith(("ar", "er", "ir"))}
    | {w for w in GRADE_WORDS if len(w) >= 7}
    | {w for w in HAT_NOUNS | ROW_WORDS if len(w) >= 6}
)
# Spanish stage verbs and nouns whose every form (preterite, gerund, participle, reflexive: "prensaron",
# "hormándose", "blanqueado") is found by its Snowball stem; the stage's word the reader's tables use.
STEM_SOURCES: dict[str, str] = {
    "tejer": "tejido", "tejido": "tejido",
    "lavar": "lavado", "lavado": "lavado",
    "blanquear": "blanqueado", "blanqueo": "blanqueo", "azufrar": "azufrado", "azufrado": "azufrado",
    "hormar": "hormado", "hormado": "hormado", "planchar": "planchado", "planchado": "planchado",
    "prensar": "planchado", "prensado": "planchado",
    "terminar": "terminado", "terminado": "terminado", "acabar": "acabado", "acabado": "acabado",
}  # fmt: skip
# Words one edit from a target that are ordinary words, never corrected.
FUZZY_NEVER = {
    "formado",
    "formada",
    "tejidos",
    "listos",
    "lavados",
    "pasado",
    "parado",
    "terminar",
    "sombras",
}

# Nicknames and diminutives of first names, folded (a workshop's own weavers are matched after this).
# Only what shortens or softens a name: a first name of its own is another person's ("Rosario" is not Rosa, nor
# is her "Chayo"), asked, never matched (docs/workshop-agent.md, "The three rules", rule 3).
NICKNAMES: dict[str, str] = {
    "rosita": "rosa", "rosi": "rosa", "rosy": "rosa",
    "carmencita": "carmen", "carmita": "carmen", "menchu": "carmen", "mela": "carmen",
    "manolo": "manuel", "manolito": "manuel", "manny": "manuel", "manu": "manuel", "manuelito": "manuel", "lolo": "manuel",
    "meche": "mercedes", "mecha": "mercedes", "pepe": "jose", "pepito": "jose", "lucho": "luis",
    "pancho": "francisco", "paco": "francisco", "chabela": "isabel", "juanita": "juana", "juanito": "juan",
    "lupe": "guadalupe", "toño": "antonio", "tono": "antonio", "nacho": "ignacio", "chela": "graciela",
}  # fmt: skip

# Flags as people report them (added to FLAG_PATTERNS' kinds).
FLAG_EXTRA: list[tuple[str, str]] = [
    (
        "grade_mismatch",
        r"(?:le )?faltan? hileras|(?:muy )?pocas hileras|(?:demasiadas|muchas) hileras para|no (?:es|llega a|alcanza"
        r" (?:a|para)) (?:ser )?(?:super)?fino|no da (?:el|la) (?:grado|talla)|too few rows|not enough rows"
        r"|(?:does not|doesn't|doesnt|do not|don't) have enough rows|no tiene (?:suficientes|las) hileras"
        r"|(?:isn't|is not|not) really (?:a )?(?:super)?fin[oe]|rows (?:are )?(?:too )?(?:low|few)"
        r"|no cuadra\w*(?: con (?:el |la |las )?(?:grado|hileras))?|(?:grado|hileras) no cuadra\w*"
        r"|no da para (?:ser )?(?:super)?fin[oa]|(?:le )?pusieron (?:super)?fin[oa] pero"
        r"|(?:marcad[oa]|registrad[oa]) como (?:super)?fin[oa]|no (?:le )?(?:alcanzan|llegan) (?:las )?hileras"
        r"|(?:the )?rows (?:fall|come up) short|(?:falls|comes up) short (?:on|of) rows",
    ),
    (
        "too_fast",
        r"se hizo (?:muy|demasiado) (?:rapido|pronto)|(?:salio|paso) (?:muy|demasiado) pronto|way too fast",
    ),
    (
        "other",
        r"manch\w*|rot[oa]s?|romp\w+|quebrad[oa]s?|torcid[oa]s?|desigual\w*|disparej[oa]s?|suci[oa]s?"
        r"|quemad\w*|amarillent[oa]s?|huequit[oa]s?|agujerit[oa]s?|manchit[oa]s?|deshilachad[oa]s?|suelt[oa]s?|descosid[oa]s?|hongo\w*|moho"
        r"|uneven|crooked|dirty|burn\w*|yellow\w*|frayed|loose|mould\w*|mold\w*|ripped|cracked|bent|warped|spot\w*"
        r"|chuec[oa]s?|rasgad[oa]s?|rajad[oa]s?|despegad[oa]s?|tears?"
        # Dents, scratches and crushing ("dentro" is no dent).
        r"|dent(?:s|ed)?|abollad(?:o|a|os|as|ura|uras)|aplastad[oa]s?|hundid[oa]s?|rayad[oa]s?|aranad[oa]s?"
        r"|scratch(?:es|ed)?|crush(?:ed)?|squash(?:ed)?|dinged|chipped|creased"
        # The same problems said as what happened to the hat, a verb with its pronoun ("se aplastó la copa", "le
        # rayaron el ala", "se le torció"); "no se aplastó" stays a denial, as "no se manchó" does.
        r"|(?:se|le|les|lo|la|los|las) (?:aplast|aboll|quem|ray|raj|rasg|despeg|ensuci|deshilach|arrug|chanc"
        r"|apachurr|manch)(?:o|aron)|(?:se|le|les|lo|la|los|las) (?:torc|hund|descos)(?:io|ieron)"
        r"|got (?:crushed|dented|squashed|scratched|stained|torn|bent)|(?:tore|ripped|cracked)",
    ),
]

# Hedges: the person is not sure of what the clause reports ("creo que", "me parece", "maybe", "not sure").
# Blanked out like an aside, and every event of the sentence gets confidence check (docs/workshop-agent.md,
# "The three rules").
HEDGE_PATTERNS = [
    r"(?:yo )?creo(?: que)?",
    r"al parecer",
    r"por ahi",  # "por ahí trajo 2": about, maybe
    r"no (?:se|estoy segur[oa]) si",  # "…, no sé si 3 o 4": the count before it is in doubt
    # A bare "no sé" at a clause's edge ("…pasó a blanqueo, no sé"); "no sé por qué" is an aside, and "no se"
    # before a verb ("no se manchó") a denial.
    r"no se(?: bien| exactamente)?(?=\s*(?:[,.;:!?]|$))",
    r"(?:i )?(?:don't|dont|do not) know(?=\s*(?:[,.;:!?]|$))|dunno",
    r"por lo visto",
    r"(?:a)?parentemente",
    r"supuestamente",
    # What ought to have happened is not said to have happened: "should have delivered", "was supposed to have
    # moved", "debía entregar", "tenía que traer", "debería haber entregado" (docs/workshop-agent.md, "The three
    # rules" 2). Blanked out as a hedge: the event is read at check, never high; a bare "should" stays a plan.
    r"(?:should|ought to|(?:was|were|is|are) supposed to)(?: have|'ve| of)|should've|shoulda|supposedly",
    r"deb(?:ia|ian|io|ieron|eria|erian)(?: de)?(?: haber)?|tenia(?:n)? que(?: haber)?",
    r"de pronto",
    r"pareceria(?: que)?",
    r"pareciera(?: que)?",
    r"se supone(?: que)?",
    r"(?:me )?parece(?: que)?",
    r"capaz(?: que)?",
    r"quizas?",
    r"tal vez",
    r"a lo mejor",
    r"puede (?:ser )?que",
    r"supongo(?: que)?",
    r"me imagino(?: que)?",
    r"seguramente",
    r"probablemente",
    r"no estoy (?:(?:100 ?%|100 por ciento|cien por ciento|del todo|muy|tan|totalmente) )?segur[oa]",
    r"no (?:me acuerdo|recuerdo)(?: bien)?(?: si)?",
    r"(?:i )?(?:don't|dont|do not|can't|cant|cannot) (?:remember|recall)(?: if| whether)?",
    r"sin estar segur[oa]",
    r"maybe",
    r"perhaps",
    r"probably",
    r"i (?:think|guess|believe|suppose)",
    r"(?:i'm |i am |im )?not (?:(?:too|very|really|totally|entirely|quite|100 ?%|100 percent|a hundred percent) )?"
    r"sure(?: (?:if|whether))?",  # "…, not sure if 4 or 5", "not 100% sure"
    r"apparently",
    r"it seems(?: that| like)?",
    r"seems like",
    # Words of a formal report that doubt what they say: "appears to have moved", "has likely been moved",
    # "presumably", "it looks like", and saying it could not be checked ("I could not confirm it on site").
    r"(?:it )?(?:appears|appeared|seems|seemed) to(?: have| be)?",
    r"(?:it )?looks like",
    r"(?:most |very |quite )?likely",
    r"presumably",
    r"unconfirmed",
    r"(?:i |we )?(?:could not|couldn't|couldnt|was not able to|wasn't able to|were not able to|cannot|can't)"
    r" (?:confirm|verify)(?: (?:it|this|that|them))?(?: on site)?",
    r"no (?:pude|pudimos|he podido|hemos podido) (?:confirmar|verificar|comprobar)(?:lo|la|los|las)?"
    r"(?: en (?:el )?sitio)?",
    r"sin confirmar",
    # Idioms that doubt the speaker's own memory or knowledge, whose "not" denies nothing ("If I'm not mistaken,
    # TQ-… moved", "si no me equivoco", "que yo sepa", "as far as I know").
    r"(?:if|unless) (?:i['’]m|i am|im) (?:not )?(?:mistaken|wrong)",
    r"if i (?:remember|recall)(?: (?:correctly|right|rightly|well))?|if memory serves(?: me)?(?: right)?",
    r"as far as i (?:know|can tell|remember|recall)|to (?:the best of )?my knowledge|i (?:reckon|assume|gather)",
    r"si no me equivoco|si mal no (?:recuerdo|me acuerdo)|si no (?:recuerdo|me acuerdo) mal|que yo sepa",
    r"hasta donde (?:se|yo se|recuerdo|me acuerdo)",
]
# Reported speech: the note passes on what someone else said ("Rosa dice que…", "says he delivered…"). The
# event is read, with confidence check.
REPORT_PATTERNS = [
    r"(?:dice|dicen|dijo|dijeron|cuenta|conto|comenta|comento|avisa|aviso|asegura) que",
    r"(?:me|nos|le|les) (?:dijo|dijeron|conto|contaron|aviso|avisaron|comento)",
    # A message sent through someone: "mandó a decir que…", "mandó razón de que…", "sent word that…".
    r"(?:mando|mandaron|manda|mandan|envio) (?:a decir|a avisar|razon|recado|decir|avisar)(?: de)?(?: que)?",
    r"(?:sent|sends|left) (?:word|a message)(?: that)?",
    # A message relayed by phone: "me mandó audio que…", "me escribió que…", "sent me a voice note saying…".
    r"(?:me|nos|le) (?:mando|mandaron|envio|enviaron|paso|escribio|escribieron) (?:un |una |el |la )?"
    r"(?:audio|audios|mensaje|mensajito|whatsapp|wasap|nota de voz|texto)(?: de| diciendo)?(?: que)?",
    r"(?:me|nos) (?:escribio|escribieron|llamo|llamaron)(?: a decir| para decir)? que",
    r"(?:sent|sends) (?:me|us) (?:a |an )?(?:voice note|voice message|text|message|audio|whatsapp)(?: saying| that)?",
    r"(?:texted|messaged|whatsapped|wrote)(?: (?:me|us))? that",
    r"(?:texted|messaged|called)(?: (?:me|us))? (?:to say|saying)(?: that)?",
    r"(?:dice|dijo|cuenta|conto) (?:el|la|don|dona|dona|senora|senor)? ?\w+(?: \w+)? que",
    r"segun (?:el|la|don|dona)? ?\w+",
    r"dizque",
    r"(?:o )?eso (?:dijo|dice|dijeron|dicen)",
    r"(?:or )?so (?:she|he|they) (?:said|says)",
    r"(?:eso )?(?:dijo|dijeron|dice|dicen)(?= (?:el|la|los|las|don|dona|mi|su) )",
    r"says",
    r"said",
    r"told (?:me|us)",
    r"tells (?:me|us)",
    r"according to",
]
# A question passed on ("Manuel pregunta si…", "asked whether…"): the whole sentence asks, nothing is reported.
REPORTED_QUESTION_PATTERNS = [
    r"pregunt\w* (?:si|que|cuando|donde|cuantos|cuantas|por)",
    r"(?:quiere|quieren|queria|querian|quisiera) saber",
    # In any tense and as a Spanish speaker may say it in English ("is asking if", "ask me if", "was asking
    # us whether"): what is asked is never reported (docs/workshop-agent.md, class 3).
    r"ask(?:s|ed|ing)?(?: (?:me|us|him|her|them))? (?:whether|if|about|when|where)",
    r"(?:consulta|consultan|consulto|averigua) (?:si|que|cuando|donde|cuantos|cuantas)",
    r"(?:checking|checks|checked|wants to check) (?:whether|if)",
    r"(?:wants|want|wanted|would like|needs|need|needed) to know",
    r"(?:necesita|necesitan|necesitaba) saber",
    r"wonder(?:s|ed|ing)? (?:whether|if)",
]
# A number said as an estimate or a range ("como tres o cuatro", "unos cinco", "entre 4 y 6", "around six",
# "a few"): the reader asks for it, never picks one (``NUMBER`` stands for a number's words).
APPROX_PATTERNS = [
    r"(?:como|unos|unas|aproximadamente|aprox\.?|approx\.?|alrededor de|cerca de|mas o menos|around|about"
    r"|roughly|approximately|some|like|more or less|casi|almost|nearly|algo mas de|mas de|menos de|al menos"
    r"|por lo menos|more than|less than|fewer than|over|under|at least|upwards of) NUMBER(?: ?(?:o|u|or|a|-) ?NUMBER)?",
    # Two numbers in a row before what they count: a range dictated without its "o" ("cuatro cinco finos").
    r"(?!(?:veinte|treinta|cuarenta|twenty|thirty|forty)\b)NUMBER NUMBER(?= (?:COUNTED))",  # not "thirty two"
    r"\d{1,2} ?- ?\d{1,2}",
    r"NUMBER (?:o|u|or) NUMBER",
    r"NUMBER (?:y pico|y tantos|y algo|and something|odd|or so|or more|o mas|mas o menos)",
    r"(?:entre|between) NUMBER (?:y|e|and|a) NUMBER",
    r"(?:unos|unas) (?:cuantos|cuantas|pocos|pocas)",
    # "…4 finos de 18 hileras, o eran 5": another number offered after a comma
    # "…, or maybe it was 5", "…, or perhaps they were 5": the same offer, with a hedge and a subject.
    r"(?<=, )(?:o|u|or) (?:(?:maybe|perhaps|quizas|capaz) )?(?:(?:it|they) )?"
    r"(?:(?:eran|fueron|era|fue|sea|were|was) )?NUMBER",
    r"(?:algunos|algunas|varios|varias|a few|a couple or so|several|some)",
]

# Between a count and the verb of what those hats have or are, the hats it counts: the ones named before ("de
# ellos", "of them") or a weaver's ("de los sombreros de Carmen", "de los de Rosa Pillco", "of Carmen's hats").
COUNTED_HATS = (
    r"(?:de (?:ellos|ellas|esos|esas|estos|estas) |of (?:them|those) "
    r"|de (?:los|las) (?:sombreros |cuerpos |piezas )?(?:de|del) (?:(?:la|el|dona|don) )?[a-z]+(?: [a-z]+)? "
    r"|of (?:[a-z]+ )?[a-z]+'s (?:hats|ones) |of the (?:hats|ones) (?:of|from|by) [a-z]+(?: [a-z]+)? )"
)
# What hats counted as a subject have or are ("unos 2 tienen manchas", "two of Carmen's hats are stained").
SUBJECT_VERBS = r"(?:tienen|estan|salieron|vinieron|llegaron|have|are|were|came)"

# A count the person says again in a clause of its own after a count ("…3 finos de 18, pero yo conté 2", "but I
# counted 2", "aunque aquí hay 4", "but only 3 arrived"): when it differs, neither number is read (rule 3), and
# the same number said again confirms it. ``NUMBER`` stands for a number's words, ``COUNTED`` for its unit.
COUNTED_AGAIN_PATTERNS = [
    r"(?:(?:yo|i|we|nosotros) )?(?:conte|contamos|cuento|contaron|counted|count)"
    r"(?: (?:solo|nomas|solamente|only|just))? NUMBER",
    r"(?:(?:aunque|although|though) )?(?:(?:aqui|aca|here) )?(?:(?:solo|nomas|only) )?"
    r"(?:hay|habia|habian|llegaron|vinieron|recibi|recibimos|there (?:are|were)|(?:i|we) (?:got|received))"
    r"(?: (?:solo|nomas|solamente|only|just))? NUMBER",
    r"(?:(?:aunque|although|though) )?(?:solo|nomas|only|just) NUMBER(?: (?:llegaron|vinieron|arrived|came))?",
]

# Words that point back at hats the same note named, in order (docs/workshop-agent.md, class 7): which of
# them each one means. "one_of" asks with them as choices.
# Where a pronoun opens its clause: after no word, or after a joining word ("…, pero uno no es superfino").
_OPENS = r"(?:(?<![a-z] )|(?<=\by )|(?<=\be )|(?<=pero )|(?<=and )|(?<=but ))"
REFERENCE_PATTERNS: list[tuple[str, str]] = [
    (
        "one_of",
        r"(?:uno|una|alguno|alguna) de (?:ellos|ellas|esos|esas|los dos|las dos)|one of (?:them|those|the two)|either"
        # "uno ya está en blanqueo": "uno" as the subject of a verb, not a count ("uno de 24")
        r"|"
        + _OPENS
        + r"(?:uno|una)(?= (?:ya|se|esta|estan|paso|sigue|tiene|lo|la|quedo|salio|no es|no tiene)\b)"
        r"|(?<![a-z] )one(?= (?:is|was|has|already|moved|went|got)\b)",  # never "the last one moved"
    ),
    (
        # A count of hats as the subject of what they have or are ("unos 2 tienen manchas", "2 de ellos están
        # rotos", "about two have stains"): some of the hats named before, asked about like "uno de ellos";
        # read only in a clause that reports a problem (``events.reference_of``).
        "some_of",
        _OPENS + r"(?:(?:unos|unas|como|about|around|some|like) )?"
        r"(?:(?:\d{1,2}|dos|tres|cuatro|cinco|seis|two|three|four|five|six)"
        r"(?= (?:de (?:ellos|ellas|esos|esas|estos|estas) (?:con|with)\b|of (?:them|those) with\b"
        r"|" + COUNTED_HATS + r"?" + SUBJECT_VERBS + r"\b))"
        # "one of Rosa Guamán's hats has mold", "uno de los sombreros de Carmen tiene…": one of a weaver's hats
        r"|(?:one|uno|una)(?= " + COUNTED_HATS + r"(?:tiene|has|" + SUBJECT_VERBS + r")\b))",
    ),
    (
        # A demonstrative as the subject of a verb ("ese ya pasó a blanqueo", "that one moved"): the hat named
        # before it when there is one, and a question between the last two when there are several.
        "that_one",
        _OPENS + r"(?:ese|esa|este|esta|aquel|aquella|that one|this one)"
        r"(?= (?:ya|se|esta|paso|pasaron|tiene|lo|la|quedo|salio|is|was|has|already|moved|went|got)\b)",
    ),
    (
        "both",
        r"(?:a )?(?:los|las) dos(?!\s+(?:fin|super|est|stand|somb|cuerp|piez|de\b)\w*)|ambos|ambas|both(?: of them)?|the two of them|(?:todos|todas) (?:ellos|ellas)",
    ),
    ("first", r"el primero|la primera|the first(?: one)?|the former"),
    ("second", r"el segundo|la segunda|the second(?: one)?"),
    # "that last one", "ese último": the last hat named, whatever the demonstrative before "last"
    (
        "last",
        r"(?:el|la|este|esta|ese|esa|aquel|aquella) (?:ultimo|ultima)|(?:the|that|this) last(?: one)?|the latter",
    ),
    (
        # A word that points back at the hat named before ("ese mismo", "that same hat", "it was moved"): the
        # card it gives is an inference, so never high (docs/workshop-agent.md, rule 2).
        "same",
        r"ese mismo|esa misma|el mismo|la misma|(?:the|that|this) (?:very )?same(?: one| hat| piece)?"
        r"|that (?:same )?one|ese también|(?:that|this|said) hat"
        r"|(?:ese|este|aquel|dicho) (?:mismo )?(?:sombrero|cuerpo)|(?:esa|esta|aquella|dicha) (?:misma )?pieza"
        # "it" only as the subject of what happened to the hat ("…, and it was moved to finished")
        r"|" + _OPENS + r"it(?= (?:was|is|has|had|went|moved|got|already|just|does|did|shows|looks|needs)\b"
        r"| (?:isn't|wasn't|hasn't|doesn't|didn't)(?!\w))",
    ),
]

# Past forms that report a stage change in a clause after an order ("…, la Carmen entregó dos finos"):
# an order never takes a report said after it in a clause of its own. The plural preterites of the stage
# verbs ("lavaron", "prensaron") are found by their stem (``text.says_past_move``), not listed here.
PAST_MOVE_VERBS = {"pasaron", "moved"}
