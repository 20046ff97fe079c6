import Foundation
import ShowreelWire

/// What happened at each step of a recorded flow or test, for the report's trace view: when the
/// step ran, the screen before and after it (small JPEG pictures), the element tree it acted on,
/// the element it acted on, and what it looked for when it failed. One format for every front
/// end (flows, Swift tests); it lives beside the video as `<video name>.trace.json`.
package struct RunTrace: Codable, Sendable, Equatable {
    /// The screen in points: what step targets and tree frames are measured in.
    package var screen: Size
    package var steps: [Step]
    /// The screens steps show, each once (a step's "after" is mostly the next one's "before"),
    /// as `data:image/jpeg;base64,...`: the report stays one file.
    package var pictures: [String]

    package static let fileSuffix = ".trace.json"

    package init(screen: Size, steps: [Step], pictures: [String]) {
        self.screen = screen
        self.steps = steps
        self.pictures = pictures
    }

    package struct Size: Codable, Sendable, Equatable {
        package var width: Double, height: Double
        package init(width: Double, height: Double) { self.width = width; self.height = height }
    }

    package struct Rect: Codable, Sendable, Equatable {
        package var x: Double, y: Double, width: Double, height: Double
        package init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    package struct Step: Codable, Sendable, Equatable {
        package var title: String
        /// Seconds into the video when the step started and ended.
        package var start: Double
        package var end: Double
        package var status: ManifestEntry.Status
        /// What the step looked for (`buttons["Sign in"]`), when it acted on an element.
        package var query: String?
        /// The element it acted on, in screen points (drawn over the video while the step runs).
        package var target: Rect?
        /// The screen before and after: indexes into `pictures`.
        package var before: Int?
        package var after: Int?
        /// The element tree when the step started.
        package var tree: [Element]
        /// Why it failed: what it looked for and what the screen had instead.
        package var error: String?

        package init(
            title: String, start: Double, end: Double, status: ManifestEntry.Status, query: String? = nil,
            target: Rect? = nil, before: Int? = nil, after: Int? = nil, tree: [Element] = [], error: String? = nil
        ) {
            self.title = title
            self.start = start
            self.end = end
            self.status = status
            self.query = query
            self.target = target
            self.before = before
            self.after = after
            self.tree = tree
            self.error = error
        }
    }

    /// One element of the accessibility tree, as the trace keeps it.
    package struct Element: Codable, Sendable, Equatable {
        package var type: String
        package var identifier: String
        package var label: String
        package var value: String?
        package var frame: Rect
        package var enabled: Bool
        package var hittable: Bool
        package var children: [Element]

        package init(
            type: String, identifier: String, label: String, value: String?, frame: Rect, enabled: Bool, hittable: Bool,
            children: [Element]
        ) {
            self.type = type
            self.identifier = identifier
            self.label = label
            self.value = value
            self.frame = frame
            self.enabled = enabled
            self.hittable = hittable
            self.children = children
        }
    }

    /// This trace with each failure that has a time (a failed expectation) as a failed step at
    /// that time, among the others: a test's entry then reads like a flow's.
    package func adding(failures: [ManifestEntry.Failure]) -> RunTrace {
        var trace = self
        for failure in failures {
            guard let time = failure.deviceTime else { continue }
            let firstLine =
                failure.message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? failure.message
            let step = Step(
                title: "failed: " + firstLine, start: time, end: time, status: .failed,
                error: failure.message + (failure.location.map { " (\($0))" } ?? ""))
            let index = trace.steps.firstIndex { $0.start > time } ?? trace.steps.endIndex
            trace.steps.insert(step, at: index)
        }
        return trace
    }

    /// The trace of `video` (a path relative to the run's folder, or absolute).
    package static func path(forVideo video: String) -> String {
        (video as NSString).deletingPathExtension + fileSuffix
    }

    /// Reads a trace; the error names the file and what was wrong with it.
    package static func load(from url: URL) throws -> RunTrace {
        try RunManifest.load(RunTrace.self, from: url, as: "a step trace")
    }

    /// Writes the trace atomically, compact (it holds pictures).
    package func write(to url: URL) throws {
        try encoded().writeReplacing(url)
    }
}
