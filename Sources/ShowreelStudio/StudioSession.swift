import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelFlows
import ShowreelGraphics
import ShowreelRecorder
import ShowreelReport
import ShowreelUI
import ShowreelWire

/// One studio: the flow being written, the device it is recorded on, and the live screen.
///
/// Every step runs through the flow runner `showreel run` uses (`FlowRunner.drive`), parsed
/// from the text it is written as, so what is recorded is what runs. The file is checked by the
/// same parser and written whole (atomically) after every change.
package actor StudioSession {
    package let configuration: StudioConfiguration
    package let hub = FrameHub()
    let parser: FlowParser
    private(set) var device: Device
    private(set) var document: StudioDocument
    private(set) var priority: [SelectorKind]
    /// The device clock is frozen: steps that move it are refused until resumed.
    private(set) var isPaused = false
    /// What the last replay or action reported (a replay that stopped early).
    private(set) var notice: String?
    /// The last step is `inputText` typed here: further typing extends it.
    private var typing: (step: Int, text: String)?
    /// Each recorded step's target as it was when recorded (by step), to flag a run whose
    /// selector finds a different element.
    var recordedTargets: [Int: RecordedTarget] = [:]
    let queue = ActionQueue()
    private let home: URL
    package let runs: URL
    var runCount = 0

    private init(
        configuration: StudioConfiguration, parser: FlowParser, device: Device, document: StudioDocument, priority: [SelectorKind],
        home: URL
    ) {
        self.configuration = configuration
        self.parser = parser
        self.device = device
        self.document = document
        self.priority = priority
        self.home = home
        runs = home.appendingPathComponent("runs", isDirectory: true)
    }

    /// Opens the flow: an existing file is checked and replayed (recording goes on at its end); a
    /// new one gets a header from the options, its `launchApp` step, and is written at once.
    package static func open(_ configuration: StudioConfiguration) async throws -> StudioSession {
        let parser = FlowParser(knownApps: configuration.apps.map(\.bundleIdentifier))
        let url = configuration.flow
        let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("showreel-studio-\(UUID().uuidString.prefix(8))")
        let document: StudioDocument
        let exists = FileManager.default.fileExists(atPath: url.path)
        if exists {
            let text: String
            do { text = try String(contentsOf: url, encoding: .utf8) } catch {
                throw StudioError("cannot read \(url.path): \(ErrorSentence.describe(error))")
            }
            document = StudioDocument(parsing: text)
        } else {
            guard let app = configuration.appId else {
                throw StudioError(
                    "\(url.lastPathComponent) does not exist: name the app of a new flow with --app (installed: \(parser.knownApps.joined(separator: ", ")))"
                )
            }
            let priority = SelectorKind.defaultPriority.map(\.rawValue)
            document = StudioDocument(
                header: StudioDocument.newHeader(
                    appId: app, arguments: configuration.launchArguments, profile: configuration.profile, language: configuration.language,
                    appearance: configuration.appearance, priority: priority),
                steps: ["- launchApp"])
        }
        let flow: Flow
        do { flow = try parser.parse(text: document.text, url: url, id: url.lastPathComponent) } catch {
            let count = error.diagnostics.count
            throw StudioError(
                exists
                    ? "\(count) \(count == 1 ? "problem" : "problems") in \(url.lastPathComponent); nothing was replayed."
                    : "the options make no valid flow: \(error)", diagnostics: exists ? error.diagnostics : [])
        }
        let device = try Self.boot(flow, apps: configuration.apps, home: home, logger: configuration.logger)
        let session = StudioSession(
            configuration: configuration, parser: parser, device: device, document: document,
            priority: flow.selectorPriority ?? SelectorKind.defaultPriority, home: home)
        session.hub.attach(device)
        await session.replay(flow, on: device)
        if !exists { try await session.save() }
        return session
    }

    static func boot(_ flow: Flow, apps: [AppDefinition], home: URL, logger: Logger) throws -> Device {
        let device = try Device(
            name: flow.device.name, profile: flow.device.profile, clock: .virtual, apps: apps,
            registry: DeviceRegistry(home: home.appendingPathComponent("home")), showsTouches: flow.device.showsTouches,
            interfaceStyle: flow.device.appearance, languages: flow.device.languages, logger: logger)
        return device
    }

    var flowName: String { configuration.flow.deletingPathExtension().lastPathComponent }

    func runner(output: URL? = nil) -> FlowRunner {
        FlowRunner(
            options: FlowRunOptions(
                output: output ?? configuration.flow.deletingLastPathComponent(), apps: configuration.apps, container: .mp4,
                traces: output != nil, previews: false, logger: configuration.logger))
    }

    /// Runs `flow` on `device` as `showreel run` drives it; a failure is kept as the notice.
    @discardableResult
    func replay(_ flow: Flow, on device: Device) async -> Bool {
        await device.overrideStatusBar(flow.device.statusBar)
        let result = await runner().drive(flow, on: device, screenshotPrefix: flowName)
        if let failure = result.failure {
            notice = "The replay stopped: \(failure.message)" + (failure.location.map { " (\($0))" } ?? "")
            return false
        }
        notice = nil
        return true
    }

    /// The flow made of the header and `steps`, as `showreel run` would read it.
    func flow(steps: [String]) throws -> Flow {
        let text = StudioDocument(header: document.header, steps: steps).text
        do { return try parser.parse(text: text, url: configuration.flow, id: configuration.flow.lastPathComponent) } catch {
            throw StudioError("the step is not valid: \(error)")
        }
    }

    /// Runs steps on the live device (one recorded step, or one run from the timeline).
    func perform(_ steps: [String]) async throws {
        let flow = try flow(steps: steps)
        let result = await runner().drive(flow, on: device, screenshotPrefix: flowName)
        if let failure = result.failure { throw StudioError(failure.message) }
    }

    /// Checks the whole file with the parser and writes it atomically: a studio killed at any
    /// moment leaves the last good flow.
    func save() async throws {
        let text = document.text
        _ = try flow(steps: document.steps)
        do { try Data(text.utf8).writeReplacing(configuration.flow) } catch {
            throw StudioError("cannot write \(configuration.flow.path): \(ErrorSentence.describe(error))")
        }
    }

    // MARK: Reading

    package var tree: [ElementSnapshot] { get async { await device.tree() } }
    package var screenSize: Size { device.profile.pointSize }
    package var steps: [String] { document.steps }
    package var fileText: String { document.text }

    package func selectors(for path: [Int]) async -> [SelectorCandidate] {
        SelectorRanker(priority: priority).candidates(for: path, in: ElementIndex(roots: await device.tree()))
    }

    // MARK: Recording

    /// Records a gesture: named with the best selector, run on the device, appended, saved.
    package func record(_ gesture: StudioGesture) async throws {
        try await queue.run { try await self.recordNow(gesture) }
    }

    private func recordNow(_ gesture: StudioGesture) async throws {
        if isPaused, gesture.kind != .assert {
            throw StudioError("the device is paused: only assertions are recorded until you resume")
        }
        let index = ElementIndex(roots: await device.tree())
        let builder = StepBuilder(ranker: SelectorRanker(priority: priority), screen: device.profile.pointSize)
        let step: String
        do { step = try builder.step(for: gesture, in: index) } catch { throw StudioError(error.description) }
        try await perform([step])
        if gesture.kind == .type, let text = gesture.text, let typing, typing.step == document.steps.count - 1 {
            // One inputText for what is typed in a row.
            let whole = typing.text + text
            document.steps[typing.step] = "- inputText: \(YAMLText.quoted(whole))"
            self.typing = (typing.step, whole)
        } else {
            document.steps.append(step)
            typing = gesture.kind == .type ? (document.steps.count - 1, gesture.text ?? "") : nil
            if let point = gesture.point, gesture.kind != .swipe, let entry = index.element(at: point) {
                recordedTargets[document.steps.count - 1] = RecordedTarget(entry.element)
            }
        }
        try await save()
    }

    package func setPriority(_ names: [String]) async throws {
        var kinds: [SelectorKind] = []
        for name in names {
            guard let kind = SelectorKind(rawValue: name), !kinds.contains(kind) else {
                throw StudioError("the priority lists id, text, type and point, each once; got '\(name)'")
            }
            kinds.append(kind)
        }
        guard !kinds.isEmpty else { throw StudioError("the priority needs at least one kind of selector") }
        let saved = document
        document.setSelectorPriority(kinds.map(\.rawValue))
        do { try await save() } catch {
            document = saved
            throw error
        }
        priority = kinds
    }

    // MARK: The timeline

    /// Replays the first `count` steps on a fresh device, which becomes the live one.
    func rebuild(count: Int) async throws {
        let flow = try flow(steps: Array(document.steps.prefix(count)))
        let fresh = try Self.boot(flow, apps: configuration.apps, home: home, logger: configuration.logger)
        let old = device
        device = fresh
        hub.attach(fresh)
        await old.shutdown()
        isPaused = false
        await replay(flow, on: fresh)
    }

    package func deleteStep(_ index: Int) async throws {
        try await queue.run {
            try await self.changeSteps({ $0.remove(at: try Self.checked(index, in: $0)) }, targets: { $0.removeStep(index) })
        }
    }

    package func editStep(_ index: Int, text: String) async throws {
        try await queue.run {
            try await self.changeSteps { steps in
                let index = try Self.checked(index, in: steps)
                var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.hasPrefix("- ") { text = "- " + text }
                steps[index] = text
            } targets: {
                $0[index] = nil
            }
        }
    }

    /// Changes the steps, checks and saves the file, and replays it all on a fresh device so the
    /// live screen is where the file ends.
    /// `targets` keeps what the other steps hit when recorded (what a later Run compares with).
    private func changeSteps(
        _ change: (inout [String]) throws -> Void, targets: (inout [Int: RecordedTarget]) -> Void
    ) async throws {
        var steps = document.steps
        try change(&steps)
        _ = try flow(steps: steps)
        document.steps = steps
        typing = nil
        targets(&recordedTargets)
        try await save()
        try await rebuild(count: steps.count)
    }

    /// "Branch here": replays the flow from the start to step `index` on a fresh device and goes
    /// on recording there; the steps after it leave the file.
    package func branch(at index: Int) async throws {
        try await queue.run { try await self.branchNow(at: index) }
    }

    private func branchNow(at index: Int) async throws {
        let index = try Self.checked(index, in: document.steps)
        try await changeSteps({ $0 = Array($0.prefix(index + 1)) }, targets: { $0 = $0.filter { $0.key <= index } })
    }

    /// Runs one step of the timeline on the live device (not recorded again).
    package func runStep(_ index: Int) async throws {
        try await queue.run { try await self.runStepNow(index) }
    }

    private func runStepNow(_ index: Int) async throws {
        let index = try Self.checked(index, in: document.steps)
        if isPaused { throw StudioError("the device is paused: resume to run a step") }
        try await perform([document.steps[index]])
    }

    package func setPaused(_ paused: Bool) { isPaused = paused }

    static func checked(_ index: Int, in steps: [String]) throws -> Int {
        guard steps.indices.contains(index) else { throw StudioError("there is no step \(index + 1): the flow has \(steps.count)") }
        return index
    }

    package func shutdown() async {
        hub.detach()
        await device.shutdown()
        try? FileManager.default.removeItem(at: home)
    }

    /// What the page shows besides the screen.
    package struct State: Codable, Sendable {
        package var file: String
        package var steps: [String]
        package var priority: [String]
        package var paused: Bool
        package var notice: String?
        package var width: Double
        package var height: Double
    }

    package var state: State {
        State(
            file: configuration.flow.path, steps: document.steps, priority: priority.map(\.rawValue), paused: isPaused, notice: notice,
            width: device.profile.pointSize.width, height: device.profile.pointSize.height)
    }
}
