import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelFlows
import ShowreelRecorder
import ShowreelRender
import ShowreelTestSupport
import ShowreelUI
import ShowreelWire
import Synchronization
import Testing

/// A frame's `changedAreas` let a recorder skip the rest of the screen, so a pixel left out that
/// did change would leave a stale patch in a video. These tests drive every fixture flow (the
/// sample apps' pushes, sheets, alerts, typing, scrolling, debug drawer and window, touches)
/// and compare each frame with the one before it, pixel by pixel; and each render with a whole
/// one that leaves nothing out.
@Suite("Changed areas of device frames")
struct ChangedAreasTests {
    static let flows = ["countries.yaml", "debug-window.yaml", "greeting-debug-drawer.yaml", "hello.yaml", "signup.yaml"]

    @Test("every pixel that differs from the previous frame is in one of the frame's changed areas", arguments: flows)
    func changedAreasCoverEveryChange(_ name: String) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))
            .parse(fileAt: root.appendingPathComponent("Fixtures/Flows/\(name)"), id: name)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("srd-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(
            name: flow.device.name, profile: flow.device.profile, clock: .virtual, apps: ShowcaseCatalog.apps,
            registry: DeviceRegistry(home: home), showsTouches: true)
        await device.verifyRenders(true)
        let checker = ChangedAreasChecker()
        let subscription = device.display.subscribe(checker)
        let runner = FlowRunner(options: FlowRunOptions(output: home.appendingPathComponent("out"), apps: ShowcaseCatalog.apps))
        let result = await runner.drive(flow, on: device, screenshotPrefix: "check")
        subscription.stop()
        let renders = await device.renderChecks()
        await device.shutdown()
        #expect(result.failure == nil, "\(String(describing: result.failure))")
        // The device draws only the changed areas over its last frame, and leaves out backgrounds
        // opaque views hide: the same pixels as a whole render that leaves nothing out.
        #expect(renders.mismatches.isEmpty, "\(renders.mismatches.prefix(5))")
        #expect(renders.partialRenders > 0, "no render drew only the changed areas")
        #expect(renders.overdrawLeftOut > 0, "no hidden background was left out")

        let report = checker.report
        #expect(report.missed.isEmpty, "pixels that changed but were not reported: \(report.missed.prefix(10))")
        #expect(report.checkedFrames > 10)
        // Not everything, every time: most frames of these flows change part of the screen.
        #expect(report.partialFrames > 0, "no frame reported less than the whole screen")
    }

    @Test(
        "shaped Japanese and Arabic text, mirrored lists, dark appearance: every changed pixel is reported",
        arguments: [(["ja"], InterfaceStyle.light), (["ar"], InterfaceStyle.dark)])
    func shapedTextIsCovered(languages: [String], appearance: InterfaceStyle) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("srd-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(
            name: "shaped", profile: .phone, clock: .virtual, apps: ShowcaseCatalog.apps,
            registry: DeviceRegistry(home: home), showsTouches: true, interfaceStyle: appearance,
            languages: languages)
        await device.verifyRenders(true)
        let checker = ChangedAreasChecker()
        let subscription = device.display.subscribe(checker)
        _ = try await device.launch("dev.showreel.hello")
        for _ in 0..<3 { try await device.tap(.button("tapButton")) }
        _ = try await device.launch("dev.showreel.countries")
        try await device.tap(.cell("Canada"))
        await device.setInterfaceStyle(appearance == .dark ? .light : .dark)
        try await device.wait(.milliseconds(500))
        subscription.stop()
        let renders = await device.renderChecks()
        await device.shutdown()
        #expect(renders.mismatches.isEmpty, "\(renders.mismatches.prefix(5))")
        #expect(renders.partialRenders > 0, "no render drew only the changed areas")
        #expect(renders.overdrawLeftOut > 0, "no hidden background was left out")
        let report = checker.report
        #expect(report.missed.isEmpty, "pixels that changed but were not reported: \(report.missed.prefix(10))")
        #expect(report.checkedFrames > 10)
    }

    @Test("typing changes a small part of the screen per frame")
    func typingIsPartial() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("srd-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(
            name: "typing", profile: .phoneLarge, clock: .virtual, apps: ShowcaseCatalog.apps,
            registry: DeviceRegistry(home: home), showsTouches: true)
        _ = try await device.launch("dev.showreel.signup")
        let checker = ChangedAreasChecker()
        let subscription = device.display.subscribe(checker)
        try await device.typeText("abc@example.com", into: .textField("email"), keyDelay: .milliseconds(80))
        subscription.stop()
        await device.shutdown()
        let report = checker.report
        #expect(report.missed.isEmpty, "pixels that changed but were not reported: \(report.missed.prefix(10))")
        // A key, its pop-up, the touch and the field, not the screen: a small part of it on average.
        #expect(report.checkedFrames > 20)
        #expect(report.reportedFraction < 0.1, "on average \(report.reportedFraction) of the screen was reported changed")
    }
}

