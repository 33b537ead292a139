"""The check both apps' page tests make of their message catalogues: every string their pages mark for
translation is in the English and the Spanish catalogue, translated to Spanish, with no fuzzy entry left."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]


def _ids(po: Path) -> dict[str, Any]:
    """A catalogue's (or template's) entries: each message id (a plural's singular) to its translation."""
    with po.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_po(f) if m.id}


def assert_catalogues_cover_pages(
    locale_dir: Path, babel_cfg: str, tmp_path: Path, *, at_least: int, keywords: Sequence[str] = ()
) -> None:
    """Extract the page strings with ``pybabel`` (``babel_cfg`` relative to the repository, extra
    ``keywords`` as ``-k`` options), check there are more than ``at_least`` of them, and check that the
    catalogues under ``locale_dir`` hold and translate every one (``make messages`` updates them)."""
    pot = tmp_path / "messages.pot"
    pybabel = str(Path(sys.executable).with_name("pybabel"))
    extra = [option for keyword in keywords for option in ("-k", keyword)]
    subprocess.run(
        [pybabel, "--quiet", "extract", "-F", babel_cfg, *extra, "-o", str(pot), "."], cwd=ROOT, check=True
    )
    wanted = set(_ids(pot))
    assert len(wanted) > at_least
    spanish_po = locale_dir / "es" / "LC_MESSAGES" / "messages.po"
    spanish, english = _ids(spanish_po), _ids(locale_dir / "en" / "LC_MESSAGES" / "messages.po")
    assert wanted - set(spanish) == set(), "run `make messages` and translate"
    assert wanted - set(english) == set(), "run `make messages`"
    untranslated = [
        k for k in wanted if not spanish[k] or (isinstance(spanish[k], (tuple, list)) and not all(spanish[k]))
    ]
    assert untranslated == []
    # A fuzzy entry (Babel's mark for a changed msgid) is left out of the compiled catalogue: English again.
    with spanish_po.open("rb") as f:
        fuzzy = [m.id for m in read_po(f) if m.id and m.fuzzy]
    assert fuzzy == []
