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

# Debian packages, in two lists (testbed/executables.py names the package of
# every program a test starts, and tests/test_executables_registry.py holds it
# to these lists). The base: the virtual desktop and the venv's build tools
# — what `make demo` and `make lint` need, seconds to install.
APT_BASE := xvfb xauth x11-utils xdotool dbus dbus-x11 at-spi2-core \
	python3-pyatspi gir1.2-atspi-2.0 python3-gi gir1.2-gtk-3.0 python3-venv python3-pip \
	python3-dev gcc libglib2.0-bin x11-xserver-utils
# The test applications: the real apps, window managers and tools that
# `make test` and `make bench` drive (minutes and hundreds of MB on a fresh
# machine, so the demo and the checks do not wait for them).
APT_TEST := gtk-3-examples gtk-4-examples openbox mousepad gnome-calculator gnome-terminal firefox-esr \
	python3-pyqt5 python3-gi-cairo tesseract-ocr tesseract-ocr-eng systemd bubblewrap util-linux \
	chromium chromium-driver faketime sway grim wtype xwayland

.PHONY: demo test test-load lint bench bootstrap bootstrap-test apt-base apt-test clean help

help:
	@echo "make demo   - run Phantom end to end on a private virtual desktop"
	@echo "make test   - run the test suite (starts its own Xvfb, D-Bus and AT-SPI)"
	@echo "make lint   - ruff, mypy (strict on core, compiler and programs) and the import contracts"
	@echo "make test-load - the replay-trust and capture-truth tests with the CPU busy"
	@echo "make bench  - run the benchmarks and print their figures"

demo: bootstrap
	$(VENV)/bin/phantom demo

test: bootstrap-test
	$(PY) -m pytest

# The replay-trust and capture-truth desktop tests again, with as many busy
# processes as twice the cores (a laptop during a build or a video call):
# replay waits on the desktop, not on the clock (tests/conftest.py, --load).
test-load: bootstrap-test
	$(PY) -m pytest --load tests/replay/test_replay_trust.py tests/capturer/test_capture_truth.py

# Seconds, not minutes: ruff over the tree, mypy on the store, the
# compiler and program memory (strict: pyproject.toml), the import contracts (docs/LINT.md).
# Every shipped package; mypy checks each strictly (docs/LINT.md).
PY_PACKAGES := core compiler programs capturer cli testbed synth replay mcp_bridge web

lint: bootstrap
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict $(addprefix -p ,$(PY_PACKAGES))
	$(VENV)/bin/lint-imports --no-cache

bench: bootstrap-test
	$(PY) bench/run_all.py

bootstrap: apt-base $(PIP_STAMP)
bootstrap-test: apt-base apt-test $(PIP_STAMP)

apt-base:
	@$(MAKE) -s --no-print-directory apt-install PACKAGES="$(APT_BASE)"
apt-test:
	@$(MAKE) -s --no-print-directory apt-install PACKAGES="$(APT_TEST)"

# Installs what of $(PACKAGES) is missing (nothing at all when none is);
# waits for another apt to finish rather than failing on its lock.
apt-install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  $$sudo apt-get -o DPkg::Lock::Timeout=900 update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
	    --no-install-recommends $$missing; \
	fi

$(PIP_STAMP): requirements.txt constraints.txt pyproject.toml
	@test -x $(PY) || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt -c constraints.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	@rm -f $(VENV)/.pip-*
	@touch $@

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
