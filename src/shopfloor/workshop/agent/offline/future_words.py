"""The words of what has not happened yet, folded (lower case, no accents), Spanish and English: plans,
intentions, what is due, and plans told in the past (data only; ``signals`` compiles them).

A clause that says one of them makes no card (docs/workshop-agent.md, "The three rules", rule 1, and "The
vocabulary underneath", future words).
"""

from __future__ import annotations

# Verbs of telling: wanting to tell of something ("quería avisarle que Rosa entregó…") is no plan of it.
_TELLING = r"(?:avis|cont|dec|inform|coment|comunic|let you|tell|say|mention|report)"

_WEEKDAY = (
    r"(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
)
# Verbs of bringing in the present: with a weekday they say a plan ("el viernes trae 3 finos").
_BRINGS = (
    r"(?:trae|traen|traemos|entrega|entregan|entregamos|deja|dejan|dejamos|(?:viene|vienen|pasa) a dejar"
    r"|brings?|delivers?|drops?|comes? (?:by|in|over) to)"
)
FUTURE_PATTERNS = [
    r"(?<!esta )(?<!la )(?<!por )manana",
    # A weekday with a present verb of bringing, either first: "el viernes trae 3 finos", "brings them on Friday".
    _WEEKDAY + r" (?:[\w']+ ){0,4}?" + _BRINGS,
    _BRINGS + r" (?:[\w']+ ){0,6}?(?:(?:el|este|on|this) )?" + _WEEKDAY,
    r"pasado manana",
    r"(?:la )?proxima semana",
    r"la semana que viene",
    r"el (?:lunes|martes|miercoles|jueves|viernes|sabado|domingo) que viene",
    r"ya mismo",
    r"mas tarde",
    r"luego",
    r"despues(?! del? )",
    r"(?:va|van|vamos|voy) a",
    r"tomorrow",
    r"next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
    # What is due or scheduled, never done: "is to be moved", "is due to go", "is scheduled for", "later this
    # week" (a bare "later" after a past verb is a sequence: events._THEN).
    r"(?:is|are|was|were) (?:to be|due (?:to be|to go|for)|scheduled (?:to|for)|expected to|supposed to)",
    r"(?:esta|estan) (?:programad|previst|agendad)[oa]s? para",
    r"later (?:this|today|tonight|on|in)",
    r"later",
    r"will",
    r"(?:is|are|am) going to",
    r"going to",
    r"(?:entregar|terminar|pasar|traer|llevar|hacer|tejer|lavar|blanquear|hormar)(?:a|an|e|emos)",
    # Plans and intentions: "quedó en traer", "pensamos pasarlo", "en un rato", "la próxima vez", "she'll".
    r"qued\w* en \w+(?:ar|er|ir)(?:lo|la|los|las)?",
    r"(?:pensamos|pienso|piensa|piensan|planeamos|queremos|quiero|quiere|tenemos que|tengo que|tiene que) "
    r"\w+(?:ar|er|ir)(?:lo|la|los|las|le)?",
    r"en un (?:rato|ratito|momento)",
    r"ahorita (?:le|lo|la|los|las) (?:paso|pasamos|llevo|mando)",
    r"(?:la )?proxima vez",
    r"next time",
    r"\w+'ll",
    r"(?:i|we|she|he|they) shall",
    r"(?:plan|plans|planning|want|wants|intend|intends) to",
    r"(?:hemos|he|has|ha|han|habemos) de \w+(?:ar|er|ir)(?:lo|la|los|las)?",
    # A plan told in the past is still a plan: "dijo que iba a lavar el TQ-…", "pensaba pasarlo", "quería
    # lavarlo", "was going to" (above), "wanted to move…"; never wanting to tell of what happened ("quería
    # avisarle que…", "I wanted to let you know that…").
    r"(?:iba|ibas|iban|ibamos) a \w+(?:ar|er|ir)(?:lo|la|los|las|le)?",
    r"(?:pensaba|pensabas|pensaban|pensabamos|queria|querias|querian|queriamos|planeaba|planeaban)"
    r" (?!" + _TELLING + r")\w+(?:ar|er|ir)(?:lo|la|los|las|le)?",
    r"tenia(?:n|mos)? pensado",
    r"(?:wanted|planned|intended|meant|(?:was|were) (?:planning|about)) to (?!" + _TELLING + r")",
    # What is due, not done: "toca lavar", "le toca blanqueo", "hay que pasarlo", a to-do heading "Pendiente:".
    # (…never a call to look into what was said, "hay que revisar eso": an aside, ASIDE_PATTERNS)
    r"(?:le |les |nos |me )?toca(?:ria)?(?= \w)(?! (?:revisar|ver|chequear|checar|mirar) (?:eso|esto|bien)\b)",
    r"hay que (?!ver\b)(?!(?:revisar|chequear|checar|mirar) (?:eso|esto|bien)\b)\w+(?:ar|er|ir)(?:lo|la|los|las|le)?",
    r"pendientes?",
    r"por (?!favor\b)\w+(?:ar|er|ir)",  # "por lavar", "por entregar": still to do
    r"to ?do(?=\s*:)",
    r"gonna|gotta",
    # Told to say when it happens: it has not happened ("avísame cuando pase a blanqueo", "let me know when").
    r"(?:avisame|avisenme|dime|me avisas|me dices) cuando",
    r"(?:let me know|tell me) (?:when|once)",
    # Subjunctives with no past form spelled the same once accents are folded ("pase" could be "pasé").
    r"cuando (?:\w+ ){0,4}(?:pasen|entreguen|traiga|traigan|terminen|lleguen|laven|esten)",
    r"(?:need|needs|have|has) to (?:be )?\w+",
]

# A time still to come today, said before what is done then: with a verb not in the past ("después del almuerzo
# paso el TQ-… a blanqueo", "this afternoon I move it") it is a plan; with a preterite ("esta tarde pasó…",
# "after lunch it moved") it says when something happened (``events.is_future``).
LATER_TODAY_PATTERNS = [
    r"despues (?:del almuerzo|de almorzar|de comer|de la comida|del cafe|del mediodia|del recreo)",
    r"(?:en|por|a) la (?:tarde|tardecita|noche|nochecita)|esta (?:tarde|noche)|al rato|en la tardecita",
    r"after (?:lunch|the break|break)|this (?:afternoon|evening)|tonight",
]
