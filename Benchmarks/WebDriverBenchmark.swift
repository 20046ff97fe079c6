import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelTesting
import ShowreelWebDriver
import ShowreelWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `showreel webdriver` against the Swift client: the same round trip (find Canada, tap it,
/// read the country's name, go back) through WebDriver (four requests and back) and through
/// `DeviceClient` over a device's automation API (three calls), both over loopback HTTP to an
/// in-process device on the virtual clock; then the WebDriver pytest suite's wall time with and
/// without `showreel:record` on every session (alternating rounds, the fastest counts).
enum WebDriverBenchmark {
    static let iterations = 40

    static func run(rounds: Int) throws -> [String] {
        let (webDriver, swiftClient) = try blocking { try await roundTrips() }
        var lines = [
            "WebDriver round trip (find + click + find + text + back), \(iterations) iterations, fastest of \(rounds)",
            String(format: "  WebDriver (5 HTTP requests):        %6.2f ms per round trip", webDriver * 1000),
            String(
                format: "  Swift DeviceClient (3 HTTP calls):  %6.2f ms per round trip   WebDriver takes %.2fx", swiftClient * 1000,
                webDriver / swiftClient),
        ]
        lines += try suite(rounds: rounds)
        return lines
    }

    /// Seconds per round trip: (WebDriver, Swift client), the fastest round of each.
    private static func roundTrips() async throws -> (Double, Double) {
        let work = URL(fileURLWithPath: "/tmp/srb-webdriver-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let server = WebDriverServer(configuration: WebDriverConfiguration(port: 0, apps: ShowcaseCatalog.apps, output: work))
        let port = AsyncStream<Int>.makeStream()
        let serving = Task { try await server.run { port.continuation.yield($0) } }
        guard let bound = await port.stream.first(where: { _ in true }) else { throw BenchmarkError("the WebDriver server did not start") }
        let base = "http://127.0.0.1:\(bound)"
        let session = try await call(
            base, "POST", "/session",
            [
                "capabilities": [
                    "alwaysMatch": [
                        "platformName": "iOS", "appium:bundleId": CountriesApp.bundleIdentifier,
                        "appium:arguments": ["--countries-datasource", "local-mock"],
                    ]
                ]
            ])
        guard let id = (session as? [String: Any])?["sessionId"] as? String else { throw BenchmarkError("no session: \(session ?? "nil")") }
        func element(_ name: String) async throws -> String {
            let found = try await call(base, "POST", "/session/\(id)/element", ["using": "accessibility id", "value": name])
            guard let element = (found as? [String: String])?["ELEMENT"] else { throw BenchmarkError("no \(name): \(found ?? "nil")") }
            return element
        }
        let webDriver = try await fastest(rounds: 3) {
            _ = try await call(base, "POST", "/session/\(id)/element/\(try await element("Canada"))/click", [:])
            let text = try await call(base, "GET", "/session/\(id)/element/\(try await element("countryName"))/text", nil) as? String
            guard text == "Canada" else { throw BenchmarkError("WebDriver read \(text ?? "nil")") }
            _ = try await call(base, "POST", "/session/\(id)/back", [:])
        }
        _ = try await call(base, "DELETE", "/session/\(id)", nil)
        serving.cancel()
        _ = await serving.result  // the server ends its sessions and removes its devices' folder

        let device = try Device(apps: ShowcaseCatalog.apps, registry: DeviceRegistry(home: work.appendingPathComponent("home")))
        let api = AsyncStream<Int>.makeStream()
        let automation = Task { try await AutomationServer(device: device, port: 0).run { api.continuation.yield($0) } }
        guard let apiPort = await api.stream.first(where: { _ in true }) else { throw BenchmarkError("the automation API did not start") }
        let client = DeviceClient(baseURL: URL(string: "http://127.0.0.1:\(apiPort)")!)
        try await client.launch(CountriesApp.bundleIdentifier, arguments: ["--countries-datasource", "local-mock"])
        let swift = try await fastest(rounds: 3) {
            try await client.perform(.tap(.init(.element(.cell("Canada")))))
            let name = try await client.element(.staticText("countryName")).label
            guard name == "Canada" else { throw BenchmarkError("DeviceClient read \(name)") }
            try await client.perform(.tap(.init(.element(.button("BackButton")))))
        }
        automation.cancel()
        _ = await automation.result
        await device.shutdown()
        return (webDriver, swift)
    }

    /// The fastest of `rounds` rounds of `iterations` round trips, in seconds per round trip.
    private static func fastest(rounds: Int, _ body: () async throws -> Void) async throws -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = monotonicSeconds()
            for _ in 0..<iterations { try await body() }
            best = min(best, (monotonicSeconds() - start) / Double(iterations))
        }
        return best
    }

    /// The pytest suite's wall time with and without a video of every session.
    private static func suite(rounds: Int) throws -> [String] {
        let python = ".build/venv/bin/python"
        let tests = "Tests/WebDriverSuite/test_countries.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: tests) else {
            return ["WebDriver pytest suite: not run (needs .build/venv from scripts/browser-venv, run from the repository's root)"]
        }
        let work = URL(fileURLWithPath: "/tmp/srb-webdriver-suite-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let server = WebDriverServer(configuration: WebDriverConfiguration(port: 0, apps: ShowcaseCatalog.apps, output: work))
        let port = try blocking { () async throws -> Int in
            let bound = AsyncStream<Int>.makeStream()
            Task { try await server.run { bound.continuation.yield($0) } }
            guard let port = await bound.stream.first(where: { _ in true }) else {
                throw BenchmarkError("the WebDriver server did not start")
            }
            return port
        }
        var best: [Bool: Double] = [:]
        var count = 0
        for round in 0..<max(rounds, 3) {
            for record in round % 2 == 0 ? [false, true] : [true, false] {
                var environment = ProcessInfo.processInfo.environment
                environment["SHOWREEL_WEBDRIVER_URL"] = "http://127.0.0.1:\(port)"
                environment["SHOWREEL_WEBDRIVER_OUTPUT"] = work.path
                if record { environment["SHOWREEL_WEBDRIVER_RECORD_ALL"] = "1" } else { environment["SHOWREEL_WEBDRIVER_RECORD_ALL"] = nil }
                let run = try TimedChild.run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", tests], environment: environment)
                guard run.status == 0 else { throw BenchmarkError("pytest failed:\n\(run.output.suffix(2000))") }
                count = Int(run.output.firstMatch(of: /(\d+) passed/)?.1 ?? "") ?? 0
                best[record] = min(best[record] ?? .infinity, run.seconds)
            }
        }
        blocking { await server.shutdown() }
        let videos = (try? FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasSuffix(".mov") }.count) ?? 0
        let ratio = best[true]! / best[false]!
        BenchFigures.shared.record("webdriver.recording_ratio", ratio)
        return [
            "WebDriver pytest suite (\(tests), \(count) tests, a session each), fastest of \(max(rounds, 3))",
            String(format: "  without showreel:record: %6.2f s wall", best[false]!),
            String(
                format: "  with showreel:record:    %6.2f s wall   (%d session videos)   recording takes %.2fx", best[true]!, videos,
                ratio),
            targetLine(ratio <= 1.3, String(format: "WebDriver recording <= 1.30x: %.2fx", ratio)),
        ]
    }

    private static func call(_ base: String, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchmarkError("\(method) \(path): \(String(decoding: data, as: UTF8.self))")
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["value"]
    }
}
