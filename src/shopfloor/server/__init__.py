"""The composition root above both apps: the one ASGI app, its health checks and the HTTP server's limits."""
