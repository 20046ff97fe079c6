import Foundation
import ShowreelKit
import ShowreelReport
import ShowreelTestSupport
import Testing

/// An XCTest case's failed device call is reported at the line that made it, as the Swift
/// Testing traits do: in XCTest's output and in the manifest.
@Suite("XCTest failures at the calling line")
struct XCTestCallSiteTests {
    @Test("a thrown device failure in a ShowreelTestCase points at the tap's line")
    func callSite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xct-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await offPool {
            try FixtureRun(folder: folder, arguments: ["ShowreelKitTests.FailingXCTestFixtures"], fixtures: "failing-xctest")
        }
        #expect(run.status != 0, "the fixture fails: \(run.output)")
        let line = try fixtureLine(containing: "buttons[\"Sign in\"].tap()", in: "FailingXCTestFixtures.swift")
        #expect(run.output.contains("FailingXCTestFixtures.swift:\(line): error"), "\(run.output)")
        #expect(run.output.contains("No element matches"), "\(run.output)")
        let manifest = try RunManifest.load(from: folder.appendingPathComponent("manifest.json"))
        let entry = try #require(
            manifest.entries.first { $0.id == "FailingXCTestFixtures/testDeviceCallThrows()" },
            "\(manifest.entries.map(\.id))")
        #expect(entry.failures.first?.location == "FailingXCTestFixtures.swift:\(line)", "\(entry.failures)")
    }
}
