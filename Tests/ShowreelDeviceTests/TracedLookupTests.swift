import ShowcaseApps
import ShowreelAccessibility
import ShowreelTestSupport
import ShowreelUI
import Testing

@testable import ShowreelDevice

/// A traced action that looks for its element takes one element tree for its trace and its
/// lookup, not two: tracing a test's taps costs no more trees than the taps themselves.
@Suite("Traced lookups")
struct TracedLookupTests {
    @Test("a traced tap, press or wait takes as many element trees as an untraced one")
    func tracedActionsShareTheirTree() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(ExampleApp.bundleIdentifier)
        let actions: [(String, @Sendable (Device) async throws -> Void)] = [
            ("tap", { try await $0.tap(.button("fabAddIcon")) }),
            ("press", { try await $0.press(.button("fabAddIcon"), duration: .milliseconds(100)) }),
            ("wait", { _ = try await $0.waitFor(.button("fabAddIcon"), timeout: .seconds(1)) }),
        ]
        for (name, action) in actions {
            let untraced = try await trees(device, action)
            await device.setActionTrace(ActionTrace())
            let traced = try await trees(device, action)
            await device.setActionTrace(nil)
            #expect(traced == untraced, "\(name): \(traced) trees traced, \(untraced) untraced")
        }
        await device.shutdown()
    }

    @Test("the tree a traced tap shared is gone with the tap: the next look sees the screen the tap left")
    func sharedTreeIsNotKeptPastItsAction() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        _ = try await device.launch(ExampleApp.bundleIdentifier, context: LaunchContext(arguments: ["-initialCounter", "5"]))
        let trace = ActionTrace()
        await device.setActionTrace(trace)
        // The trace's tree, taken before the tap, shows 5; the screen after it shows 6.
        try await device.tap(.button("fabAddIcon"))
        #expect(await device.onScreen(.staticText("5")).isEmpty)
        #expect(await device.onScreen(.staticText("6")).count == 1)
        try await device.tap(.button("fabAddIcon"))
        #expect(try await device.waitFor(.staticText("7"), timeout: .seconds(1)))
        let tap = "tap buttons[\"fabAddIcon\"]"
        #expect(trace.entries.map(\.title) == [tap, tap, "wait for staticTexts[\"7\"]"])
        await device.shutdown()
    }

    private func trees(_ device: Device, _ action: @Sendable (Device) async throws -> Void) async throws -> Int {
        let before = await device.treesTaken
        try await action(device)
        return await device.treesTaken - before
    }
}
