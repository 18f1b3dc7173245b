# `make run` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := src/rummykit

.PHONY: run serve play test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[cli]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The main job: the web server with its defaults (SQLite in the user's data folder); prints its URL.
run: serve

# The terminal game: you against two bots.
play: $(VENV)/.installed-run
	$(BIN)/rummykit play

$(VENV)/.installed-web: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[web]'
	touch $@

# Play in the browser: prints the URL (http://127.0.0.1:8000/ unless HOST/PORT are given).
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(VENV)/.installed-web
	$(BIN)/rummykit serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict $(CORE)
	$(BIN)/python -m pytest src tests README.md

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/solver.py
	$(BIN)/python benchmarks/playout.py

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
