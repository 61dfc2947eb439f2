# Caffe — the two commands a newcomer needs:
#   make demo   run the main job on the embedded default config
#   make test   build and pass the tests
# Both install what the machine is missing first (libzmq3-dev, via apt-get).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
APT_PACKAGES := libzmq3-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: demo test build bench deps release protos lint clean help chaos report-screenshot

help:
	@echo "make demo    run caffe-sim demo (installs libzmq3-dev if missing)"
	@echo "make test    run every test"
	@echo "make bench   print the performance figures beside their baselines (release build)"
	@echo "make protos  regenerate Sources/CaffeProtocol/Generated from the .proto files"
	@echo "make lint    check formatting with swift format"
	@echo "make chaos   kill, stop, starve and attack real workers; print the reliability table"
	@echo "make report-screenshot  a load report rendered in headless Chromium (.build/report/*.png)"

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "caffe: installing missing system packages:$$missing (apt-get)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

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
	$(SWIFT) test --skip-build --no-parallel

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

protos: deps
	Scripts/generate-protos.sh

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Simulator

clean:
	rm -rf .build
