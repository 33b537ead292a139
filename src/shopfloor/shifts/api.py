"""HTTP routes of Shift Investigator, mounted at /shifts by the main app."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from shopfloor.settings import Settings
from shopfloor.web.errors import install_error_handlers


def create_app(settings: Settings) -> FastAPI:
    """The Shift Investigator sub-app."""
    app = FastAPI(title="Shift Investigator", docs_url=None, redoc_url=None)
    install_error_handlers(app)

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return (
            "<!doctype html><title>Shift Investigator</title><h1>Shift Investigator</h1><p>Coming soon.</p>"
        )

    return app
