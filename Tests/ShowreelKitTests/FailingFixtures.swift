import Foundation
import ShowreelKit
import Testing

/// Tests that fail on purpose, each a different way. They run only in a child test process
/// started by `RecordingTraitTests` (SHOWREEL_FIXTURES=failing), which then looks at the
/// videos and the manifest they leave behind.
@Suite(
    .device(), .recorded(.retainOnFailure, scale: 1),
    .enabled(if: ProcessInfo.processInfo.environment["SHOWREEL_FIXTURES"] == "failing"))
struct FailingFixtures {
    static let countries = ["--countries-datasource", "local-mock"]

    @Test func expectationFails() async throws {
        let app = Application("dev.showreel.countries", launchArguments: Self.countries)
        try await app.launch()
        try await app.cells["Canada"].tap()
        #expect(try await app.staticTexts["countryName"].label == "Mexico")
    }

    @Test func deviceCallThrows() async throws {
        let app = Application("dev.showreel.countries", launchArguments: Self.countries)
        try await app.launch()
        try await app.buttons["Sign in"].tap()  // the failing line: reported here, not at @Test
    }

    @Test func cancelled() async throws {
        let app = Application("dev.showreel.hello")
        try await app.launch()
        try await app.buttons["tapButton"].tap()
        withUnsafeCurrentTask { $0?.cancel() }
        try Task.checkCancellation()
    }

    @Test func videoOntoAFullDisk() async throws {
        try await Application("dev.showreel.hello").launch()
        // The video waits unencoded until the test ends; by then the file it is written to
        // (under its partial name, until complete) leads to a full disk. The recording claimed
        // that name at its start (an empty file, see `WriterLock`): the link takes its place.
        guard FileManager.default.fileExists(atPath: "/dev/full"), let video = TestArtifacts.current?.file(".mov") else { return }
        let partial = StagedFile(video).partial.path
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createSymbolicLink(atPath: partial, withDestinationPath: "/dev/full")
        Issue.record("failing on purpose, so the video is kept")
    }

    @Test(arguments: ["Canada", "Mexico"])
    func parameterised(country: String) async throws {
        let app = Application("dev.showreel.countries", launchArguments: Self.countries)
        try await app.launch()
        try await app.cells[country].tap()
        #expect(country == "Canada")
    }
}

/// A failing test whose frames outgrow the spool (a 1-byte limit): it is encoded from its first
/// frame on, and its video must be as complete as a deferred one.
@Suite(
    .device(), .recorded(RecordingConfiguration(.retainOnFailure, deferredEncodingLimit: 1)),
    .enabled(if: ProcessInfo.processInfo.environment["SHOWREEL_FIXTURES"] == "failing"))
struct FailingFixturesPastTheSpool {
    @Test func pushThenFail() async throws {
        let app = Application("dev.showreel.countries", launchArguments: FailingFixtures.countries)
        try await app.launch()
        try await app.cells["Canada"].tap()
        #expect(try await app.staticTexts["countryName"].label == "Mexico")
    }
}
