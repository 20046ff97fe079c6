import ShowreelRender
import ShowreelUI

/// A test app that reports shakes and Cmd+D on a label, and has a text field, so tests can
/// see that events reach the top-most screen (and that a shake with a focused field does not).
enum MotionApp {
    static let bundleIdentifier = "dev.showreel.test.motion"

    static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Motion") { _ in MotionScreen() }
}

final class MotionScreen: Screen {
    let events = Label("none")

    init() { super.init(title: "Motion") }

    override func viewDidLoad() {
        events.accessibilityIdentifier = "events"
        events.frame = Rect(x: 20, y: 120, width: 350, height: 30)
        view.addSubview(events)
    }

    override func motionEnded(_ motion: Motion) -> Bool {
        events.text = events.text == "none" ? "shake" : events.text + ",shake"
        return true
    }

    override var keyCommands: [KeyCommand] {
        [
            KeyCommand(input: "d", modifiers: [.command], title: "Debug") { [events] in
                events.text = events.text == "none" ? "cmd+d" : events.text + ",cmd+d"
            }
        ]
    }
}
