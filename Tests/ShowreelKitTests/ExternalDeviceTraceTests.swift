import Foundation
import ShowreelKit
import ShowreelReport
import ShowreelTestSupport
import ShowreelWire
import Testing

/// A recorded test whose device is another process (`showreel device boot`): the device traces
/// the test's actions in its own process and hands the trace over, so the test's entry reads
/// like an in-process test's (steps, chapters, the trace beside the video).
@Suite("Recorded tests of an external device are traced")
struct ExternalDeviceTraceTests {
    /// `showreel device boot` in the workspace's registry, on a virtual clock, showing the
    /// Countries list.
    static func bootDevice(_ workspace: Workspace) async throws -> (ChildProcess, udid: String) {
        let device = try ChildProcess(
            try BuildProducts.showreel,
            ["device", "boot", "--clock", "virtual", "--launch", "dev.showreel.countries", "--", "--countries-datasource", "local-mock"],
            environment: workspace.environment, in: workspace, name: "device")
        let deadline = ContinuousClock.now + .seconds(60)
        while !device.stderr.contains("automation API at") {
            guard device.process.isRunning, ContinuousClock.now < deadline else { throw TestFailure("device boot: \(device.stderr)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (device, device.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs `body` recorded with `recording` on the external device `udid`.
    static func recorded(
        on udid: String, registry: DeviceRegistry, _ recording: RecordingConfiguration, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let test = try #require(Test.current)
        var device = DeviceConfiguration(.external(udid))
        device.registry = registry
        try await DeviceTrait(configuration: device).provideScope(for: test, testCase: Test.Case.current) {
            try await RecordingTrait.recorded(recording).provideScope(for: test, testCase: Test.Case.current, performing: body)
        }
    }

    /// Launches Countries, taps Canada in the list and waits for its page.
    @Sendable static func tapCanada() async throws {
        let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
        try await app.launch()
        try await app.cells["Canada"].tap()
        #expect(try await app.staticTexts["countryName"].waitForExistence(timeout: .seconds(5)))
    }

    /// What every traced recording of `tapCanada` has: the tap a step whose target is the Canada
    /// row, the screen before and after it different, the manifest's steps the trace's.
    static func checkTrace(_ entry: ManifestEntry, folder: URL) throws -> RunTrace {
        let video = folder.appendingPathComponent(try #require(entry.video))
        let traceFile = URL(fileURLWithPath: RunTrace.path(forVideo: video.path))
        #expect(FileManager.default.fileExists(atPath: traceFile.path), "the trace lies beside the video")
        let trace = try RunTrace.load(from: traceFile)
        #expect(entry.steps.map(\.title) == trace.steps.map(\.title))
        #expect(
            trace.steps.map(\.title) == [
                "launch dev.showreel.countries", "tap cells[\"Canada\"]", "wait for staticTexts[\"countryName\"]",
            ],
            "\(trace.steps.map(\.title))")
        let tap = try #require(trace.steps.first { $0.title.hasPrefix("tap ") })
        func find(_ elements: [RunTrace.Element]) -> RunTrace.Element? {
            for element in elements {
                if element.type == "cell", element.label == "Canada" { return element }
                if let found = find(element.children) { return found }
            }
            return nil
        }
        let row = try #require(find(tap.tree), "the tree when the tap started has the Canada row")
        #expect(tap.target == row.frame, "the tap's target is the tapped row")
        let before = try #require(tap.before)
        let after = try #require(tap.after)
        #expect(trace.pictures[before] != trace.pictures[after], "the list before the tap, Canada's page after it")
        #expect(trace.pictures[before].hasPrefix("data:image/jpeg;base64,"))
        return trace
    }

    @Test("a test recorded from the device's display stream gets steps, chapters and a trace made in the device's process")
    func streamRecording() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await Self.bootDevice(workspace)
        defer { device.process.terminate() }
        let folder = RecordingTraitTests.Folder()
        try await Self.recorded(on: udid, registry: workspace.registry, RecordingConfiguration(.on, folder: folder.url), Self.tapCanada)
        let entry = try #require(try folder.manifest().entries.first)
        #expect(entry.status == .passed)
        _ = try Self.checkTrace(entry, folder: folder.url)
        let tracks = try MediaProbe.stepTracks(folder.url.appendingPathComponent(try #require(entry.video)))
        let expected = StepMark.chapters(entry.steps.map { StepMark(title: $0.title, time: $0.time) }, videoEnd: entry.duration)
        #expect(!expected.isEmpty && tracks.chapters.map(\.title) == expected.map(\.title), "the steps are the video's chapters")

        // A passing test whose video is not kept still lists its steps (its trace, without
        // pictures, is not written); and the device traces the next recording again.
        let unkept = RecordingTraitTests.Folder()
        try await Self.recorded(
            on: udid, registry: workspace.registry, RecordingConfiguration(.retainOnFailure, folder: unkept.url), Self.tapCanada)
        let unkeptEntry = try #require(try unkept.manifest().entries.first)
        #expect(unkeptEntry.video == nil)
        #expect(unkeptEntry.steps.map(\.title) == entry.steps.map(\.title), "\(unkeptEntry.steps)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: unkept.url.path))?.contains { $0.hasSuffix(".trace.json") } != true)
    }

    @Test("two recorded tests sharing one external device at once each get their trace: traces are per recording, not per device")
    func twoRecordingsOneDevice() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await Self.bootDevice(workspace)
        defer { device.process.terminate() }
        let first = RecordingTraitTests.Folder(), second = RecordingTraitTests.Folder()
        let gate = Gate()
        let registry = workspace.registry
        // The first test launches and waits while the second, started meanwhile, runs whole.
        async let firstTest: Void = Self.recorded(on: udid, registry: registry, RecordingConfiguration(.on, folder: first.url)) {
            let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
            try await app.launch()
            await gate.open("launched")
            try await gate.wait("second done")
            try await app.cells["Canada"].tap()
            #expect(try await app.staticTexts["countryName"].waitForExistence(timeout: .seconds(5)))
        }
        try await gate.wait("launched")
        try await Self.recorded(on: udid, registry: registry, RecordingConfiguration(.on, folder: second.url)) {
            let listed = try await Application("dev.showreel.countries").cells["Japan"].waitForExistence(timeout: .seconds(5))
            #expect(listed)
        }
        await gate.open("second done")
        try await firstTest
        var titles: [[String]] = []
        for folder in [first, second] {
            let entry = try #require(try folder.manifest().entries.first)
            #expect(entry.status == .passed, "\(entry.failures)")
            let file = folder.url.appendingPathComponent(RunTrace.path(forVideo: try #require(entry.video)))
            #expect(FileManager.default.fileExists(atPath: file.path), "\(folder.url.lastPathComponent): no trace beside the video")
            titles.append(try RunTrace.load(from: file).steps.map(\.title))
        }
        #expect(titles.count == 2 && titles[1] == ["wait for cells[\"Japan\"]"], "\(titles)")
        // The first test's trace has all the device did while it recorded, the second's steps too.
        let expected = [
            "launch dev.showreel.countries", "wait for cells[\"Japan\"]", "tap cells[\"Canada\"]", "wait for staticTexts[\"countryName\"]",
        ]
        #expect(titles.first?.filter { expected.contains($0) } == expected, "\(titles)")
    }

    /// Named points two concurrent tests wait for.
    actor Gate {
        private var opened: Set<String> = []
        func open(_ name: String) { opened.insert(name) }
        func isOpen(_ name: String) -> Bool { opened.contains(name) }
        /// Bounded for a hang: in a full suite on a busy machine the other test's launch takes minutes.
        nonisolated func wait(_ name: String) async throws {
            try await eventually(name, timeout: .seconds(600)) { await self.isOpen(name) }
        }
    }

    @Test(
        "a test recorded through a tunnel host, its device another process, gets steps and a trace; a passing one under .retainOnFailure has its recorder encode as it goes and its video removed"
    )
    func hostRecording() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await Self.bootDevice(workspace)
        defer { device.process.terminate() }
        let host = try ChildProcess(
            try BuildProducts.showreel, ["host", "--port", "0"], environment: ProcessInfo.processInfo.environment,
            in: workspace, name: "host")
        let url = URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!
        let folder = RecordingTraitTests.Folder()
        let passing = RecordingTraitTests.Folder()
        try await host.stopping {
            try await Self.recorded(
                on: udid, registry: workspace.registry, RecordingConfiguration(.on, via: .tunnelHost(url), folder: folder.url),
                Self.tapCanada)
            // A passing test under .retainOnFailure: this process cannot end another process's
            // stream as discarded, so its recorder encodes as it goes (no --spool), and the
            // video it finished on the interrupt is removed.
            try await Self.recorded(
                on: udid, registry: workspace.registry,
                RecordingConfiguration(.retainOnFailure, via: .tunnelHost(url), folder: passing.url), Self.tapCanada)
            let recorders = try await TunnelHostClient(baseURL: url).commands()
            #expect(recorders.count == 2 && recorders.allSatisfy { $0.exitCode == 0 && !$0.argv.contains { $0.hasPrefix("--spool") } })
            #expect(try passing.manifest().entries.first?.video == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: passing.url.path).filter { $0.hasSuffix(".mov") }.isEmpty)
        }
        let entry = try #require(try folder.manifest().entries.first)
        #expect(entry.status == .passed)
        let trace = try Self.checkTrace(entry, folder: folder.url)
        // The host's recorder and the device share a virtual clock: the steps fall inside the video.
        #expect(trace.steps.allSatisfy { $0.start <= $0.end && $0.end <= entry.duration }, "\(trace.steps.map(\.end)) vs \(entry.duration)")
    }

    @Test("a failed expectation on an external device is a failed step of its trace, after the tap it checks")
    func failedExpectation() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await Self.bootDevice(workspace)
        defer { device.process.terminate() }
        let folder = RecordingTraitTests.Folder()
        let url = folder.url
        // The failing test runs in a child test process: this one must not fail. It finds the
        // device as `booted` through SHOWREEL_HOME, as a suite using .external("booted") does.
        let run = try await offPool {
            try FixtureRun(
                folder: url, arguments: ["--testing-library", "swift-testing", "--filter", "ExternalFixtures"], fixtures: "external",
                environment: ["SHOWREEL_HOME": workspace.registry.home.path])
        }
        #expect(run.status != 0, "the fixture fails on purpose: \(run.output.suffix(2000))")
        let entry = try #require(try folder.manifest().entries.first)
        #expect(entry.status == .failed)
        let failure = try #require(entry.failures.first)
        #expect(failure.deviceTime != nil, "the failure is placed on the device's clock")
        let trace = try RunTrace.load(
            from: folder.url.appendingPathComponent(RunTrace.path(forVideo: try #require(entry.video))))
        #expect(entry.steps.map(\.title) == trace.steps.map(\.title))
        let tap = try #require(trace.steps.first { $0.title.hasPrefix("tap ") })
        let failed = try #require(trace.steps.first { $0.status == .failed }, "\(trace.steps.map(\.title))")
        #expect(failed.title.hasPrefix("failed: ") && failed.error?.contains("Mexico") == true, "\(failed)")
        #expect(failed.start >= tap.end, "the expectation failed after the tap and its push")
    }
}
