import ShowreelTesting
import Testing

/// Where a failed device call is reported, in Swift Testing and XCTest alike: at the test's
/// line that made the call, not at the test's first line.
enum CallSiteReporting {
    /// Runs a Swift Testing test's `body`; a device call that throws is recorded as an issue at
    /// its call site and ends the test there.
    static func reportingFailures(_ body: @Sendable () async throws -> Void) async throws {
        do { try await body() } catch let failure as DeviceClient.Failure {
            guard let site = failure.callSite else { throw failure }
            Issue.record(failure, sourceLocation: sourceLocation(of: site))
        }
    }

    /// A failure XCTest is about to record for a thrown error: when the error is the device's
    /// failure, the call site it carries, else nil (XCTest keeps its own place).
    static func callSite(for description: String, thrown failure: DeviceClient.Failure?) -> CallSite? {
        guard let failure, let site = failure.callSite, description.contains(failure.message) else { return nil }
        return site
    }

    static func sourceLocation(of site: CallSite) -> SourceLocation {
        SourceLocation(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
    }
}
