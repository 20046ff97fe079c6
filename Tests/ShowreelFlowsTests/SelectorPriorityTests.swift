import Foundation
import ShowcaseApps
import Testing

@testable import ShowreelFlows

/// The header's `selectors` (the studio's selector priority): read in order, checked by `run`.
@Suite struct SelectorPriorityTests {
    let parser = FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))
    let url = URL(fileURLWithPath: "/tmp/priority.yaml")

    @Test func readInOrder() throws {
        let flow = try parser.parse(text: "appId: dev.showreel.mail\nselectors: [text, point]\n---\n- launchApp\n", url: url, id: "p.yaml")
        #expect(flow.selectorPriority == [.text, .point])
        #expect(try parser.parse(text: "appId: dev.showreel.mail\n---\n- launchApp\n", url: url, id: "p.yaml").selectorPriority == nil)
    }

    @Test func unknownOrRepeatedKindsAreProblems() {
        for (header, problem) in [
            ("selectors: [txt]", "p.yaml:2:12: unknown selector kind 'txt'; did you mean 'text'? (kinds: id, text, type, point)"),
            ("selectors: [id, id]", "p.yaml:2:12: selector kind 'id' is listed twice in selectors"),
        ] {
            do {
                _ = try parser.parse(text: "appId: dev.showreel.mail\n\(header)\n---\n- launchApp\n", url: url, id: "p.yaml")
                Issue.record("\(header) was accepted")
            } catch {
                #expect(error.diagnostics.map(\.description) == [problem])
            }
        }
    }
}
