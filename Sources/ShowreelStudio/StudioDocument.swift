import Foundation

/// The flow file as the studio edits it: the header's text and one text per step, each a YAML
/// list item (`- tapOn: "Canada"`), kept as written, so a reopened file keeps its comments and
/// layout and a recorded step is appended, deleted or edited without rewriting the others.
package struct StudioDocument: Sendable, Equatable {
    package var header: String
    package var steps: [String]

    package init(header: String, steps: [String]) {
        self.header = header
        self.steps = steps
    }

    /// The file's text: what `showreel run` reads.
    package var text: String {
        var text = header.hasSuffix("\n") ? header : header + "\n"
        text += "---\n"
        for step in steps { text += step.hasSuffix("\n") ? step : step + "\n" }
        return text
    }

    /// Splits an existing flow at its `---` line, and its steps at each list item that starts a
    /// line (lines before the first item, comments or blanks, stay with the header's side).
    package init(parsing text: String) {
        var header: [Substring] = []
        var steps: [String] = []
        var preamble: [Substring] = []
        var inSteps = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inSteps {
                if line.trimmingCharacters(in: .whitespaces) == "---" { inSteps = true } else { header.append(line) }
                continue
            }
            if line.hasPrefix("- ") || line == "-" {
                steps.append(String(line))
            } else if steps.isEmpty {
                preamble.append(line)
            } else {
                steps[steps.count - 1] += "\n" + line
            }
        }
        // Trailing blank lines belong to no step.
        steps = steps.map { step in
            var step = step
            while step.hasSuffix("\n") { step.removeLast() }
            return step
        }
        let kept = preamble.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        if !kept.isEmpty, !steps.isEmpty { steps[0] = kept.joined(separator: "\n") + "\n" + steps[0] }
        self.header = header.joined(separator: "\n").trimmingCharacters(in: .newlines)
        self.steps = steps
    }

    /// A new flow's header: the app, its launch arguments and the device, as the options say.
    package static func newHeader(
        appId: String, arguments: [String], profile: String?, language: String?, appearance: String?, priority: [String]
    ) -> String {
        var lines = ["# Recorded with showreel studio.", "appId: \(YAMLText.quoted(appId))"]
        if !arguments.isEmpty { lines.append("arguments: [\(arguments.map(YAMLText.quoted).joined(separator: ", "))]") }
        var device: [String] = []
        if let profile { device.append("profile: \(YAMLText.quoted(profile))") }
        if let appearance { device.append("appearance: \(YAMLText.quoted(appearance))") }
        if let language { device.append("languages: [\(YAMLText.quoted(language))]") }
        if !device.isEmpty { lines.append("device: {\(device.joined(separator: ", "))}") }
        lines.append(selectorsLine(priority))
        return lines.joined(separator: "\n")
    }

    static func selectorsLine(_ priority: [String]) -> String { "selectors: [\(priority.joined(separator: ", "))]" }

    /// The header with its `selectors` line replaced (or added): the selector priority is saved
    /// in the flow, so a reopened file records with the same order.
    package mutating func setSelectorPriority(_ priority: [String]) {
        var lines = header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let start = lines.firstIndex(where: { $0.hasPrefix("selectors:") }) {
            var end = start + 1
            // A block list under it (`  - id`) goes too.
            while end < lines.count, lines[end].hasPrefix(" ") || lines[end].hasPrefix("-") { end += 1 }
            lines.replaceSubrange(start..<end, with: [Self.selectorsLine(priority)])
        } else {
            lines.append(Self.selectorsLine(priority))
        }
        header = lines.joined(separator: "\n")
    }
}
