# The two commands a fresh machine needs (README):  make run  ·  make test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

run: $(STAMP)
	@packaging/linux/system-deps.sh
	$(BIN)/hermes-desktop

test: $(STAMP)
	@packaging/linux/system-deps.sh --tests
	PYTHON=$(BIN)/python tests/run_suite.sh

bench: $(STAMP)
	$(BIN)/python -m tests.benchmarks

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info
