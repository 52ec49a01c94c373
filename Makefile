# Phantom — the two commands: `make demo` (the main job) and `make test`;
# `make lint` runs the checks (docs/LINT.md). All three bootstrap everything
# on a fresh Debian 12 machine, idempotently: Debian packages (only those
# missing), the venv at .venv made from /usr/bin/python3
# --system-site-packages (Debian's pyatspi and PyGObject are not on PyPI),
# and the pinned pip packages (reinstalled only when requirements.txt,
# constraints.txt or pyproject.toml change).

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PIP_STAMP := $(VENV)/.pip-$(shell cat requirements.txt constraints.txt pyproject.toml | sha256sum | cut -c1-16)

APT_PACKAGES := xvfb xauth x11-utils xdotool dbus dbus-x11 at-spi2-core \
	python3-pyatspi gir1.2-atspi-2.0 python3-gi gir1.2-gtk-3.0 python3-venv python3-pip \
	python3-dev gcc libglib2.0-bin x11-xserver-utils gtk-3-examples openbox systemd \
	mousepad gnome-calculator firefox-esr python3-pyqt5 tesseract-ocr tesseract-ocr-eng \
	python3-gi-cairo

.PHONY: demo test lint bench bootstrap apt clean help

help:
	@echo "make demo   - run Phantom end to end on a private virtual desktop"
	@echo "make test   - run the test suite (starts its own Xvfb, D-Bus and AT-SPI)"
	@echo "make lint   - ruff, mypy (strict on core and compiler) and the import contracts"
	@echo "make bench  - run the benchmarks and print their figures"

demo: bootstrap
	$(VENV)/bin/phantom demo

test: bootstrap
	$(PY) -m pytest

# Seconds, not minutes: ruff over the tree, mypy on the store and the
# compiler (strict: pyproject.toml), the import contracts (docs/LINT.md).
lint: bootstrap
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy -p core -p compiler
	$(VENV)/bin/lint-imports --no-cache

bench: bootstrap
	$(PY) bench/run_all.py

bootstrap: apt $(PIP_STAMP)

apt:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(PIP_STAMP): requirements.txt constraints.txt pyproject.toml
	@test -x $(PY) || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt -c constraints.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	@rm -f $(VENV)/.pip-*
	@touch $@

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
