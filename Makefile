# The README's commands. Each installs what it needs first (scripts/install-deps).
SWIFT ?= swift
BIN := .build/debug/showreel

PREFIX ?= /usr/local

.PHONY: demo test build deps bench clean format lint install

## Run the flows in Fixtures/Flows, one in-process device each, into Recordings/
## (a video per flow, report.html, junit.xml, manifest.json).
demo: deps
	$(SWIFT) build --product showreel
	$(BIN) run Fixtures/Flows --output Recordings

## Build once, then run every test (unit, wire, end to end with real processes). The release
## build of the sample apps is what the release-symbol test inspects; built here, before the
## tests run in parallel, it is a quick check inside the suite. The browser suite's test runs
## pytest, Selenium and the pytest plugin from .build/venv (scripts/browser-venv); the WebDriver
## suite's test runs Tests/WebDriverSuite with Appium's Python client from there too. Last, the
## README's matrix example as written: every flow of Fixtures/Flows in all 16 cells (a run of its
## own: inside the Swift suite it held one of Swift Testing's few test slots for minutes). Then
## the `showreel init` proof, also a run of its own for the same reason: a package generated
## against this checkout, built once (a second build of Showreel, in .build/init-proof), its
## flows, tests and an Appium session run.
##
## At most TEST_WIDTH test cases run at once. Unbounded, Swift Testing starts every one of them
## together; on 2 cores Swift's cooperative pool (one thread per core, first come first served)
## then queued a minute of work, every await waited its turn behind it, and requests to servers
## inside the test process timed out. 12 keeps the machine busy and the queue short.
INIT_PROOF := generatedPackageRuns
TEST_WIDTH ?= 12
test: deps
	scripts/browser-venv
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --target ShowcaseApps --scratch-path .build-release-check -Xswiftc -Onone
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --skip $(INIT_PROOF)
	rm -rf .build/readme-matrix
	$(BIN) run Fixtures/Flows --language en,de,ja,ar --device phone,tablet-13 --appearance light,dark --output .build/readme-matrix
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --filter $(INIT_PROOF)

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps

## A release `showreel` in $(PREFIX)/lib/showreel with its resources (the sample apps' data and
## strings), started by $(PREFIX)/bin/showreel: `make install PREFIX=$HOME/.local` installs
## without root.
install: deps
	$(SWIFT) build -c release --product showreel
	rm -rf "$(DESTDIR)$(PREFIX)/lib/showreel"
	install -d "$(DESTDIR)$(PREFIX)/lib/showreel" "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 .build/release/showreel "$(DESTDIR)$(PREFIX)/lib/showreel/showreel"
	for bundle in .build/release/*.resources .build/release/*.bundle; do \
	  if [ -e "$$bundle" ]; then cp -R "$$bundle" "$(DESTDIR)$(PREFIX)/lib/showreel/"; fi; \
	done
	printf '#!/bin/sh\nexec "%s" "$$@"\n' "$(PREFIX)/lib/showreel/showreel" > "$(DESTDIR)$(PREFIX)/bin/showreel"
	chmod 0755 "$(DESTDIR)$(PREFIX)/bin/showreel"
	@echo "Installed $(PREFIX)/bin/showreel"

clean:
	rm -rf .build Recordings/*.mov Recordings/*.mp4 Recordings/*.html Recordings/*.png Recordings/*.json Recordings/*.xml

## Benchmarks (release build): the recorder against libx264 alone and the ffmpeg command line, suites,
## flows, matrix, render cost, display stream; each target PASS or FAIL (`showreel-bench --help`).
bench: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --product showreel
	$(SWIFT) build -c release --product showreel-bench
	.build/release/showreel-bench

## Format the sources in place with the toolchain's swift-format (.swift-format: 4 spaces, 140 columns).
format:
	$(SWIFT) format -i -r Sources Tests Benchmarks Package.swift

## Check the sources against .swift-format without changing them.
lint:
	$(SWIFT) format lint -r Sources Tests Benchmarks Package.swift
