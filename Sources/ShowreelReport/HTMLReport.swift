import Foundation

/// One recorded test (or demo) in a report.
public struct ReportEntry: Sendable, Equatable {
    public enum Outcome: String, Sendable { case passed, failed }

    public var name: String
    public var outcome: Outcome
    /// The video, relative to the report's folder.
    public var videoPath: String
    public var duration: Double
    public var frameCount: Int
    public var codec: String
    public var width: Int
    public var height: Int
    public var message: String?

    public init(name: String, outcome: Outcome, videoPath: String, duration: Double, frameCount: Int, codec: String,
                width: Int, height: Int, message: String? = nil) {
        self.name = name; self.outcome = outcome; self.videoPath = videoPath; self.duration = duration
        self.frameCount = frameCount; self.codec = codec; self.width = width; self.height = height; self.message = message
    }
}

/// A self-contained HTML page listing recordings with their videos, for CI artifacts.
public struct HTMLReport: Sendable {
    public var title: String
    public var entries: [ReportEntry]

    public init(title: String, entries: [ReportEntry]) {
        self.title = title
        self.entries = entries
    }

    public func render() -> String {
        let passed = entries.filter { $0.outcome == .passed }.count
        let rows = entries.map { entry in
            """
              <section class="\(entry.outcome.rawValue)">
                <h2>\(escape(entry.name)) <span>\(entry.outcome.rawValue)</span></h2>
                <video controls muted playsinline src="\(escape(entry.videoPath))" width="\(entry.width / 4)"></video>
                <p>\(String(format: "%.3f", entry.duration)) s · \(entry.frameCount) frames · \(escape(entry.codec)) \(entry.width)x\(entry.height)</p>
                \(entry.message.map { "<pre>\(escape($0))</pre>" } ?? "")
              </section>
            """
        }.joined(separator: "\n")
        return """
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>\(escape(title))</title>
          <style>
            body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem; color: #111; }
            section { border: 1px solid #ddd; border-radius: 8px; padding: 1rem; margin: 1rem 0; display: inline-block; vertical-align: top; }
            section.failed { border-color: #ff3b30; }
            h2 span { font-size: .8rem; padding: .1rem .4rem; border-radius: 4px; background: #34c759; color: white; }
            section.failed h2 span { background: #ff3b30; }
            video { display: block; background: #000; border-radius: 12px; }
          </style>
        </head>
        <body>
          <h1>\(escape(title))</h1>
          <p>\(passed) of \(entries.count) passed.</p>
        \(rows)
        </body>
        </html>
        """
    }

    /// Writes the page atomically, so a reader never sees half of it.
    public func write(to url: URL) throws {
        try Data(render().utf8).write(to: url, options: .atomic)
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
