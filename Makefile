# Caffe — the two commands a newcomer needs:
#   make demo   run the main job on the embedded default config
#   make test   build and pass the tests
# Both install what the machine is missing first (libzmq3-dev, via apt-get). CI also runs
#   make readme-test   every shell command in README.md, as written

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# curl and procps (pgrep): the README's worker commands, which make readme-test runs.
APT_PACKAGES := libzmq3-dev pkg-config python3-venv python3-yaml protobuf-compiler hunspell hunspell-fr-comprehensive \
	hunspell-de-de hunspell-it hunspell-pt-br hunspell-es hunspell-en-us hunspell-pl hunspell-ru curl procps
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
PYTHON ?= python3
CLIENT_VENV := .build/python-client
CLIENT_STAMP := $(CLIENT_VENV)/.installed
CLIENT_FILES := $(shell find clients/python/caffe_client -type f -not -path '*/__pycache__/*') clients/python/pyproject.toml

.PHONY: demo test build bench deps release protos lint clean help python-test multihost reshard-test chaos report-screenshot diff-report lexicons \
	fuzz fuzz-smoke fuzz-build fuzz-seeds readme-test deploy-check dist dist-test image image-test docs-test schema-check

# Fuzzing (Fuzz/, CONTRIBUTING.md): seconds per fuzzer, which fuzzers (all when empty), and
# more libFuzzer flags for the long run.
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_SECONDS ?= 600
FUZZERS ?=
FUZZ_FLAGS ?=

help:
	@echo "make demo    run caffe-sim demo (installs libzmq3-dev if missing)"
	@echo "make test    run every test (Swift, then the Python client's against a real worker)"
	@echo "make readme-test  run every shell command in README.md as written (release build, ~5 min)"
	@echo "make dist    a tarball that runs without the Swift toolchain (.build/dist/); make dist-test runs it in a bare Debian root"
	@echo "make image   an OCI image of the release (.build/image/*.oci.tar); make image-test inspects and runs it"
	@echo "make deploy-check  validate deploy/: dashboards, alert rules (promtool, runbook links), Kubernetes overlays (kubernetes-validate, restricted pods, checkov), the upgrade (offline)"
	@echo "make multihost  five hosts in network namespaces: a worker host partitioned, one killed (root)"
	@echo "make reshard-test  three shards become four while orders flow, behind a partitioning proxy (root); the Kubernetes reshard script's steps"
	@echo "make bench   print the performance figures beside their baselines (release build)"
	@echo "make protos  regenerate Sources/CaffeProtocol/Generated and the Python client's modules"
	@echo "make lexicons  recompile the grammar lexicons from their dictionaries (Scripts/lexicons)"
	@echo "make lint    check formatting with swift format"
	@echo "make chaos   kill, stop, starve and attack real workers; print the reliability table"
	@echo "make report-screenshot  a load report rendered in headless Chromium (.build/report/*.png)"
	@echo "make diff-report  caffe-sim diff's HTML report rendered and checked in headless Chromium (.build/report)"
	@echo "make schema-check  buf lint and breaking, generator options, services vs WIRE.md, generated Go builds (CI)"
	@echo "make fuzz-smoke   build the libFuzzer targets (Fuzz/) and run each for $(FUZZ_SMOKE_SECONDS) s (CI)"
	@echo "make fuzz FUZZ_SECONDS=3600 [FUZZERS=fuzz-markdown]   the long run, one fuzzer at a time"

# Installs the Debian packages in $(1) that the machine is missing.
define install_missing
	@missing=""; \
	for package in $(1); do \
		dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "caffe: installing missing system packages:$$missing (apt-get)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install_missing,$(APT_PACKAGES))

# promtool (Debian's prometheus package) and the Python modules Scripts/check-deploy.py uses;
# kubernetes-validate (PyPI) in its own virtual environment. kubectl must be installed.
DEPLOY_APT_PACKAGES := prometheus python3-jsonschema python3-yaml

# A release that runs without the Swift toolchain (Scripts/dist.sh), and its test in a minimal
# Debian root made with debootstrap (Scripts/dist-test.sh; root).
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/CaffeCore/CaffeVersion.swift)
DIST_TARBALL := .build/dist/caffe-$(VERSION)-linux-$(shell uname -m).tar.gz
DIST_APT_PACKAGES := binutils debootstrap

dist: deps
	$(call install_missing,$(DIST_APT_PACKAGES))
	SWIFT=$(SWIFT) Scripts/dist.sh

dist-test: dist
	Scripts/dist-test.sh $(DIST_TARBALL)

# An OCI image of the release (Scripts/image.sh: podman import of the minimal root, no registry)
# and its test: config and layer read back with skopeo, then run with podman (root).
IMAGE_APT_PACKAGES := podman skopeo runc uidmap
IMAGE_ARCHIVE := .build/image/caffe-$(VERSION).oci.tar

image: dist
	$(call install_missing,$(IMAGE_APT_PACKAGES))
	Scripts/image.sh $(DIST_TARBALL)

image-test: image
	Scripts/image-test.sh $(IMAGE_ARCHIVE) $(DIST_TARBALL)

# The wire schema's gate (docs/WIRE.md "Generating a client"): buf lint, buf breaking against the
# last released schema, generator options on every file, service blocks as WIRE.md lists the
# methods, and Go generated by Debian's protoc-gen-go built and vetted. The Buf CLI from PyPI.
BUF_VENV := .build/buf-venv
SCHEMA_APT_PACKAGES := protobuf-compiler protoc-gen-go golang-go golang-google-protobuf-dev

