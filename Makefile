# Two entry points for a fresh Linux machine: `make run` and `make test`.
# Both create .venv (if missing or stale) and install the project from pyproject.toml.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-pi pi-emulated demo docs docs-images docs-serve lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The Raspberry Pi's own libraries (.ci/pi-constraints.txt: Bookworm's numpy and OpenCV) in a
# second virtualenv: the vision tests and the vision bench's quick mode must pass there too.
PI_PYTHON ?= $(shell command -v python3.11 || command -v $(PYTHON))
PI_VENV ?= .venv-pi
PI_STAMP := $(PI_VENV)/.installed
REAL_CARDS ?= ../shared/datasets/real-cards

$(PI_STAMP): pyproject.toml .ci/pi-constraints.txt
	$(PI_PYTHON) -m venv $(PI_VENV)
	$(PI_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PI_VENV)/bin/python -m pip install --quiet -c .ci/pi-constraints.txt -e '.[dev]'
	touch $(PI_STAMP)

run: $(STAMP)
	$(BIN)/tablekeeper run --sim

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q

test-pi: $(PI_STAMP)
	$(PI_VENV)/bin/python -c 'import sys, numpy, cv2; print("Pi stack: Python", sys.version.split()[0], "numpy", numpy.__version__, "OpenCV", cv2.__version__)'
	$(PI_VENV)/bin/tablekeeper bench vision --quick $(if $(wildcard $(REAL_CARDS)/gallery),--real $(REAL_CARDS))
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PI_VENV)/bin/python -m pytest -q tests/test_vision_*.py

# Development only, not part of `make test` (root; minutes per release): arm64 Bookworm and Trixie
# roots under qemu-user, install.sh's plan and venv inside, the project from wheels, the tests
# under emulation (systemd/pi-emulated.sh). PI_TESTS="all" or test files; PI_RELEASES="trixie".
PI_TESTS ?=
PI_RELEASES ?= bookworm trixie
pi-emulated:
	systemd/pi-emulated.sh $(foreach release,$(PI_RELEASES),--release $(release)) \
		$(if $(PI_TESTS),--tests $(PI_TESTS))

demo: $(STAMP)
	$(BIN)/tablekeeper demo

# The manual: docs/*.md built into site/ with mkdocs --strict (a broken link or a missing page
# fails). Its screenshots are drawn fresh by `tablekeeper demo` into docs/images/demo/ first.
docs-images: $(STAMP)
	rm -rf docs/images/demo
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/tablekeeper demo --out docs/images/demo >/dev/null

docs: docs-images
	$(BIN)/mkdocs build --strict
	@echo "the manual is in site/ (open site/index.html)"

docs-serve: docs-images
	$(BIN)/mkdocs serve

lint: $(STAMP)
	$(BIN)/ruff check device vision games display tests
	$(BIN)/mypy device vision games display

clean:
	rm -rf $(VENV) build *.egg-info site docs/images/demo
