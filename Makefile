# The README's commands. Each installs what it needs first (scripts/install-deps).
SWIFT ?= swift
BIN := .build/debug/showreel

.PHONY: demo test build deps bench clean

## Record the demo on an in-process device into Recordings/ (videos and report).
demo: deps
	$(SWIFT) build --product showreel
	$(BIN) demo --output Recordings

## Build once, then run every test (unit, wire, end to end with real processes).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps

clean:
	rm -rf .build Recordings/*.mov Recordings/*.mp4 Recordings/*.html

## Benchmarks (release build): recorder vs the ffmpeg command line, render cost, display stream.
bench: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --product showreel-bench
	.build/release/showreel-bench
