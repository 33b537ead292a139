"""HTTP routes of Toquilla Trace, mounted at /workshop by the main app."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from shopfloor.settings import Settings
from shopfloor.web.errors import install_error_handlers


def create_app(settings: Settings) -> FastAPI:
    """The Toquilla Trace sub-app."""
    app = FastAPI(title="Toquilla Trace", docs_url=None, redoc_url=None)
    install_error_handlers(app)

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return "<!doctype html><title>Toquilla Trace</title><h1>Toquilla Trace</h1><p>Coming soon.</p>"

    return app
