import Foundation
import ShowreelGraphics
import ShowreelWire

/// Each step in plain words, for `--captions steps`: "Tap “Canada”", "Type “hello”".
extension FlowStep {
    package var summary: String {
        switch action {
        case let .launchApp(app, _, _, _, _): app.map { "Launch \($0)" } ?? "Launch the app"
        case let .tap(target, count, hold):
            hold != nil
                ? "Long-press \(Self.quoted(target))" : count == 2 ? "Double-tap \(Self.quoted(target))" : "Tap \(Self.quoted(target))"
        case let .inputText(text, _, _, _, _): "Type “\(text)”"
        case let .pressKey(key): "Press \(key)"
        case let .swipe(swipe):
            if let edge = swipe.edge {
                "Swipe in from the \(edge.rawValue) edge"
            } else if let direction = swipe.direction {
                "Swipe \(direction.rawValue)"
            } else {
                "Swipe"
            }
        case let .scroll(direction): "Scroll \(direction.rawValue)"
        case let .scrollUntilVisible(target, _, _): "Scroll to \(Self.quoted(target))"
        case .back: "Go back"
        case .shake: "Shake the device"
        case let .keyCommand(command): "Press \((command.modifiers.names + [command.key]).joined(separator: "+"))"
        case let .assertVisible(target, _): "\(Self.quoted(target)) is visible"
        case let .assertNotVisible(target, _): "\(Self.quoted(target)) is not visible"
        case let .waitFor(target, _): "Wait for \(Self.quoted(target))"
        case let .wait(duration): "Wait \(duration.seconds.formatted()) s"
        case let .screenshot(name): "Screenshot \(name)"
        case .statusBar: "Set the status bar"
        case .setAppearance(let style): "Switch to \(style.rawValue) appearance"
        case let .system(step): step.summary
        case let .runFlow(flow): flow.name
        case let .repeatSteps(times, _): "Repeat \(times) times"
        case let .caption(text): text
        }
    }

    static func quoted(_ target: Target) -> String {
        if case let .element(spec) = target, let text = spec.text { return "“\(text)”" }
        return target.description
    }
}
