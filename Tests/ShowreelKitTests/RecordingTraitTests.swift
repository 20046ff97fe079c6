import Foundation
import ShowreelKit
import ShowreelRender
import ShowreelReport
import ShowreelTestSupport
import Synchronization
import Testing

/// The traits applied by hand around test bodies, so a body can fail (as a known issue) and the
/// test can look at what the traits left behind: videos decoded with FFmpeg, the manifest.
@Suite("Device and recording traits")
struct RecordingTraitTests {
    /// A scratch Recordings folder.
    final class Folder: Sendable {
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent("srk-\(UUID().uuidString.prefix(8))", isDirectory: true)
        deinit { try? FileManager.default.removeItem(at: url) }
        func manifest() throws -> RunManifest { try RunManifest.load(from: url.appendingPathComponent("manifest.json")) }
    }

    /// Runs `body` inside `.device()` and `.recorded(configuration)`, as the test runner would.
    func recorded(
        _ configuration: RecordingConfiguration, device: DeviceTrait = .device(),
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let test = try #require(Test.current)
        try await device.provideScope(for: test, testCase: Test.Case.current) {
            try await RecordingTrait.recorded(configuration).provideScope(for: test, testCase: Test.Case.current, performing: body)
        }
    }

    @Test("failing tests (an expectation, a thrown device error, cancellation) keep complete videos that end on the failing screen")
    func failingTestsKeepTheirVideos() async throws {
        let folder = Folder()
        let url = folder.url
        let run = try await offPool { try FixtureRun(folder: url) }
        #expect(run.status != 0, "the fixtures fail on purpose")
        let manifest = try folder.manifest()
        func entry(_ id: String) throws -> ManifestEntry {
            try #require(manifest.entries.first { $0.id == "FailingFixtures/\(id)" }, "no \(id) in \(manifest.entries.map(\.id))")
        }

        let expectation = try entry("expectationFails()")
        #expect(expectation.status == .failed)
        let failure = try #require(expectation.failures.first)
        #expect(failure.message.contains("Mexico"))
        #expect(
            failure.location?.hasPrefix("ShowreelKitTests/FailingFixtures.swift:\(try fixtureLine(containing: "label == \"Mexico\"")):")
                == true)
        #expect((failure.deviceTime ?? 0) > 0.3)
        let video = folder.url.appendingPathComponent(try #require(expectation.video))
        #expect(video.lastPathComponent == "expectationFails().mov")
        let info = try MediaProbe.probe(video)
        #expect(info.codecName == "h264" && info.width == 780)
        #expect(info.frameCount > 10)  // the push, frame by frame at 30 fps
        #expect(abs(info.duration - expectation.duration) < 0.001)
        // The last frame is the failing screen (the kept screenshot of it), the first the list.
        let frames = try await decodedFrames(video)
        let screen = try decodePNG(folder.url.appendingPathComponent(try #require(expectation.screenshot)))
        ScreenMask(profile: .phone).apply(to: screen)
        #expect(try #require(frames.last).pixels.meanDifference(from: screen) < 3)
        #expect(try #require(frames.first).pixels.meanDifference(from: screen) > 5)

        // Past the spool limit: encoded as it ran, just as complete.
        let overflowing = try #require(manifest.entries.first { $0.id == "FailingFixturesPastTheSpool/pushThenFail()" })
        #expect(overflowing.status == .failed)
        let overflowVideo = folder.url.appendingPathComponent(try #require(overflowing.video))
        let overflowInfo = try MediaProbe.probe(overflowVideo)
        #expect(overflowInfo.frameCount > 10 && overflowInfo.width == 390)
        #expect(abs(overflowInfo.duration - overflowing.duration) < 0.001)
        let overflowScreen = try decodePNG(folder.url.appendingPathComponent(try #require(overflowing.screenshot)))
        let lastOverflowFrame = try #require(try await decodedFrames(overflowVideo).last).pixels
        let halfScreen = PixelBuffer(width: 390, height: 844)
        FrameScaler.shrink(overflowScreen, into: halfScreen)
        ScreenMask(profile: .phone, width: 390, height: 844).apply(to: halfScreen)
        #expect(lastOverflowFrame.meanDifference(from: halfScreen) < 3, "the video ends on the failing screen")

        // A video that cannot be written (its file turned into a link to a full disk while the
        // frames waited) is an issue of the test, and not named as its video.
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let fullDisk = try entry("videoOntoAFullDisk()")
            #expect(fullDisk.status == .failed)
            #expect(fullDisk.video == nil && fullDisk.screenshot != nil)
            #expect(
                run.output.contains("videoOntoAFullDisk().mov could not be finished, so it is incomplete or missing"),
                "\(run.output.suffix(2000))")
            #expect(run.output.contains("No space left on device"))
        }

        // The test's actions read as a flow's steps do, and its step trace lies beside its video.
        let titles = expectation.steps.map(\.title)
        #expect(
            titles.first == "launch dev.showreel.countries" && titles.contains { $0.hasPrefix("tap ") && $0.contains("Canada") },
            "\(titles)")
        let expectationTrace = try RunTrace.load(
            from: folder.url.appendingPathComponent(RunTrace.path(forVideo: try #require(expectation.video))))
        #expect(expectationTrace.steps.map(\.title) == titles)
        #expect(expectationTrace.steps.first { $0.title.hasPrefix("tap ") }?.target != nil)
        // The failed expectation is a step too, at the moment it failed, after the tap.
        let failedExpectation = try #require(expectationTrace.steps.first { $0.status == .failed })
        #expect(
            failedExpectation.title.hasPrefix("failed: ") && failedExpectation.error?.contains("Mexico") == true, "\(failedExpectation)")
        #expect(failedExpectation.start >= (expectationTrace.steps.first { $0.title.hasPrefix("tap ") }?.start ?? .infinity))

        let thrown = try entry("deviceCallThrows()")
        #expect(thrown.status == .failed)
        let thrownTrace = try RunTrace.load(from: folder.url.appendingPathComponent(RunTrace.path(forVideo: try #require(thrown.video))))
        let failedStep = try #require(thrownTrace.steps.last)
        #expect(
            failedStep.status == .failed && failedStep.error?.contains("No element matches buttons[\"Sign in\"]") == true,
            "\(failedStep.title): \(failedStep.error ?? "")")
        #expect(thrown.failures.first?.message.contains("No element matches buttons[\"Sign in\"]") == true)
        #expect(
            thrown.failures.first?.location?.hasPrefix(
                "ShowreelKitTests/FailingFixtures.swift:\(try fixtureLine(containing: "buttons[\"Sign in\"].tap()")):") == true)
        #expect(try MediaProbe.probe(folder.url.appendingPathComponent(try #require(thrown.video))).frameCount >= 1)

        let cancelled = try entry("cancelled()")
        #expect(cancelled.status == .skipped)
        #expect(cancelled.failures.isEmpty)
        #expect(try MediaProbe.probe(folder.url.appendingPathComponent(try #require(cancelled.video))).duration > 0.5)

        // Parameterised cases are named by their arguments; the passing one's video is gone.
        #expect(try entry("parameterised(country:) Canada").video == nil)
        let mexico = try entry("parameterised(country:) Mexico")
        #expect(
            mexico.video == "FailingFixtures/parameterised(country_) Mexico.mov",
            "colons are left out of file names: CI artifact uploads refuse them")
    }

    @Test("a passing test's video is deleted under .retainOnFailure and kept under .on")
    func passingTestsByPolicy() async throws {
        for policy in [RecordingPolicy.retainOnFailure, .on] {
            let folder = Folder()
            try await recorded(RecordingConfiguration(policy, folder: folder.url)) {
                let app = Application("dev.showreel.hello")
                try await app.launch()
                try await app.buttons["tapButton"].tap()
                try await attachScreenshot(of: app, named: "Tapped", lifetime: .keepAlways)
            }
            let entry = try #require(try folder.manifest().entries.first)
            #expect(entry.status == .passed)
            #expect(entry.duration > 0, "a discarded video still gives the test's device time")
            let suiteFolder = folder.url.appendingPathComponent("RecordingTraitTests")
            let video = suiteFolder.appendingPathComponent("passingTestsByPolicy().mov")
            #expect(FileManager.default.fileExists(atPath: video.path) == (policy == .on))
            #expect((entry.video != nil) == (policy == .on))
            #expect(entry.attachments == ["RecordingTraitTests/passingTestsByPolicy() Tapped.png"])
            if policy == .on {
                let info = try MediaProbe.probe(video)
                #expect(info.width == 390 && info.height == 844, "half size by default")
            }
        }
    }

    @Test("a recording that cannot start is recorded as an issue of the test, and the test still runs")
    func recordingFailureIsAnIssue() async throws {
        let folder = Folder()
        // A file where the Recordings folder should be: nothing can be written under it.
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let blocked = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let ran = Mutex(false)
        try await withKnownIssue {
            try await recorded(RecordingConfiguration(.on, folder: blocked)) {
                try await Application("dev.showreel.hello").launch()
                ran.withLock { $0 = true }
            }
        } matching: { issue in
            String(describing: issue).contains("The recording of") && String(describing: issue).contains("could not start")
        }
        #expect(ran.withLock { $0 }, "the test body ran without its recording")
    }

    @Test("two tests in parallel each get their own device and a video of only their own app")
    func parallelTests() async throws {
        let folder = Folder()
        let screens = Locked<[String: PixelBuffer]>([:])
        let test = try #require(Test.current)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (app, element) in [("dev.showreel.hello", "tapButton"), ("dev.showreel.signup", "email")] {
                group.addTask {
                    let configuration = RecordingConfiguration(.on, scale: 1, folder: folder.url.appendingPathComponent(app))
                    try await DeviceTrait.device().provideScope(for: test, testCase: nil) {
                        try await RecordingTrait.recorded(configuration).provideScope(for: test, testCase: nil) {
                            let application = Application(app)
                            try await application.launch()
                            try await application.descendants()[element].tap()
                            let screen = await TestDevice.current?.device?.screenshot()
                            screens.withValue { $0[app] = screen }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let hello = try #require(screens.value["dev.showreel.hello"]), signup = try #require(screens.value["dev.showreel.signup"])
        for screen in [hello, signup] { ScreenMask(profile: .phone).apply(to: screen) }
        for (app, own, other) in [("dev.showreel.hello", hello, signup), ("dev.showreel.signup", signup, hello)] {
            let video = folder.url.appendingPathComponent(app).appendingPathComponent("RecordingTraitTests/parallelTests().mov")
            let frames = try await decodedFrames(video)
            #expect(frames.count >= 3)
            // Every frame after the launch is this app's, never the other's.
            for frame in frames.dropFirst() {
                #expect(frame.pixels.meanDifference(from: own) < frame.pixels.meanDifference(from: other), "\(app) at \(frame.time)")
            }
            #expect(try #require(frames.last).pixels.meanDifference(from: own) < 3)
        }
    }

    @Test("SHOWREEL_RECORD overrides the policy; a bad value is a clear error")
    func environmentOverride() throws {
        #expect(try RecordingPolicy.resolved(.off, environment: ["SHOWREEL_RECORD": "on"]) == .on)
        #expect(try RecordingPolicy.resolved(.on, environment: ["SHOWREEL_RECORD": "failures"]) == .retainOnFailure)
        #expect(try RecordingPolicy.resolved(.on, environment: ["SHOWREEL_RECORD": "off"]) == .off)
        #expect(try RecordingPolicy.resolved(.retainOnFailure, environment: [:]) == .retainOnFailure)
        #expect { try RecordingPolicy.resolved(.on, environment: ["SHOWREEL_RECORD": "sometimes"]) } throws: { error in
            String(describing: error).contains("use on, failures or off")
        }
    }

    @Test("an Application with no device says how to get one, at the caller's line")
    func noDevice() async throws {
        let app = Application("dev.showreel.hello")
        let error = await #expect(throws: DeviceClient.Failure.self) { try await app.launch() }
        #expect(error?.message.contains("add the .device() trait") == true)
        #expect(error?.callSite?.fileID == "ShowreelKitTests/RecordingTraitTests.swift")
    }

    @Test("a device profile is a value: the known ones by name, and a misspelt one is none")
    func profiles() async throws {
        #expect(DeviceProfile.named("tablet") == .tablet)
        #expect(DeviceProfile.named("watch") == nil)
        let testDevice = try await TestDevice.boot(DeviceConfiguration(profile: .phoneSmall))
        #expect(testDevice.device?.profile == .phoneSmall)
        await testDevice.shutdown()
    }
}

/// A value shared with a `@Sendable` test body.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func withValue(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// The line of a fixture file that first holds `text`: where its failure is reported.
func fixtureLine(containing text: String, in file: String = "FailingFixtures.swift") throws -> Int {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file)
    let lines = try String(contentsOf: source, encoding: .utf8).components(separatedBy: "\n")
    return try #require(lines.firstIndex { $0.contains(text) }) + 1
}

/// The failing fixtures, run for real in a child test process (the test bundle itself).
struct FixtureRun: Sendable {
    let status: Int32
    let output: String

    init(
        folder: URL, arguments: [String] = ["--testing-library", "swift-testing", "--filter", "FailingFixtures"],
        fixtures: String = "failing", environment extra: [String: String] = [:]
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.testBundle)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SHOWREEL_FIXTURES"] = fixtures
        environment["SHOWREEL_RECORDINGS"] = folder.path
        environment["SHOWREEL_RECORD"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        let log = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + ".log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        status = process.terminationStatus
        output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }
}

func decodePNG(_ url: URL) throws -> PixelBuffer {
    try PixelBuffer(pngData: Array(Data(contentsOf: url)))
}
