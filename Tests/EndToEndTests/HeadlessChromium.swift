import Foundation

/// Opens a page in Debian's `chromium` (headless) with a probe script injected first in
/// its head; the probe plays the page's part (waits for every video, clicks, reads state) and
/// leaves its findings as JSON in `<pre id="test-results">`, which `--dump-dom` prints.
/// The virtual-time budget is generous (ten minutes): Chromium fast-forwards it while the page
/// is idle, so it costs nothing then, but on a loaded machine (the whole suite running in
/// parallel) decoding the videos takes real time in which virtual time runs on.
enum HeadlessChromium {
    static var executable: URL {
        get throws {
            for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                         "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"]
            where FileManager.default.isExecutableFile(atPath: path) {
                return URL(fileURLWithPath: path)
            }
            throw TestFailure("no chromium: run scripts/install-deps (make test does) to install Debian's chromium package")
        }
    }

    /// Loads `page` with `probe` (JavaScript) injected and returns the probe's JSON result.
    static func probe(_ page: URL, script probe: String, in workspace: Workspace) async throws -> [String: Any] {
        let html = try String(contentsOf: page, encoding: .utf8)
        guard let head = html.range(of: "<head>") else { throw TestFailure("\(page.path) has no <head>") }
        let probed = page.deletingLastPathComponent().appendingPathComponent("probe-\(page.lastPathComponent)")
        try Data(html.replacingCharacters(in: head, with: "<head><script>\(probe)</script>").utf8).write(to: probed)
        defer { try? FileManager.default.removeItem(at: probed) }
        let profile = workspace.file("chromium-profile")
        let chromium = try ChildProcess(try executable, [
            "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--virtual-time-budget=600000", "--dump-dom", probed.absoluteString,
        ], environment: ProcessInfo.processInfo.environment, in: workspace, name: "chromium")
        let status = try await chromium.waitForExit(timeout: .seconds(90))
        guard status == 0 else { throw TestFailure("chromium exited with \(status): \(chromium.stderr.suffix(2000))") }
        let dom = chromium.stdout
        guard let start = dom.range(of: "<pre id=\"test-results\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else {
            throw TestFailure("the probe left no results; the page's DOM: \(dom.suffix(1500))")
        }
        let json = String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw TestFailure("the probe's results are not a JSON object: \(json)")
        }
        return object
    }
}
