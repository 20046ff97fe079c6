import Foundation
import Testing

@testable import ShowreelFlows

/// Flows that would multiply without end or nest without bound are refused before anything
/// runs, at the place that breaks the limit, and quickly.
@Suite("Flow limits")
struct FlowLimitsTests {
    /// The problems found in a flow file, with `files` beside it (FlowParserTests' helper).
    func problems(_ text: String, files: [String: String] = [:]) throws -> [String] {
        try FlowParserTests().problems(text, extra: files)
    }

    @Test("nested repeats that multiply past the step limit are refused at the outer repeat")
    func multiplyingRepeats() throws {
        let flow =
            "appId: dev.showreel.hello\n---\n- launchApp\n- repeat:\n    times: 1000\n    commands:\n"
            + "      - repeat: {times: 1000, commands: [{wait: 1ms}]}\n"
        let found = try problems(flow)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("flow.yaml:4:3: the flow runs more than \(FlowLimits.maximumSteps) steps") == true, "\(found)")
        // Just under the limit is fine.
        #expect(try problems("appId: dev.showreel.hello\n---\n- repeat: {times: 1000, commands: [{wait: 1ms}, {wait: 1ms}]}\n").isEmpty)
    }

    /// Nine lines whose aliases repeat each other's steps ten times over: 10^9 steps.
    static let aliasBomb =
        [
            "appId: dev.showreel.hello", "---",
            "- repeat: {times: 1, commands: &a [" + Array(repeating: "{wait: 1ms}", count: 10).joined(separator: ", ") + "]}",
        ]
        + zip("bcdefghi", "abcdefgh").map { name, previous in
            "- repeat: {times: 1, commands: &\(name) ["
                + Array(repeating: "{repeat: {times: 1, commands: *\(previous)}}", count: 10)
                .joined(separator: ", ") + "]}"
        }

    @Test("a YAML alias bomb is refused while its nodes are counted, before the steps are read")
    func aliasBomb() throws {
        let found = try problems(Self.aliasBomb.joined(separator: "\n") + "\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("flow.yaml:") == true, "\(found)")
        #expect(found.first?.contains("more than \(FlowLimits.maximumYAMLNodes) YAML values with aliases expanded") == true)
    }

    @Test("repeats nested past the limit are refused at the first one too deep; 300 of them at the YAML depth limit")
    func deepRepeats() throws {
        func nested(_ count: Int) -> String {
            var step = "{wait: 1ms}"
            for _ in 0..<count { step = "{repeat: {times: 1, commands: [\(step)]}}" }
            return "appId: dev.showreel.hello\n---\n- \(step)\n"
        }
        let column = 3 + 31 * FlowLimits.maximumNesting + 9  // the map after the first repeat too many
        #expect(try problems(nested(FlowLimits.maximumNesting)).isEmpty)
        #expect(
            try problems(nested(FlowLimits.maximumNesting + 4)) == [
                "flow.yaml:3:\(column): repeat is nested more than \(FlowLimits.maximumNesting) deep in repeat and runFlow steps "
                    + "(the limit is \(FlowLimits.maximumNesting)): flatten the flow"
            ])
        let found = try problems(nested(300))
        #expect(found.count == 1)
        #expect(found.first?.contains("lists and maps are nested more than \(FlowLimits.maximumYAMLDepth) deep here") == true, "\(found)")
    }

    @Test("a chain of 250 runFlow files is refused at the file past the nesting limit")
    func deepRunFlows() throws {
        var files: [String: String] = [:]
        for index in 0..<250 { files["c\(index).yaml"] = "- runFlow: c\(index + 1).yaml\n" }
        files["c250.yaml"] = "- wait: 1ms\n"
        let found = try problems("appId: dev.showreel.hello\n---\n- runFlow: c0.yaml\n", files: files)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("c\(FlowLimits.maximumNesting - 1).yaml:1:12: runFlow is nested more than") == true, "\(found)")
    }

    @Test("a runFlow diamond (each file runs the next twice) is bounded by the YAML budget, not parsed 2^30 times")
    func runFlowDiamond() throws {
        var files: [String: String] = [:]
        for index in 0..<30 { files["d\(index).yaml"] = "- runFlow: d\(index + 1).yaml\n- runFlow: d\(index + 1).yaml\n" }
        files["d30.yaml"] = "- wait: 1ms\n"
        let found = try problems("appId: dev.showreel.hello\n---\n- runFlow: d0.yaml\n", files: files)
        #expect(!found.isEmpty)
    }
}
