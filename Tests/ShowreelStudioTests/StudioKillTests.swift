import Foundation
import ShowreelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The file is written whole after every step (beside, then renamed): a studio killed with
/// SIGKILL while steps are being recorded leaves a flow that `showreel run --check` accepts.
@Suite("Studio killed mid-recording", .timeLimit(.minutes(10)))
struct StudioKillTests {
    @Test func aKilledStudioLeavesTheLastGoodFlow() async throws {
        let workspace = try Workspace()
        let flow = workspace.file("mail.yaml")
        let studio = try await StudioRig.start(flow, ["--app", "dev.showreel.mail"], in: workspace, name: "studio")
        let token = "X-Showreel-Token: \(studio.token)"
        // Open a thread, swipe back, again and again; the last requests are in flight at the kill.
        let gestures = [#"{"kind": "tap", "x": 100, "y": 240}"#, #"{"kind": "swipe", "x": 4, "y": 420, "toX": 320, "toY": 430}"#]
        for index in 0..<6 {
            #expect(try await studio.status("/api/gesture", method: "POST", headers: [token], body: gestures[index % 2]) == 200)
        }
        var inFlight: [ChildProcess] = []
        for index in 0..<4 {
            inFlight.append(
                try ChildProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    [
                        "-s", "-o", "/dev/null", "-H", token, "-H", "Content-Type: application/json", "--data", gestures[index % 2],
                        studio.origin + "/api/gesture",
                    ], environment: workspace.environment, in: workspace, name: "curl-\(index)"))
        }
        studio.process.signal(SIGKILL)
        _ = try await studio.process.waitForExit()
        for curl in inFlight { _ = try await curl.waitForExit() }

        let check = try ChildProcess(
            try BuildProducts.showreel, ["run", "--check", flow.path], environment: workspace.environment, in: workspace, name: "check")
        let text = try String(contentsOf: flow, encoding: .utf8)
        #expect(try await check.waitForExit() == 0, "\(check.stderr)\n\(text)")
        let steps = text.components(separatedBy: "\n---\n")[1].split(separator: "\n")
        #expect(steps.count >= 7, "the six answered steps and launchApp are in the file")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).filter { $0.contains("mail.yaml") } == ["mail.yaml"])
    }
}
