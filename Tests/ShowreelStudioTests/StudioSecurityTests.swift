import Foundation
import ShowreelTestSupport
import Testing

/// The studio drives a device and writes a file: requests without the token, or from another
/// site (a foreign `Origin`, `Sec-Fetch-Site`), or to another name (a rebinding `Host`), are
/// refused before anything happens, the live stream included.
@Suite("Studio refuses strangers", .timeLimit(.minutes(10)))
struct StudioSecurityTests {
    @Test func refusals() async throws {
        let workspace = try Workspace()
        let flow = workspace.file("hello.yaml")
        let studio = try await StudioRig.start(flow, ["--app", "dev.showreel.hello"], in: workspace, name: "studio")
        let before = try String(contentsOf: flow, encoding: .utf8)
        let port = studio.origin.split(separator: ":").last!
        let token = "X-Showreel-Token: \(studio.token)"
        let tap = #"{"kind": "tap", "x": 195, "y": 400}"#
        // (what is asked, the status wanted)
        let checks: [(request: Request, status: Int)] = [
            (Request("/api/state", headers: [token]), 200),
            (Request("/"), 401),
            (Request("/api/state"), 401),
            (Request("/events"), 401),
            (Request("/frame.png"), 401),
            (Request("/api/state", headers: ["X-Showreel-Token: 0000"]), 403),
            (Request("/api/state", headers: ["Cookie: showreel-studio=wrong"]), 403),
            (Request("/api/gesture", method: "POST", body: tap), 401),
            // DNS rebinding: the right token, a foreign name; a loopback name with another port.
            (Request("/api/state", headers: [token, "Host: evil.example:\(port)"]), 403),
            (Request("/api/state", headers: [token, "Host: 127.0.0.1:1"]), 403),
            // Another page: its Origin, or the browser's Sec-Fetch-Site.
            (Request("/api/gesture", method: "POST", headers: [token, "Origin: http://evil.example"], body: tap), 403),
            (Request("/api/gesture", method: "POST", headers: [token, "Origin: null"], body: tap), 403),
            (Request("/events", headers: [token, "Sec-Fetch-Site: cross-site"]), 403),
            (Request("/api/state", headers: [token, "Origin: \(studio.origin)"]), 200),
            // Bad input: a clear 4xx, not a step.
            (Request("/api/gesture", method: "POST", headers: [token], body: "{"), 400),
            (Request("/api/gesture", method: "POST", headers: [token], body: #"{"kind": "tap", "x": 5000, "y": 1}"#), 422),
            (Request("/api/steps/delete", method: "POST", headers: [token], body: #"{"index": 40}"#), 422),
            (Request("/runs/1/mail.mp4", headers: [token]), 404),
        ]
        let statuses = try await studio.process.stopping {
            var statuses: [Int] = []
            for check in checks {
                statuses.append(
                    try await studio.status(
                        check.request.path, method: check.request.method, headers: check.request.headers, body: check.request.body))
            }
            return statuses
        }
        for (check, status) in zip(checks, statuses) {
            #expect(status == check.status, "\(check.request.method) \(check.request.path) \(check.request.headers)")
        }
        #expect(try String(contentsOf: flow, encoding: .utf8) == before)
        // The file is all it wrote in its folder.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".png") }
                == ["hello.yaml"])
    }

    struct Request {
        var path: String
        var method = "GET"
        var headers: [String] = []
        var body: String?

        init(_ path: String, method: String = "GET", headers: [String] = [], body: String? = nil) {
            self.path = path
            self.method = method
            self.headers = headers
            self.body = body
        }
    }

    /// A new flow's header comes from the options, and the file is written before the page opens.
    @Test func aNewFlowsHeaderFromTheOptions() async throws {
        let workspace = try Workspace()
        let flow = workspace.file("countries.yaml")
        let studio = try await StudioRig.start(
            flow,
            [
                "--app", "dev.showreel.countries", "--device", "phone-small", "--language", "de", "--appearance", "dark", "--",
                "--countries-datasource", "local-mock",
            ], in: workspace, name: "studio")
        try await studio.process.stopping {}
        #expect(
            try String(contentsOf: flow, encoding: .utf8) == """
                # Recorded with showreel studio.
                appId: "dev.showreel.countries"
                arguments: ["--countries-datasource", "local-mock"]
                device: {profile: "phone-small", appearance: "dark", languages: ["de"]}
                selectors: [id, text, type, point]
                ---
                - launchApp

                """)
    }

    /// A port another studio holds: one sentence, exit 1.
    @Test func aPortInUse() async throws {
        let workspace = try Workspace()
        let first = try await StudioRig.start(workspace.file("a.yaml"), ["--app", "dev.showreel.mail"], in: workspace, name: "first")
        let port = String(first.origin.split(separator: ":").last!)
        let status = try await first.process.stopping {
            let second = try ChildProcess(
                try BuildProducts.showreel, ["studio", workspace.file("b.yaml").path, "--app", "dev.showreel.mail", "--port", port],
                environment: workspace.environment, in: workspace, name: "second")
            let status = try await second.waitForExit()
            #expect(second.stderr.contains("port \(port) is in use"), "\(second.stderr)")
            return status
        }
        #expect(status == 1)
    }

    /// Bad command lines: one sentence and a non-zero exit.
    @Test func badCommandLines() async throws {
        let workspace = try Workspace()
        let broken = try workspace.write("broken.yaml", "appId: dev.showreel.mail\n---\n- launchApp\n- tapOm: \"Canada\"\n")
        for (arguments, words) in [
            (["studio", broken.path], "broken.yaml:4:3: error: unknown step 'tapOm'; did you mean 'tapOn'?"),
            (["studio", workspace.file("new.yaml").path], "--app"),
            (["studio", workspace.file("flow.txt").path, "--app", "dev.showreel.mail"], "not a flow file"),
            (["studio", workspace.file("new.yaml").path, "--app", "dev.showreel.nope"], "unknown app"),
            (["studio", workspace.file("new.yaml").path, "--app", "dev.showreel.mail", "--appearance", "sepia"], "light or dark"),
        ] {
            let process = try ChildProcess(
                try BuildProducts.showreel, arguments, environment: workspace.environment, in: workspace, name: "bad")
            #expect(try await process.waitForExit() != 0)
            #expect(process.stderr.contains(words), "\(process.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.file("new.yaml").path))
    }
}
