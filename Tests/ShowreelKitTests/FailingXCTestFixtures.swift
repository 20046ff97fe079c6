import Foundation
import ShowreelKit
import XCTest

/// An XCTest case that fails on purpose at a device call. It runs only in a child test process
/// started by `XCTestCallSiteTests` (SHOWREEL_FIXTURES=failing-xctest).
final class FailingXCTestFixtures: ShowreelTestCase {
    override var recordingConfiguration: RecordingConfiguration { RecordingConfiguration(.retainOnFailure) }

    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["SHOWREEL_FIXTURES"] == "failing-xctest" else {
            throw XCTSkip("a fixture: runs only in XCTestCallSiteTests' child process")
        }
        try await super.setUp()
    }

    func testDeviceCallThrows() async throws {
        let app = Application("dev.showreel.hello")
        try await app.launch()
        try await app.buttons["Sign in"].tap()  // the failing line: reported here, not at the test
    }
}