schema-check:
	$(call install_missing,$(SCHEMA_APT_PACKAGES))
	@[ -x $(BUF_VENV)/bin/buf ] || { /usr/bin/python3 -m venv $(BUF_VENV) && \
		$(BUF_VENV)/bin/pip install --quiet buf-bin==1.75.0; }
	/usr/bin/python3 Scripts/check-schema.py --buf $(BUF_VENV)/bin/buf

# The dashboards, alert rules and their unit tests, the Kubernetes overlays (checkov among the
# checks) and the rollout over the released manifests, in deploy/, checked offline.
DEPLOY_VENV := .build/deploy-venv
CHECKOV_VERSION := 3.3.30

deploy-check:
	$(call install_missing,$(DEPLOY_APT_PACKAGES))
	@[ -x $(DEPLOY_VENV)/bin/kubernetes-validate ] && [ -x $(DEPLOY_VENV)/bin/checkov ] || \
		{ /usr/bin/python3 -m venv $(DEPLOY_VENV) && \
		$(DEPLOY_VENV)/bin/pip install --quiet kubernetes-validate checkov==$(CHECKOV_VERSION); }
	/usr/bin/python3 Scripts/check-deploy.py --promtool /usr/bin/promtool \
		--kubernetes-validate $(DEPLOY_VENV)/bin/kubernetes-validate --checkov $(DEPLOY_VENV)/bin/checkov
	/usr/bin/python3 Scripts/check-upgrade.py

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) build -c release --product caffe
	$(SWIFT) build -c release --product caffe-sim
	.build/release/caffe-sim demo

# One test at a time: many tests block a thread on real worker processes for seconds, and on a
# 2-core machine Swift's cooperative pool has two threads, which async tests beside them need.
test: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) Scripts/swift-tests.sh
	$(MAKE) --no-print-directory python-test
	$(MAKE) --no-print-directory docs-test

# The docs that describe the code, checked against it: the layout (README "What is here",
# ARCHITECTURE "Layout") against Package.swift and the folders.
docs-test:
	SWIFT=$(SWIFT) $(PYTHON) -m unittest discover -s Scripts/tests -p 'test_*.py'

# Every shell command in README.md, run as written against the release products
# (Scripts/readme-commands.py). `demo` builds them ($(SWIFT) build -c release --product caffe,
# caffe-sim) and is the README's first command.
readme-test: demo
	$(PYTHON) Scripts/readme-commands.py --bin .build/release

# The Python client (clients/python), installed with pip from the repository into its own
# virtual environment, tested against the caffe binary the build above made.
$(CLIENT_STAMP): clients/python/requirements-test.txt $(CLIENT_FILES)
	@[ -x $(CLIENT_VENV)/bin/python ] || { echo "caffe: creating $(CLIENT_VENV)"; $(PYTHON) -m venv $(CLIENT_VENV); }
	@$(CLIENT_VENV)/bin/python -m pip install -q --disable-pip-version-check -r clients/python/requirements-test.txt
	@$(CLIENT_VENV)/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation \
		--force-reinstall ./clients/python
	@touch $@

python-test: deps $(CLIENT_STAMP)
	clients/python/generate_protos.sh --check
	cd clients/python && CAFFE_BIN=$(CURDIR)/.build/debug/caffe CAFFE_CLIENT_INSTALLED=1 \
		$(CURDIR)/$(CLIENT_VENV)/bin/pytest -q -p no:cacheprovider

lexicons:
	Scripts/lexicons/build.sh

release: deps
	$(SWIFT) build -c release

bench: release
	.build/release/caffe-sim bench transport
	.build/release/caffe-sim bench catalog
	.build/release/caffe-sim bench richtext
	.build/release/caffe-sim bench agreement
	.build/release/caffe-sim bench core
	.build/release/caffe-sim bench worker

chaos: release
	.build/release/caffe-sim chaos

report-screenshot: deps
	Scripts/report-screenshot.sh

diff-report: deps
	Scripts/diff-report.sh

# Five hosts (source, proxy, two workers, consumer) in network namespaces; needs root.
multihost: deps $(CLIENT_STAMP)
	$(SWIFT) build --product caffe
	$(SWIFT) build --product caffe-sim
	$(CLIENT_VENV)/bin/python deploy/multihost/multihost.py --bin .build/debug

reshard-test: deps $(CLIENT_STAMP)
	$(SWIFT) build --product caffe
	$(SWIFT) build --product caffe-sim
	$(CLIENT_VENV)/bin/python deploy/multihost/reshard.py --bin .build/debug
	$(PYTHON) -m unittest Scripts/tests/test_reshard_job.py

protos: deps
	Scripts/generate-protos.sh
	clients/python/generate_protos.sh

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Simulator Fuzz/Package.swift Fuzz/Sources

fuzz-build: deps
	SWIFT=$(SWIFT) Fuzz/Scripts/run-fuzzers.sh --build-only

fuzz-smoke: deps
	SWIFT=$(SWIFT) Fuzz/Scripts/run-fuzzers.sh --seconds $(FUZZ_SMOKE_SECONDS) --fresh $(FUZZERS)

fuzz: deps
	SWIFT=$(SWIFT) FUZZ_FLAGS="$(FUZZ_FLAGS)" Fuzz/Scripts/run-fuzzers.sh --seconds $(FUZZ_SECONDS) $(FUZZERS)

# Rewrites Fuzz/Seeds from the fixtures; review the diff before committing.
fuzz-seeds: fuzz-build
	python3 Fuzz/Scripts/make-seeds.py
	ASAN_OPTIONS=detect_leaks=0 Fuzz/.build/release/fuzz-seeds

clean:
	rm -rf .build Fuzz/.build
