# Quick start: `make serve` (install, build, preview with live reload) and `make test` (lint, then every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Extra build options, for example: make build BUILD_FLAGS="--base-url https://example.org/dossier/"
BUILD_FLAGS ?=
# The preview's address: make serve PORT=8001 (HOST=0.0.0.0 shows it to other machines)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install lock build check serve lint test bench docs clean messages-extract messages-update messages-compile

# Installs the exact versions requirements.lock pins, then dossier itself (its dependencies are in the lock).
# setuptools tells of every editable install of a package that sits beside other files, in a banner
# that asks nothing of us; the warnings filter leaves out that one notice, and only it.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

install: $(STAMP)
	$(MAKE) --no-print-directory messages-compile

# The interface's translations (dossier/locale/<lang>/LC_MESSAGES/dossier.po): gather the strings of the
# templates, scripts and dossier/model/i18n.py (babel.cfg) into dossier.pot, bring each language's .po up to
# date with it (then translate what is new), and compile the .mo files gettext reads. The .mo files
# are not committed: install compiles them, and so does a build that finds one missing or stale.
LOCALE_DIR := dossier/locale
messages-extract: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ --project dossier --no-wrap --sort-by-file -o $(LOCALE_DIR)/dossier.pot .

messages-update: messages-extract
	$(VENV)/bin/pybabel update -i $(LOCALE_DIR)/dossier.pot -d $(LOCALE_DIR) -D dossier --no-wrap --no-fuzzy-matching --ignore-obsolete

messages-compile: $(STAMP)
	$(VENV)/bin/pybabel compile -d $(LOCALE_DIR) -D dossier

# Pin every dependency (and the test extras) again at the newest versions pyproject.toml allows,
# for every platform; run after changing a dependency, or to upgrade, and commit requirements.lock.
lock: install
	$(PY) -m pip install --quiet 'uv>=0.5'
	$(VENV)/bin/uv pip compile --upgrade --universal --python-version 3.11 --extra test --output-file requirements.lock pyproject.toml

build: install
	$(PY) build.py build $(BUILD_FLAGS)

check: install
	$(PY) build.py check --strict

# DOSSIER_VIA_MAKE tells dossier to suggest `make serve PORT=...` rather than `--port ...`.
serve: install
	DOSSIER_VIA_MAKE=1 $(PY) build.py serve --host $(HOST) --port $(PORT)

# The linter and the type checker, as pyproject.toml configures them: ruff over every Python file,
# mypy over the dossier package and build.py. `make test` runs them first, and fails on any finding.
lint: install
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/mypy

test: install lint
	$(PY) -m pytest -q

# The documentation (docs/) as a site, in site-docs/: MkDocs, strictly (a broken link or anchor fails).
docs: install
	$(VENV)/bin/mkdocs build --strict --quiet

# Not part of `make test`: builds synthetic projects of 1,000 and 10,000 entities (slow; see docs/benchmarks.md).
bench: install
	$(PY) benchmarks/run.py

clean:
	rm -rf site .site.* .dossier-cache site-docs
