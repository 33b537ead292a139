# The README's two commands are `make run` and `make test`; the rest are helpers.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Page message catalogues of both apps and of the server's landing page: .po files in git, .mo files built
# here (docs/workshop-pages.md, docs/shifts-agent.md, docs/deploy.md). Each one's strings are extracted with its
# own babel.cfg into its own locale/.
LOCALE := src/shopfloor/workshop/locale
SHIFTS_LOCALE := src/shopfloor/shifts/locale
SERVER_LOCALE := src/shopfloor/server/locale
MO := $(patsubst %.po,%.mo,$(wildcard $(LOCALE)/*/LC_MESSAGES/messages.po $(SHIFTS_LOCALE)/*/LC_MESSAGES/messages.po $(SERVER_LOCALE)/*/LC_MESSAGES/messages.po))

.PHONY: run test quick docs-check lint typecheck pytest bench eval install clean catalogues messages screenshots

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) catalogues

catalogues: $(MO)

%.mo: %.po $(STAMP)
	$(BIN)/pybabel compile --statistics -i $< -o $@

# After changing page strings: extract them and merge into each language's .po, then translate and commit.
messages: $(STAMP)
	mkdir -p var
	$(BIN)/pybabel extract -F src/shopfloor/workshop/pages/babel.cfg -k NN_:1,2 --add-location=file -o var/messages.pot .
	$(BIN)/pybabel update -i var/messages.pot -d $(LOCALE) -D messages --no-fuzzy-matching
	$(BIN)/pybabel extract -F src/shopfloor/shifts/pages/babel.cfg -k NN_:1,2 -k NP_:1c,2 --add-location=file -o var/shifts-messages.pot .
	$(BIN)/pybabel update -i var/shifts-messages.pot -d $(SHIFTS_LOCALE) -D messages --no-fuzzy-matching
	$(BIN)/pybabel extract -F src/shopfloor/server/babel.cfg --add-location=file -o var/server-messages.pot .
	$(BIN)/pybabel update -i var/server-messages.pot -d $(SERVER_LOCALE) -D messages --no-fuzzy-matching

# Rewrites docs/screenshots/ from the browser tests.
screenshots: $(STAMP) catalogues
	SHOPFLOOR_SCREENSHOTS=1 $(BIN)/pytest -q tests/e2e

run: $(STAMP) catalogues
	$(BIN)/shopfloor prepare
	$(BIN)/shopfloor serve

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Every test; the last lines say how many browser tests ran (or why they were skipped: tests/conftest.py).
pytest: $(STAMP) catalogues
	$(BIN)/pytest -q

# The quick loop while working: lint, types and the tests not marked slow (no browser, no server processes).
quick: lint typecheck $(STAMP) catalogues
	$(BIN)/pytest -q -m "not slow"

# The docs checked against the code (tests/test_docs.py): routes, errors, packages, settings, citations.
docs-check: $(STAMP)
	$(BIN)/pytest -q tests/test_docs.py

bench: $(STAMP) catalogues
	$(BIN)/python -m shopfloor.bench

eval: $(STAMP)
	$(BIN)/shopfloor prepare
	$(BIN)/shopfloor eval workshop
	$(BIN)/shopfloor eval shifts

clean:
	rm -rf var .mypy_cache .ruff_cache
