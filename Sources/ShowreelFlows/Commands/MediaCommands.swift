import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

/// `screenshot` and Maestro's `takeScreenshot` (a name, or `{path}`): the screen as a PNG
/// beside the video, `<video>-<name>.png`, listed with the flow's attachments.
struct ScreenshotCommand: FlowCommand {
    var name: String

    static let grammar = CommandGrammar(names: ["screenshot", "takeScreenshot"], example: "screenshot: details") { parser, input in
        parser.imageName(input.value, field: input.name).map(ScreenshotCommand.init)
    }

    var summary: String { "Screenshot \(name)" }

    func run(in execution: FlowExecution) async throws {
        let file = "\(execution.screenshotPrefix)-\(try execution.resolve(name)).png"
        try await execution.writeScreenshot(file)
        execution.attach(file)
    }
}

/// `assertScreenshot: reference.png` (or `{path, thresholdPercentage}`): the screen matches
/// the reference image beside the flow. Frames are deterministic, so the default is exact
/// (100%); a missing reference fails, unless the run was asked to write missing ones.
struct AssertScreenshotCommand: FlowCommand {
    var reference: URL
    var name: String
    var threshold: Double = 100

    static let grammar = CommandGrammar(
        names: ["assertScreenshot"], example: "assertScreenshot: {path: home.png, thresholdPercentage: 99.5}"
    ) { parser, input in
        var node = input.value
        var threshold = 100.0
        if case .mapping = node {
            guard let fields = parser.mapping(node, field: input.name, allowed: ["path", "thresholdPercentage", "cropOn"]),
                let path = fields["path"]
            else {
                parser.fail(parser.location(node), "missing field 'path' in assertScreenshot")
                return nil
            }
            if let value = fields["thresholdPercentage"] {
                guard case .scalar = value, let number = value.float, (0...100).contains(number) else {
                    parser.fail(parser.location(value), "'thresholdPercentage' must be a number from 0 to 100")
                    return nil
                }
                threshold = number
            }
            if let value = fields["cropOn"] {
                parser.fail(parser.location(value), "'cropOn' is not supported: compare the whole screen")
                return nil
            }
            node = path
        }
        guard let path = parser.string(node, field: "path") else { return nil }
        let file = path.hasSuffix(".png") ? path : path + ".png"
        let url = URL(fileURLWithPath: file, relativeTo: parser.url.deletingLastPathComponent()).standardizedFileURL
        return AssertScreenshotCommand(reference: url, name: file, threshold: threshold)
    }

    var summary: String { "The screen matches \(name)" }

    func run(in execution: FlowExecution) async throws {
        let screen = await execution.device.screenshot()
        guard let data = try? Data(contentsOf: reference) else {
            guard execution.options.writesMissingReferences else {
                throw StepFailure(
                    message:
                        "no reference image \(name) beside the flow: run with --write-missing-references to write it from this screen")
            }
            try Data(screen.pngData()).writeReplacing(reference)
            return
        }
        let expected: PixelBuffer
        do { expected = try PixelBuffer(pngData: [UInt8](data)) } catch {
            throw StepFailure(message: "\(name) is not a PNG image the runner can read (\(ErrorSentence.describe(error)))")
        }
        guard let difference = screen.difference(from: expected) else { return }
        let same = 100 - Double(difference.differingPixels) / Double(max(screen.width * screen.height, 1)) * 100
        guard difference.sizeMismatch == nil, same >= threshold else {
            let file = "\(execution.screenshotPrefix)-\((name as NSString).lastPathComponent)"
            try? Data(screen.pngData()).writeReplacing(execution.options.output.appendingPathComponent(file))
            execution.attach(file)
            throw StepFailure(
                message:
                    "the screen does not match \(name) (\(difference); \(same.formatted())% the same, \(threshold.formatted())% needed); this screen: \(file)"
            )
        }
    }
}

/// `statusBar: {time, ...}`: the status bar's values from now on.
struct StatusBarCommand: FlowCommand {
    var values: StatusBarValues

    static let grammar = CommandGrammar(names: ["statusBar"], example: "statusBar: {time: \"9:41\"}") { parser, input in
        parser.statusBar(input.value, base: StatusBarValues()).map(StatusBarCommand.init)
    }

    var summary: String { "Set the status bar" }

    func run(in execution: FlowExecution) async throws { await execution.device.overrideStatusBar(values) }
}

/// `setAppearance: dark`: the device switches to light or dark, as `simctl ui appearance`.
struct SetAppearanceCommand: FlowCommand {
    var style: InterfaceStyle

    static let grammar = CommandGrammar(names: ["setAppearance"], example: "setAppearance: dark") { parser, input in
        parser.appearance(input.value).map(SetAppearanceCommand.init)
    }

    var summary: String { "Switch to \(style.rawValue) appearance" }

    func run(in execution: FlowExecution) async throws { await execution.device.setInterfaceStyle(style) }
}

/// `caption: "Sign up in seconds"`: text over the video from now on.
struct CaptionCommand: FlowCommand {
    var text: String

    static let grammar = CommandGrammar(names: ["caption"], example: "caption: \"Sign up in seconds\"") { parser, input in
        guard let node = parser.shorthand(input.value, step: input.name, field: "text", at: input.at) else { return nil }
        return parser.string(node, field: input.value.mapping != nil ? "text" : input.name).map(CaptionCommand.init)

    }

    var summary: String { text }

    func run(in execution: FlowExecution) async throws { await execution.showCaption(try execution.resolve(text)) }
}

extension FileParser {
    /// A plain file name (no '/', not starting with '.'), without its `.png`.
    func imageName(_ node: Node, field: String) -> String? {
        var node = node
        if case .mapping = node {
            guard let fields = mapping(node, field: field, allowed: ["path", "cropOn"]), let path = fields["path"] else {
                fail(location(node), "missing field 'path' in \(field)")
                return nil
            }
            node = path
        }
        guard let name = string(node, field: field) else { return nil }
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            fail(location(node), "a screenshot name is a plain file name (no '/', not starting with '.'), got '\(name)'")
            return nil
        }
        return name.hasSuffix(".png") ? String(name.dropLast(4)) : name
    }
}
