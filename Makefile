# Two commands do everything on a fresh machine:
#   make demo   virtual display + a real clone + the bot playing it
#   make test   ruff, mypy and the whole test suite (real clones under Xvfb)
# and, while working:
#   make check  ruff, mypy and every test that needs no display (a minute and a half)
# All three create .venv and install what they need (apt packages included).

VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
WEB    := $(VENV)/web
# The web clone msbot's tests play, from npm, at a fixed version.
WEB_PACKAGES := minesweeper-for-web@3.0.4

# Python's bytecode caches, even where the environment turns them off
# (PYTHONDONTWRITEBYTECODE): without them every test worker rewrites and
# compiles every test module again (2 s of each worker's start) and every
# msbot process the suite starts compiles msbot.
unexport PYTHONDONTWRITEBYTECODE

# pytest-xdist workers for `make test`: one per core and one more by default.
# The tests that take the suite's time wait on real clones and Xvfb (a core
# was idle 40 % of a two-worker run, load 1.2 on 2 cores), so a third worker
# on 2 cores fills that wait: 5 min 48 s of pytest against 7 min 45 s, the
# same tests, back to back. (Its load once made KMines' win dialog come up
# under a learning click, which stopped the run: the click check now reads
# the screen again when the window under a click is the clone's own.) Each
# test that needs a screen starts an Xvfb of its own, in its worker's block of
# display numbers. `make check`'s tests are CPU-bound: one worker per core,
# unless JOBS is given.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

.PHONY: all demo test check lint typecheck pytest quick-pytest system-deps venv clean

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
	$(VENV)/bin/ruff check bot vision harness tests benchmarks scripts
	$(VENV)/bin/ruff format --check bot vision harness tests benchmarks scripts

typecheck: venv
	$(VENV)/bin/mypy

pytest: venv
	$(VENV)/bin/pytest -q -n $(JOBS) --maxschedchunk 1

# The tests marked `display` (set for every test using a display fixture) are
# left out; MSBOT_TEST_NO_DISPLAY makes an unmarked test that starts Xvfb fail.
quick-pytest: venv
	MSBOT_TEST_NO_DISPLAY=1 $(VENV)/bin/pytest -q -m "not display" \
		-n $(if $(filter command line environment,$(origin JOBS)),$(JOBS),auto)

test: lint typecheck pytest

check: lint typecheck quick-pytest

demo: venv
	$(PY) scripts/demo.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
