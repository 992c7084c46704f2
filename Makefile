# Quick start: `make serve` (install, build, preview with live reload) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Extra build options, for example: make build BUILD_FLAGS="--base-url https://example.org/dossier/"
BUILD_FLAGS ?=

.PHONY: install build check serve test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

build: install
	$(PY) build.py build $(BUILD_FLAGS)

check: install
	$(PY) build.py check --strict

serve: install
	$(PY) build.py serve

test: install
	$(PY) -m pytest -q

# Not part of `make test`: builds synthetic projects of 1,000 and 10,000 entities (slow; see README).
bench: install
	$(PY) benchmarks/run.py

clean:
	rm -rf site .site.* .dossier-cache
