import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelTestSupport
import Testing

@testable import ShowreelStudio

/// Run compares each step's target with the element it hit when it was recorded: a step whose
/// selector now finds another element is flagged with its moment in the video, and edits of
/// other steps (which are what move it) keep what was recorded.
@Suite("Studio: steps that find another element on Run", .serialized, .timeLimit(.minutes(10)))
struct StudioRunFlagTests {
    static func element(_ identifier: String, in session: StudioSession) async throws -> ElementSnapshot {
        func find(_ elements: [ElementSnapshot]) -> ElementSnapshot? {
            elements.lazy.compactMap { $0.identifier == identifier ? $0 : find($0.children) }.first
        }
        return try #require(find(await session.device.tree()), "no \(identifier) on the live screen")
    }

    @Test func aDeletedStepMakesALaterOneFindAnotherElement() async throws {
        let workspace = try Workspace()
        let flow = try workspace.write(
            "countries.yaml",
            "appId: dev.showreel.countries\narguments: [\"--countries-datasource\", \"local-mock\"]\nselectors: [point]\n---\n- launchApp\n- tapOn: \"Canada\"\n"
        )
        let session = try await StudioSession.open(StudioConfiguration(flow: flow, apps: ShowcaseApps.ShowcaseCatalog.apps))
        defer { Task { await session.shutdown() } }
        let name = try await Self.element("countryName", in: session)
        try await session.record(StudioGesture(kind: .tap, x: name.frame.midX, y: name.frame.midY))
        let recorded = await session.document.steps.last ?? ""
        let clean = try await session.runWhole()
        #expect(clean.status == "passed" && clean.flagged.isEmpty, "as recorded, nothing is flagged: \(clean.flagged)")

        // Without the step that opened Canada, the recorded selector finds something on the list.
        try await session.deleteStep(1)
        #expect(await session.document.steps.last == recorded)
        let moved = try await session.runWhole()
        let flag = try #require(moved.flagged.first { $0.step == 1 }, "\(recorded) after the delete: \(moved.flagged), \(moved.status)")
        #expect(
            flag.message.contains("another element") && flag.message.hasSuffix("was cell \"Name\""),
            "names what it hit then: \(flag.message)")
        #expect(flag.time != nil, "the flag has its moment in the video")
    }
}
