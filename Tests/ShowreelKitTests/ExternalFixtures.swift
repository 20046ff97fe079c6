import Foundation
import ShowreelKit
import Testing

/// A test of an external device (`showreel device boot`, found as `booted` through
/// `SHOWREEL_HOME`) that fails on purpose. It runs only in a child test process started by
/// `ExternalDeviceTraceTests` (SHOWREEL_FIXTURES=external), which then reads its manifest entry
/// and trace.
@Suite(
    .device(.external("booted")), .recorded(.retainOnFailure),
    .enabled(if: ProcessInfo.processInfo.environment["SHOWREEL_FIXTURES"] == "external"))
struct ExternalFixtures {
    @Test func expectationFails() async throws {
        let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
        try await app.launch()
        try await app.cells["Canada"].tap()
        #expect(try await app.staticTexts["countryName"].label == "Mexico")
    }
}
