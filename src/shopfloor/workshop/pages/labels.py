"""The record vocabulary as a person reads it: each stored English word's label, marked for translation (it is
translated where it is shown, in the page's language)."""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks a message for extraction; it is translated where it is shown."""
    return message


def NN_(singular: str, plural: str, count: str = "n") -> tuple[str, str, str]:
    """Marks a plural message for extraction (``-k NN_:1,2``); it is translated with ``ngettext`` where shown,
    by the value of the part named ``count``."""
    return singular, plural, count


# The record vocabulary is English in the store; these are what a person reads.
STAGE_LABELS = {
    "Weaving": N_("Weaving"),
    "Washing": N_("Washing"),
    "Bleaching": N_("Bleaching"),
    "Blocking": N_("Blocking"),
    "Finished": N_("Finished"),
}
GRADE_LABELS = {"Standard": N_("Standard"), "Fino": N_("Fino"), "Superfino": N_("Superfino")}
STRAW_LABELS = {"Natural": N_("Natural"), "Bleached": N_("Bleached"), "Dyed": N_("Dyed")}
FLAG_LABELS = {
    "grade_mismatch": N_("Grade does not match rows"),
    "too_fast": N_("Left weaving too fast"),
    "weaver_not_found": N_("Weaver missing"),
    "other": N_("Other problem"),
}
STATUS_LABELS = {
    "pending": N_("To review"),
    "question": N_("Question"),
    "blocked": N_("Blocked"),
    "approved": N_("Approved"),
    "rejected": N_("Rejected"),
    "failed": N_("Failed"),
}
RUN_STATUS_LABELS = {
    "running": N_("Running"),
    "proposed": N_("Proposed"),
    "failed": N_("Failed"),
    "stopped": N_("Stopped"),
    "approved": N_("Approved"),
    "partially_approved": N_("Partly approved"),
    "rejected": N_("Rejected"),
}
OUTCOME_LABELS = {
    "applied": N_("Applied"),
    "rejected": N_("Rejected; nothing was changed."),
    "answered": N_("Answer saved"),
    "unchanged": N_("Nothing changed"),
    "blocked": N_("Now blocked"),
    "conflict": N_("Conflict: the record changed meanwhile"),
    "not_found": N_("Not found"),
    "invalid": N_("Not accepted"),
}
WARNING_LABELS = {
    "too_fast": N_("Leaves weaving sooner than this grade usually takes."),
    "open_proposal_exists": N_("Another open card is about this hat."),
    "grade_mismatch": N_("The grade does not fit the rows per inch."),
    "not_confirmed_by_record": N_("The record does not show this problem; check it."),
    "not_offered": N_("Someone the card did not offer was chosen."),
}
EVENT_LABELS = {
    "created": N_("Created"),
    "stage_changed": N_("Stage changed"),
    "flag_raised": N_("Flag raised"),
    "flag_resolved": N_("Flag resolved"),
    "owner_changed": N_("Owner changed"),
}
TOKEN_STATUS_LABELS = {"active": N_("Active"), "expired": N_("Expired"), "revoked": N_("Revoked")}
