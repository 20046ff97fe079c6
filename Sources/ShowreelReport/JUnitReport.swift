import Foundation
import ShowreelWire

/// A run as JUnit XML, for CI test tabs: one testcase per entry, a failure with its message
/// and `file:line:column`, and the video as an attachment line (`[[ATTACHMENT|path]]`, which
/// Jenkins' JUnit attachments plugin and GitLab read).
package struct JUnitReport: Sendable {
    package var manifest: RunManifest
    /// Put before each file path, so attachment paths resolve from where CI runs (for example
    /// "Recordings/"); empty keeps them relative to the manifest's folder.
    package var pathPrefix: String

    package static let fileName = "junit.xml"

    package init(manifest: RunManifest, pathPrefix: String = "") {
        self.manifest = manifest
        self.pathPrefix = pathPrefix.isEmpty || pathPrefix.hasSuffix("/") ? pathPrefix : pathPrefix + "/"
    }

    package func render() -> String {
        let e = Markup.escape
        let counts =
            "tests=\"\(manifest.entries.count)\" failures=\"\(manifest.count(.failed))\" errors=\"\(manifest.count(.interrupted))\" skipped=\"\(manifest.count(.skipped))\" time=\"\(Markup.seconds(manifest.duration))\""
        let timestamp = ISO8601DateFormatter().string(from: manifest.createdAt)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"\(e(manifest.title))\" \(counts)>",
            "  <testsuite name=\"\(e(manifest.title))\" \(counts) timestamp=\"\(timestamp)\">",
        ]
        for entry in manifest.entries {
            let source = entry.sourceID
            let classname = entry.suite ?? source.parentPath
            let file = source.hasSuffix(".yaml") || source.hasSuffix(".yml") ? " file=\"\(e(source))\"" : ""
            lines.append(
                "    <testcase classname=\"\(e(classname.isEmpty ? manifest.title : classname))\" name=\"\(e(entry.nameInCell))\"\(file) time=\"\(Markup.seconds(entry.duration))\">"
            )
            // An interrupted test is an error (it did not finish), not a failure of the app.
            let (element, type) = entry.status == .interrupted ? ("error", "interrupted") : ("failure", "failure")
            for failure in entry.failures {
                let at = failure.location.map { "\($0): " } ?? ""
                let when = failure.deviceTime.map { " (at \(Markup.seconds($0)) s in the video)" } ?? ""
                lines.append(
                    "      <\(element) message=\"\(e(at + failure.message))\" type=\"\(type)\">\(e(at + failure.message + when))</\(element)>"
                )
            }
            if entry.status == .skipped { lines.append("      <skipped/>") }
            let files = [entry.video, entry.screenshot].compactMap { $0 } + entry.attachments
            if !files.isEmpty {
                let attachments = files.map { "[[ATTACHMENT|\(e(pathPrefix + $0))]]" }.joined(separator: "\n")
                lines.append("      <system-out>\(attachments)</system-out>")
            }
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }

    package func write(to url: URL) throws {
        try Data(render().utf8).writeReplacing(url)
    }
}
