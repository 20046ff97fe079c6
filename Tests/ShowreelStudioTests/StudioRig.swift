import Foundation
import ShowreelTestSupport

/// A `showreel studio` child process on a flow file in a workspace, and the page driven in
/// headless Chromium through Selenium (`Fixtures/Studio/drive_studio.py`, with the build folder's
/// virtualenv from `scripts/browser-venv`).
struct StudioRig {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let workspace: Workspace
    let process: ChildProcess
    let url: String

    /// Starts the studio on `flow` with `arguments`, and waits for the URL it prints.
    static func start(_ flow: URL, _ arguments: [String] = [], in workspace: Workspace, name: String) async throws -> StudioRig {
        let process = try ChildProcess(
            try BuildProducts.showreel, ["studio", flow.path] + arguments, environment: workspace.environment, in: workspace, name: name,
            directory: workspace.url)
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            if let line = process.stdout.split(separator: "\n").first(where: { $0.hasPrefix("http://") }) {
                return StudioRig(workspace: workspace, process: process, url: String(line))
            }
            guard process.process.isRunning else {
                throw TestFailure("showreel studio exited with \(process.terminationStatus): \(process.stderr)")
            }
            guard ContinuousClock.now < deadline else { throw TestFailure("showreel studio printed no URL: \(process.stderr)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The page's origin: `http://127.0.0.1:PORT`.
    var origin: String { String(url[..<url.range(of: "/?token=")!.lowerBound]) }
    var token: String { String(url[url.range(of: "token=")!.upperBound...]) }

    /// Runs a scenario of the page driver; returns what it reported.
    func drive(_ scenario: String, extra: [String] = []) async throws -> [String: Any] {
        let python = Self.root.appendingPathComponent(".build/venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw TestFailure("no virtualenv at \(python.path): run scripts/browser-venv (make test does)")
        }
        let driver = try ChildProcess(
            python, [Self.root.appendingPathComponent("Fixtures/Studio/drive_studio.py").path, scenario, url] + extra,
            environment: workspace.environment, in: workspace, name: "driver-\(scenario)", directory: workspace.url)
        let status = try await driver.waitForExit(timeout: .seconds(600))
        guard status == 0 else {
            throw TestFailure(
                "the page driver (\(scenario)) exited with \(status): \(driver.stdout.suffix(500)) \(driver.stderr.suffix(3000))")
        }
        let line = driver.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestFailure("the page driver printed no JSON: \(driver.stdout)")
        }
        return object
    }

    /// A request with curl (which sends exactly the headers it is given): the status code.
    func status(_ path: String, method: String = "GET", headers: [String] = [], body: String? = nil) async throws -> Int {
        var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", method, "--max-time", "60"]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        let data = try await runTool("/usr/bin/curl", arguments + [origin + path])
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }
}
