# Quick start: `make serve` (install, build, preview with live reload) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Extra build options, for example: make build BUILD_FLAGS="--base-url https://example.org/dossier/"
BUILD_FLAGS ?=
# The preview's address: make serve PORT=8001 (HOST=0.0.0.0 shows it to other machines)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install lock build check serve test bench clean

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

test: install
	$(PY) -m pytest -q

# Not part of `make test`: builds synthetic projects of 1,000 and 10,000 entities (slow; see README).
bench: install
	$(PY) benchmarks/run.py

clean:
	rm -rf site .site.* .dossier-cache