extension ChangedAreasTests {
    @Test(
        "a recording that shrinks and keeps (or encodes) only changed areas decodes to the same video as one that redoes every frame whole",
        arguments: ["signup.yaml", "countries.yaml"], [true, false])
    func recordingWithChangedAreasIsTheSame(_ name: String, spooled: Bool) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))
            .parse(fileAt: root.appendingPathComponent("Fixtures/Flows/\(name)"), id: name)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("srd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(
            name: flow.device.name, profile: flow.device.profile, clock: .virtual, apps: ShowcaseCatalog.apps,
            registry: DeviceRegistry(home: home), showsTouches: true)
        // As a test's recording does: half size, 30 fps at most, frames waiting in a spool (the
        // default policy) or shrunk here and encoded behind a queue as they come (every video kept).
        let options = RecordingOptions(scale: 0.5, maximumFrameRate: 30)
        let spoolLimit = spooled ? 256 << 20 : nil
        let mask = ScreenMask(profile: flow.device.profile)
        let hinted = try RecordingSession(
            url: home.appendingPathComponent("hinted.mov"), info: device.display.info, options: options,
            mask: mask, framesAreShared: true, spoolLimit: spoolLimit)
        let plain = try RecordingSession(
            url: home.appendingPathComponent("plain.mov"), info: device.display.info, options: options,
            mask: mask, framesAreShared: true, spoolLimit: spoolLimit)
        let subscriptions = [device.display.subscribe(hinted), device.display.subscribe(WithoutChangedAreas(next: plain))]
        let runner = FlowRunner(options: FlowRunOptions(output: home.appendingPathComponent("out"), apps: ShowcaseCatalog.apps))
        let result = await runner.drive(flow, on: device, screenshotPrefix: "check")
        for subscription in subscriptions { subscription.stop() }
        await device.shutdown()
        #expect(result.failure == nil)
        try hinted.finish()
        try plain.finish()

        let hintedFrames = try await decodedFrames(home.appendingPathComponent("hinted.mov"))
        let plainFrames = try await decodedFrames(home.appendingPathComponent("plain.mov"))
        #expect(hintedFrames.count == plainFrames.count)
        #expect(hintedFrames.count > 20)
        var differing: [Double] = []
        for (a, b) in zip(hintedFrames, plainFrames) where a.time != b.time || !a.pixels.hasSameBytes(as: b.pixels) {
            differing.append(a.time)
        }
        #expect(differing.isEmpty, "frames that differ, at seconds: \(differing.prefix(10))")
    }
}

/// Passes frames on without their changed areas, as a source that does not know them would.
final class WithoutChangedAreas: DisplayStreamSink {
    let next: any DisplayStreamSink
    init(next: any DisplayStreamSink) { self.next = next }

    func receive(_ event: DisplayStreamEvent) {
        if case let .frame(frame) = event {
            next.receive(.frame(Frame(pixels: frame.pixels, presentationTime: frame.presentationTime)))
        } else {
            next.receive(event)
        }
    }
}

extension PixelBuffer {
    func hasSameBytes(as other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height else { return false }
        return withUnsafeBytes { a in
            other.withUnsafeBytes { b in
                (0..<height).allSatisfy { row in
                    memcmp(a.baseAddress! + row * bytesPerRow, b.baseAddress! + row * other.bytesPerRow, width * 4) == 0
                }
            }
        }
    }
}

/// Compares each frame with the one before: a pixel that differs but is in none of the frame's
/// `changedAreas` is a miss.
final class ChangedAreasChecker: DisplayStreamSink {
    struct Report {
        var missed: [String] = []
        var checkedFrames = 0
        var partialFrames = 0
        var reportedPixels = 0
        var totalPixels = 0
        var reportedFraction: Double { totalPixels == 0 ? 1 : Double(reportedPixels) / Double(totalPixels) }
    }

    private let state = Mutex<(previous: Frame?, report: Report)>((nil, Report()))

    var report: Report { state.withLock { $0.report } }

    func receive(_ event: DisplayStreamEvent) {
        guard case let .frame(frame) = event else { return }
        state.withLock { state in
            defer { state.previous = frame }
            guard let previous = state.previous, let areas = frame.changedAreas else { return }
            let (width, height) = (frame.pixels.width, frame.pixels.height)
            var columnsByRow = [[Range<Int>]](repeating: [], count: height)
            for area in areas {
                for row in area.rows.clamped(to: 0..<height) { columnsByRow[row].append(area.columns) }
            }
            let reported = columnsByRow.reduce(0) { $0 + ($1.isEmpty ? 0 : Self.count($1, width: width)) }
            previous.pixels.withUnsafeBytes { old in
                frame.pixels.withUnsafeBytes { new in
                    for row in 0..<height {
                        let covering = columnsByRow[row]
                        let offset = row * frame.pixels.bytesPerRow
                        // Every run of columns no area covers must be as it was.
                        var start = 0
                        for columns in covering.sorted(by: { $0.lowerBound < $1.lowerBound }) + [width..<width] {
                            if columns.lowerBound > start,
                                memcmp(
                                    old.baseAddress! + offset + 4 * start, new.baseAddress! + offset + 4 * start,
                                    4 * (min(columns.lowerBound, width) - start)) != 0
                            {
                                state.report.missed.append(
                                    "row \(row), columns \(start)..<\(columns.lowerBound) at \(frame.presentationTime) (reported \(areas))")
                                break
                            }
                            start = max(start, columns.upperBound)
                        }
                    }
                }
            }
            state.report.checkedFrames += 1
            state.report.reportedPixels += reported
            state.report.totalPixels += width * height
            if reported < width * height { state.report.partialFrames += 1 }
        }
    }

    /// How many columns of `0..<width` the ranges cover together.
    private static func count(_ ranges: [Range<Int>], width: Int) -> Int {
        var covered = 0, end = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let lower = max(range.lowerBound, end), upper = min(range.upperBound, width)
            if upper > lower { covered += upper - lower }
            end = max(end, upper)
        }
        return covered
    }
}
