import Foundation
import ShowreelTestSupport
import Testing

/// `showreel studio` in a real browser: what is done on the live screen is written to the flow,
/// `showreel run` runs that file, a reopened file is replayed and goes on, a branch replays to
/// its step, and the timeline's delete, edit, pause and run work.
@Suite("Studio in a real browser", .serialized, .timeLimit(.minutes(10)))
struct StudioBrowserTests {
    static let opening = ["- launchApp", "- tapOn: {id: \"Lunch on Friday?\"}", "- tapOn: {id: \"message0\"}"]

    /// A studio on a Mail flow with `steps`, driven through `scenario`: what the page reported,
    /// and the steps of the flow file it left.
    static func drive(_ scenario: String, onMailFlowWith steps: [String]) async throws -> (
        seen: [String: Any], file: [String], header: String
    ) {
        let workspace = try Workspace()
        let flow = try workspace.write("mail.yaml", "appId: dev.showreel.mail\n---\n" + steps.joined(separator: "\n") + "\n")
        let studio = try await StudioRig.start(flow, [], in: workspace, name: "studio")
        let seen = try await studio.process.stopping { try await studio.drive(scenario) }
        let text = try String(contentsOf: flow, encoding: .utf8)
        return (seen, try Self.steps(of: flow), text.components(separatedBy: "\n---\n")[0])
    }

    static func steps(of file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.components(separatedBy: "\n---\n")[1].split(separator: "\n").map(String.init)
    }

    /// Records a new flow in the browser (a row, a field, typing, a back swipe), runs it with
    /// `showreel run`, then reopens it: replayed, and a new step appended at its end.
    @Test func recordRunAndReopen() async throws {
        let workspace = try Workspace()
        let flow = workspace.file("mail.yaml")
        let studio = try await StudioRig.start(flow, ["--app", "dev.showreel.mail"], in: workspace, name: "studio")
        let seen = try await studio.process.stopping { try await studio.drive("record") }
        #expect(seen["screenBox"] as? [Double] == [390, 844])
        #expect(seen["hovered"] as? String != "")
        let steps = try Self.steps(of: flow)
        #expect(
            steps == Self.opening + [
                "- tapOn: {id: \"reply\"}", "- tapOn: {id: \"replyBody\"}", "- inputText: \"Hi\"", "- tapOn: {id: \"cancelReply\"}",
                "- swipe: {edge: left}",
            ])
        #expect(try String(contentsOf: flow, encoding: .utf8).contains("selectors: [id, text, type, point]"))
        let selectors = try #require(seen["selectors"] as? [[String]])
        #expect(selectors.contains { $0[1] == "true" }, "\(selectors)")
        #expect(selectors.allSatisfy { !($0[0].contains("index") && $0[1] == "false") })
        #expect(seen["selectedOutlined"] as? Bool == true)

        // `showreel run` takes the file as written, and its video decodes.
        let run = try ChildProcess(
            try BuildProducts.showreel, ["run", flow.path, "--output", workspace.file("out").path], environment: workspace.environment,
            in: workspace, name: "run")
        #expect(try await run.waitForExit(timeout: .seconds(300)) == 0, "\(run.stdout)\n\(run.stderr)")
        let probe = try await ffprobe(workspace.file("out/mail.mov"))
        #expect(probe.streams.first?.codec_name == "h264")
        #expect((probe.frames ?? 0) > 0)

        // Reopened: replayed to the thread, and recording goes on at the end.
        let again = try await StudioRig.start(flow, [], in: workspace, name: "studio-again")
        let reopened = try await again.process.stopping { try await again.drive("reopen") }
        #expect(reopened["before"] as? [String] == steps)
        #expect(reopened["notice"] is NSNull)
        let after = try Self.steps(of: flow)
        #expect(after == steps + ["- tapOn: {id: \"message0\"}", "- assertVisible: {id: \"reply\"}"])
    }

    /// "Branch here" replays to the step on a fresh device and records on from there, with the
    /// selector priority changed on the page; a held click is a long press.
    @Test func branchAtAStep() async throws {
        let (seen, file, header) = try await Self.drive(
            "branch", onMailFlowWith: Self.opening + ["- tapOn: {id: \"reply\"}", "- tapOn: {id: \"cancelReply\"}"])
        #expect(seen["afterBranch"] as? [String] == Self.opening)
        // The priority changed on the page: text first, written in the header.
        #expect(file == Self.opening + ["- tapOn: \"Reply\"", "- longPressOn: \"Cancel\""])
        #expect(header == "appId: dev.showreel.mail\nselectors: [text, id, type, point]")
    }

    /// The timeline: delete, edit (replayed on a fresh device), pause (only assertions), and Run
    /// with its video and chapters.
    @Test func timelinePauseAndRun() async throws {
        let (seen, file, _) = try await Self.drive("timeline", onMailFlowWith: Self.opening + ["- tapOn: {id: \"reply\"}"])
        #expect(seen["afterDelete"] as? [String] == Self.opening)
        let edited = ["- launchApp", "- tapOn: {id: \"Release 5.1 notes\"}", "- tapOn: {id: \"message0\"}"]
        #expect(seen["afterEdit"] as? [String] == edited)
        #expect((seen["pausedTapError"] as? String ?? "").contains("paused"))
        #expect(file == edited + ["- assertVisible: {id: \"reply\"}"])
        let run = try #require(seen["run"] as? [String: Any])
        #expect(run["status"] as? String == "passed", "\(run)")
        #expect((run["chapters"] as? [String])?.count == 4)
        #expect((run["flags"] as? [String])?.isEmpty == true)
        #expect((seen["report"] as? String ?? "").hasSuffix("/runs/1/report.html"))
        #expect((seen["reportPage"] as? [Any])?.first as? Int == 200)
        #expect((seen["reportPage"] as? [Any])?.last as? Bool == true, "the run's report shows its video")
        let view = try #require(seen["reportView"] as? [String: Any], "the page shows the run's report")
        #expect(
            view["video"] as? Bool == true && view["trace"] as? Int == 4,
            "the report in the page has the video and a traced step per step: \(view)")
        #expect(seen["videoError"] is NSNull, "the page's video element could not play the run's video")
        #expect((seen["videoDuration"] as? Double ?? 0) > 0)
    }

    /// A step whose selector finds nothing: the replay stops there and says so, and Run flags
    /// the step (failed, with its moment in the video).
    @Test func aStepThatStopsMatchingIsFlagged() async throws {
        let (seen, file, _) = try await Self.drive("flag", onMailFlowWith: Self.opening)
        #expect(file == ["- launchApp", "- tapOn: {id: \"nowhere\"}", "- tapOn: {id: \"message0\"}"])
        #expect((seen["notice"] as? String ?? "").contains("nowhere"), "\(seen)")
        #expect(seen["status"] as? String == "failed")
        let flags = try #require(seen["flags"] as? [[String]])
        #expect(flags.count == 1 && flags.first?.first == "1" && (flags.first?.last ?? "").contains("nowhere"), "\(flags)")
        #expect(seen["flaggedSteps"] as? [String] == ["1"])
    }
}
