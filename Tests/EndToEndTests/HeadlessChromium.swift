import Foundation
import ShowreelTestSupport

/// Opens a page in Debian's `chromium` (headless) with a probe script injected first in
/// its head; the probe plays the page's part (waits for every video, clicks, reads state) and
/// leaves its findings as JSON in `<pre id="test-results">`, which `--dump-dom` prints.
/// The virtual-time budget is generous (ten minutes): Chromium fast-forwards it while the page
/// is idle, so it costs nothing then, but on a loaded machine (the whole suite running in
/// parallel) decoding the videos takes real time in which virtual time runs on.
enum HeadlessChromium {
    static var executable: URL {
        get throws {
            for path in [
                "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium",
            ]
            where FileManager.default.isExecutableFile(atPath: path) {
                return URL(fileURLWithPath: path)
            }
            throw TestFailure("no chromium: run scripts/install-deps (make test does) to install Debian's chromium package")
        }
    }

    /// Loads `page` with `probe` (JavaScript) injected and returns the probe's JSON result.
    static func probe(_ page: URL, script probe: String, in workspace: Workspace) async throws -> [String: Any] {
        let dom = try await run(page, script: probe, action: ["--dump-dom"], in: workspace).stdout
        guard let start = dom.range(of: "<pre id=\"test-results\">"),
            let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else {
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

    /// Loads `page` with `script` injected, in a `width` x `height` window, and writes what the
    /// page shows once it is idle to `screenshot` (PNG).
    static func screenshot(_ page: URL, script: String, width: Int, height: Int, to screenshot: URL, in workspace: Workspace) async throws {
        _ = try await run(
            page, script: script,
            action: [
                "--hide-scrollbars", "--window-size=\(width),\(height)",
                "--screenshot=\(screenshot.path)",
            ], in: workspace)
    }

    /// Runs Chromium headless on `page` with `script` first in its head, then `action`.
    private static func run(_ page: URL, script: String, action: [String], in workspace: Workspace) async throws -> ChildProcess {
        let html = try String(contentsOf: page, encoding: .utf8)
        guard let head = html.range(of: "<head>") else { throw TestFailure("\(page.path) has no <head>") }
        let probed = page.deletingLastPathComponent().appendingPathComponent("probe-\(page.lastPathComponent)")
        try Data(html.replacingCharacters(in: head, with: "<head><script>\(script)</script>").utf8).write(to: probed)
        defer { try? FileManager.default.removeItem(at: probed) }
        let profile = workspace.file("chromium-profile")
        let chromium = try ChildProcess(
            try executable,
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--user-data-dir=\(profile.path)",
                "--virtual-time-budget=600000",
            ] + action + [probed.absoluteString], environment: ProcessInfo.processInfo.environment, in: workspace, name: "chromium")
        let status = try await chromium.waitForExit(timeout: .seconds(90))
        guard status == 0 else { throw TestFailure("chromium exited with \(status): \(chromium.stderr.suffix(2000))") }
        return chromium
    }
}
