# Two commands do everything on a fresh machine:
#   make demo   virtual display + a real clone + the bot playing it
#   make test   ruff, mypy and the whole test suite (real clones under Xvfb)
# Both create .venv and install what they need (apt packages included).

VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
WEB    := $(VENV)/web
# The web clone msbot's tests play, from npm, at a fixed version.
WEB_PACKAGES := minesweeper-for-web@3.0.4

.PHONY: all demo test lint typecheck pytest system-deps venv clean

all: test

system-deps:
	@bash scripts/install-system-deps

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

$(WEB)/.installed: scripts/web/*.html Makefile
	mkdir -p $(WEB)
	npm install --silent --no-audit --no-fund --prefix $(WEB) $(WEB_PACKAGES)
	cp scripts/web/*.html $(WEB)/
	touch $@

venv: system-deps $(STAMP) $(WEB)/.installed

lint: venv
	$(VENV)/bin/ruff check bot vision tests benchmarks scripts
	$(VENV)/bin/ruff format --check bot vision tests benchmarks scripts

typecheck: venv
	$(VENV)/bin/mypy

pytest: venv
	$(VENV)/bin/pytest -q

test: lint typecheck pytest

demo: venv
	$(PY) scripts/demo.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
