import Foundation
import ShowreelRender
import ShowreelUI

/// A test app that shows what it was launched with, and counts its launches in a file in
/// its data container (`HOME`), so tests can see arguments, environment and persistence.
enum EchoApp {
    static let bundleIdentifier = "dev.showreel.test.echo"

    static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Echo") { context in
        let screen = Screen(title: "Echo")
        var labels: [Label] = []
        for (index, argument) in context.arguments.enumerated() {
            let label = Label(argument)
            label.accessibilityIdentifier = "arg\(index)"
            labels.append(label)
        }
        for key in context.environment.keys.sorted() where key != "HOME" {
            let label = Label(context.environment[key]!)
            label.accessibilityIdentifier = "env.\(key)"
            labels.append(label)
        }
        let counter = URL(fileURLWithPath: context.environment["HOME"] ?? "/nonexistent").appendingPathComponent("launches")
        let launches = (Int((try? String(contentsOf: counter, encoding: .utf8)) ?? "0") ?? 0) + 1
        try? String(launches).write(to: counter, atomically: true, encoding: .utf8)
        let count = Label("Launches: \(launches)")
        count.accessibilityIdentifier = "launches"
        labels.append(count)
        let field = Label("")
        field.accessibilityIdentifier = "emptyValue"
        field.accessibilityValue = "on"
        labels.append(field)
        for (index, label) in labels.enumerated() {
            label.frame = Rect(x: 20, y: 80 + Double(index) * 30, width: 350, height: 26)
            screen.view.addSubview(label)
        }
        return screen
    }
}
