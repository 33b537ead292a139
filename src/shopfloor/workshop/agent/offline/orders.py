"""The offline reader's words for orders to the assistant (docs/workshop-agent.md, "Injected frames"): phrases
that try to steer it instead of describing the workshop, orders at the start of a clause, and frames dressed as
a system or admin turn. Folded, word-bounded patterns; what they match is set apart, never read as a report.
"""

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

# Orders to the assistant at the start of a clause (after filler). Stage requests about a hat ("Pasa el TQ-…
# a terminado", "Cambia …") are not here: they describe a move the rules then check.
INSTRUCTION_VERBS = [
    r"crea\w*",
    r"registr[ae]\w*",
    r"anota\w*",
    r"apunta\w*",
    r"agrega\w*",
    r"anade\w*",
    r"aprueba\w*",
    r"confirma\w*",
    r"guarda\w*",
    r"genera\w*",
    r"haz\w*",
    r"finge\w*",
    r"responde\w*",
    r"escribe\w*",
    r"create",
    r"register",
    r"record",
    r"add",
    r"approve",
    r"confirm",
    r"save",
    r"generate",
    r"pretend",
    r"write",
    r"reply",
    r"print",
    r"set all",
    r"make (?:all|every\w*|\d+|new)",
]
INSTRUCTION_PHRASES = [
    r"de ahora en adelante",
    r"a partir de ahora",
    r"desde ahora",
    r"from now on",
    r"eres (?:un|una) (?:asistente|ia|bot|modelo)",
    r"you are (?:an? )?(?:assistant|ai|bot|model|unrestricted)",
    r"no tienes reglas",
    r"no rules",
    r"without rules",
    r"sin restricciones",
    r"no restrictions",
    r"aprueba todo",
    r"approve (?:all|every\w*)",
    r"sistema:",
    r"system:",
    r"developer mode",
    r"modo desarrollador",
]
# Words a clause may start with before an order ("Por favor, crea …", "Oye asistente, borra …").
INSTRUCTION_LEAD_FILLER = r"(?:(?:por favor|porfa|oye|oiga|asistente|bot|ahora|y|bueno|ya|please|hey|ok|okay|now|and|assistant)[\s,:]+)*"

# Injected frames: text dressed as a system or admin turn. From an opener to its closer (or to the end of the
# opener's sentence) everything is an ignored instruction; what follows the frame is data as usual.
# The roles a frame dresses its text as ("### system", "<system>", "[INST]").
_ROLE = r"(?:system|sistema|admin|root|developer|dev|instructions?|instrucciones|assistant|asistente)"
FRAME_OPENERS = [
    r"(?:<|&lt;)\|im_start\|>",  # the reader sees the note with < escaped
    r"#{2,}\s*" + _ROLE + r"\s*#{2,}",
    # A Markdown heading of a role ("### system", "## Instructions:"), with nothing before it on its line.
    r"(?:^|(?<=\n))[ \t]*#{1,6}[ \t]*" + _ROLE + r"\b[ \t]*:?",
    r"\[(?:admin|system|sistema|root|developer|dev)\]\s*:?",
    # Chat templates' turns: "<<SYS>> … <</SYS>>", "[INST] … [/INST]", "<|system|>", "<system> … </system>",
    # "<|start_header_id|>system<|end_header_id|>".
    r"(?:<|&lt;){2}\s*sys\s*>>",
    r"\[inst\]",
    r"(?:<|&lt;)\|\s*" + _ROLE + r"\s*\|>",
    r"(?:<|&lt;)" + _ROLE + r">",
    r"(?:<|&lt;)\|start_header_id\|>\s*" + _ROLE + r"\s*(?:<|&lt;)\|end_header_id\|>",
]
FRAME_CLOSERS = [
    r"(?:<|&lt;)\|im_end\|>",
    r"#{2,}\s*(?:end|fin)\s*#{2,}",
    r"\[/(?:admin|system|sistema)\]",
    r"(?:<|&lt;){2}\s*/\s*sys\s*>>",
    r"\[/inst\]",
    r"(?:<|&lt;)\|(?:end|eot_id)\|>",
    r"(?:<|&lt;)/" + _ROLE + r">",
    r"(?:<|&lt;)/s>",
]
