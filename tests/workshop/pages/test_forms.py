"""Every form that changes something is a POST form in the markup itself, not only through htmx: a press
before the page's script has started (a slow phone) must never send a note, a card's edit or the CSRF token
as a GET, which would put them in the address bar, the history and the server's log (docs/security.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).parents[3] / "src/shopfloor/workshop/pages/templates"
FORM = re.compile(r"<form\b[^>]*>", re.S)


def _forms() -> list[tuple[str, str]]:
    return [
        (path.name, tag)
        for path in sorted(TEMPLATES.glob("*.html"))
        for tag in FORM.findall(path.read_text())
    ]


def test_the_templates_hold_forms():
    assert len([tag for _, tag in _forms() if "hx-post" in tag]) >= 10


@pytest.mark.parametrize(("template", "tag"), [f for f in _forms() if "hx-post" in f[1]])
def test_an_htmx_post_form_posts_without_the_script_too(template, tag):
    hx = re.search(r'hx-post="([^"]*)"', tag)
    assert hx is not None
    assert 'method="post"' in tag, f"{template}: {tag}"
    assert f'action="{hx.group(1)}"' in tag, f"{template}: {tag}"
