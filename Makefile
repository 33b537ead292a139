# The README's two commands are `make run` and `make test`; the rest are helpers.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench eval install clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/shopfloor prepare
	$(BIN)/shopfloor serve

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python -m shopfloor.bench

eval: $(STAMP)
	$(BIN)/shopfloor prepare
	$(BIN)/shopfloor eval workshop
	$(BIN)/shopfloor eval shifts

clean:
	rm -rf var .mypy_cache .ruff_cache
