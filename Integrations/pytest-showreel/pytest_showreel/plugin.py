"""pytest-showreel: each test recorded into its own video by `showreel io <display>
recordVideo`, launched and interrupted through the tunnel host's /v1 API."""
import os
import re
import time
import warnings

import pytest

from .host import HostError, Recording, TunnelHost
from .manifest import Manifest, entry

DEFAULT_HOST = "http://127.0.0.1:8667"
MODES = ("on", "retain-on-failure", "off")


class ShowreelWarning(UserWarning):
    """A test ran without its recording (the host is down, the recorder failed)."""


def pytest_addoption(parser):
    group = parser.getgroup("showreel", "recording tests with Showreel")
    group.addoption("--showreel-record", choices=MODES, default="off",
                    help="record each test: on, retain-on-failure (keep failing tests' videos) or off (default)")
    group.addoption("--showreel-display", default=None, help="the X display to record, e.g. :99 (default: $DISPLAY)")
    group.addoption("--showreel-host", default=DEFAULT_HOST, help="the tunnel host's URL (default %s)" % DEFAULT_HOST)
    group.addoption("--showreel-output", default="Recordings", help="folder for videos and manifest.json (default Recordings)")
    group.addoption("--showreel-command", default="showreel", help="the showreel executable, as the host finds it")
    group.addoption("--showreel-token", default=os.environ.get("SHOWREEL_HOST_TOKEN"),
                    help="the host's token (default: $SHOWREEL_HOST_TOKEN)")


def pytest_configure(config):
    if config.getoption("showreel_record") != "off":
        config.pluginmanager.register(ShowreelRecorder(config), "showreel-recorder")


def _module(item):
    """The test's module name (its file without .py): the folder of its videos, its suite."""
    return os.path.splitext(os.path.basename(str(item.fspath)))[0]


def _file_name(item):
    """`<test>` for a module's test, `<Class>.<test>` in a class; parameters kept, made safe."""
    inner = item.nodeid.split("::", 1)[-1].replace("::", ".")
    return re.sub(r"[^A-Za-z0-9_.\[\]=,+-]", "_", inner)


# A file name is at most 255 bytes: a longer stem keeps its first 110 characters and a hash of
# the whole, as Showreel's Swift tests shorten theirs (TestIdentity.safeFileName).
LONGEST_STEM = 120


def _shortened(stem):
    if len(stem.encode()) <= LONGEST_STEM:
        return stem
    digest = 2166136261  # FNV-1a: the same every run, unlike hash()
    for byte in stem.encode():
        digest = ((digest ^ byte) * 16777619) & 0xFFFFFFFF
    return stem[:110] + "\u2026" + format(digest & 0xFFFF, "x")


def video_names(items):
    """Each test's video, `<module>/<stem>`, decided for the whole collection at once (the same
    in every xdist worker, which collects the same tests): stems made safe and short, and made
    unique within their folder by Showreel's naming rule (FileNaming): the second test whose
    stem reads the same (`a/b` and `a_b` both read `a_b`) gets `a_b 2`, the next `a_b 3`. Safe
    stems hold no spaces, so a numbered one never meets another test's own."""
    names, used = {}, set()
    for item in items:
        folder, stem = _module(item), _shortened(_file_name(item))
        candidate, number = stem, 2
        while (folder, candidate) in used:
            candidate, number = "%s %d" % (stem, number), number + 1
        used.add((folder, candidate))
        names[item.nodeid] = (folder, candidate)
    return names


class ShowreelRecorder:
    def __init__(self, config):
        self.config = config
        self.mode = config.getoption("showreel_record")
        self.display = config.getoption("showreel_display") or os.environ.get("DISPLAY")
        self.host = TunnelHost(config.getoption("showreel_host"), token=config.getoption("showreel_token"))
        self.command = config.getoption("showreel_command")
        self.output = os.path.abspath(config.getoption("showreel_output"))
        self.manifest = Manifest(self.output, os.path.basename(str(config.rootpath)) or "pytest")
        self.names = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session, config, items):
        # Before -k and -m deselect any: a test's file name does not depend on which others run.
        self.names = video_names(items)

    def _video(self, item):
        """The test's video path relative to the output folder."""
        if item.nodeid not in self.names:  # collected some other way: named on its own
            self.names.update(video_names([item]))
        folder, stem = self.names[item.nodeid]
        return os.path.join(folder, stem + ".mp4")

    def pytest_sessionstart(self, session):
        if not hasattr(self.config, "workerinput"):  # the controller, not an xdist worker
            self.manifest.start()

    def _warn(self, item, message):
        item.warn(ShowreelWarning("showreel: %s: %s" % (item.nodeid, message)))

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item):
        item._showreel = {"started": time.monotonic(), "reports": {}, "recording": None}
        if item.get_closest_marker("skip") is not None:
            pass  # skipped before it starts: nothing to record
        elif not self.display:
            self._warn(item, "no X display to record: pass --showreel-display :N or set DISPLAY")
        else:
            relative = self._video(item)
            full = _file_name(item)
            if _shortened(full) != full:
                self._warn(item, "the test's id is %d characters long, too long for a file name: its video is %s"
                                 % (len(full), relative))
            path = os.path.join(self.output, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            try:
                recording = Recording(self.host, self.command, self.display, path)
                recording.wait_until_started()
                recording.relative = relative
                item._showreel["recording"] = recording
            except HostError as error:
                advice = (" Start the host with `showreel host` (or pass --showreel-host URL), and the display with "
                          "`showreel display start`." if error.unreachable else "")
                self._warn(item, "%s. This test is not recorded.%s" % (error, advice))
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        # The video ends with the test, before its fixtures are torn down: a session-scoped
        # browser closed after the last test would otherwise end that test's video on an
        # empty screen. Returns once the file is final.
        state = getattr(item, "_showreel", None)
        recording = state and state["recording"]
        if recording is not None:
            try:
                problem = recording.stop()
            except HostError as error:
                problem = str(error)
            if problem:
                self._warn(item, "the recording failed: %s" % problem)
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        state = getattr(item, "_showreel", None)
        if state is None:
            return
        report = outcome.get_result()
        state["reports"][call.when] = report
        if call.when == "teardown":
            self._finish(item, state, report)

    def _finish(self, item, state, teardown_report):
        """Once the test's last report is made: keep or delete its video, add the JUnit
        property, and write its manifest entry."""
        reports = state["reports"].values()
        failed = any(report.failed for report in reports)
        skipped = not failed and any(report.skipped for report in reports)
        status = "failed" if failed else ("skipped" if skipped else "passed")
        video = None
        recording = state["recording"]
        if recording is not None:
            if self.mode == "retain-on-failure" and not failed:
                try:
                    os.remove(recording.path)
                except OSError:
                    pass
            elif os.path.exists(recording.path):
                video = recording.relative
                # JUnit XML takes a test's properties from its teardown report.
                item.user_properties.append(("showreel_video", recording.path))
                if teardown_report.user_properties is not item.user_properties:
                    teardown_report.user_properties.append(("showreel_video", recording.path))
        failures = []
        for report in reports:
            if report.failed:
                crash = getattr(report.longrepr, "reprcrash", None)
                message = crash.message if crash else (str(report.longrepr).strip().splitlines() or ["failed"])[-1]
                failure = {"message": message}
                if crash:
                    failure["location"] = "%s:%d" % (os.path.relpath(crash.path, str(self.config.rootpath)), crash.lineno)
                failures.append(failure)
        self.manifest.add(entry(item.nodeid, _file_name(item), _module(item), status, time.monotonic() - state["started"],
                                video, failures))
