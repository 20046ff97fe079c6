import ArgumentParser
import Foundation
import Logging
import ShowreelWebDriver
import ShowreelWire

/// `showreel webdriver`: an Appium-compatible WebDriver server for Appium clients and Appium Inspector.
struct WebDriverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webdriver",
        abstract: "Serve W3C WebDriver with Appium's extensions: Appium clients and Appium Inspector drive Showreel devices.",
        discussion: """
            Serves at / and at /wd/hub. Each session (POST /session with platformName iOS and \
            appium:bundleId) boots its own in-process device, or attaches to one booted with \
            `showreel device boot` (appium:udid). showreel:record true records the whole session \
            into --output with a manifest entry and the report. On SIGINT or SIGTERM every session \
            ends (recordings finished, devices shut down) and the server exits 0.
            """)

    @Option(help: "TCP port to listen on (0 picks a free one).")
    var port = 4723

    @Option(help: "Address to bind. The default accepts connections from this machine only.")
    var host = "127.0.0.1"

    @Option(help: "Where showreel:record writes videos, manifest.json, report.html and junit.xml.")
    var output = "Recordings"

    @Flag(
        name: .customLong("allow-cors"),
        help: "Answer web pages (Appium Inspector) with CORS headers; without it requests that carry an Origin are refused.")
    var allowCORS = false

    @Option(
        name: .customLong("max-sessions"),
        help: "Sessions that may run at once (1 to 1000); a new session past it is refused with 'session not created'.")
    var maxSessions = WebDriverConfiguration.defaultMaxSessions

    @Flag(name: .shortAndLong, help: "Log sessions and requests to stderr.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty; the default is 127.0.0.1") }
        guard (1...1000).contains(maxSessions) else {
            throw ValidationError("--max-sessions must be between 1 and 1000, got \(maxSessions)")
        }
    }

    func run() async throws {
        try await reportingFailures {
            var logger = Logger(label: "showreel.webdriver") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = verbose ? .info : .warning
            let folder = URL(fileURLWithPath: output, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .standardizedFileURL
            let server = WebDriverServer(
                configuration: WebDriverConfiguration(
                    host: host, port: port, apps: ShowreelConfiguration.current.apps, output: folder, outputPathPrefix: output,
                    allowsCORS: allowCORS, maxSessions: maxSessions, logger: logger))
            let display = host.contains(":") ? "[\(host)]" : host
            let result = await serveUntilTerminated {
                try await server.run { bound in
                    Console.status("WebDriver server listening on http://\(display):\(bound) (also /wd/hub). Stop with Ctrl-C.")
                }
            }
            await server.shutdown()
            if case let .failure(error) = result {
                let text = "\(error)"
                if text.contains("Cannot assign requested address") || text.contains("not available") {
                    throw CLIFailure(
                        message: "cannot bind \(host): not an address of this machine (use 127.0.0.1, ::1 or 0.0.0.0)", exitCode: 1)
                }
                throw CLIFailure(message: text, exitCode: 1)
            }
        }
    }
}
