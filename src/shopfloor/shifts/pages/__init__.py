"""The Shift Investigator page: templates, static files, the guard of every /shifts route, the runner."""
