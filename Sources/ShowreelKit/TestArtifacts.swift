import Foundation
import ShowreelSession
import ShowreelTesting
import ShowreelWire
import Synchronization
import Testing

/// How long a screenshot kept with a test lives (XCTAttachment's lifetimes).
public enum AttachmentLifetime: Sendable {
    case keepAlways
    /// Removed when the test passes.
    case deleteOnSuccess
}

/// The files one test leaves in `Recordings/<Suite>/`: its video, its last screen, and the
/// screenshots it attached, each named after the test (`<test>[ <arguments>]`).
public final class TestArtifacts: Sendable {
    /// The running test's files, set by the recording trait and by `ShowreelTestCase`.
    public static var current: TestArtifacts? { RecordedTestContext.recorded?.artifacts }

    public let identity: TestIdentity
    /// The suite's folder.
    public let folder: URL
    /// The unique file stem for this test in its folder.
    public let stem: String
    private let screenshots = Mutex<[(url: URL, lifetime: AttachmentLifetime)]>([])

    init(identity: TestIdentity, root: URL) {
        self.identity = identity
        folder = root.appendingPathComponent(TestIdentity.safeFileName(identity.suite), isDirectory: true)
        stem = FileNaming.reserve(TestIdentity.safeFileName(identity.fileStem), in: folder)
    }

    public func file(_ suffix: String) -> URL { folder.appendingPathComponent(stem + suffix) }

    /// Writes `png` as `<test> <name>.png` beside the video and remembers its lifetime.
    @discardableResult
    public func keepScreenshot(_ png: Data, named name: String, lifetime: AttachmentLifetime) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = file(" " + TestIdentity.safeFileName(name) + ".png")
        try png.writeReplacing(url)
        screenshots.withLock { $0.append((url, lifetime)) }
        return url
    }

    /// The screenshots left after the test: those to delete on success are removed when it passed.
    func settleScreenshots(passed: Bool) -> [URL] {
        screenshots.withLock { kept in
            if passed {
                for shot in kept where shot.lifetime == .deleteOnSuccess { try? FileManager.default.removeItem(at: shot.url) }
                kept.removeAll { $0.lifetime == .deleteOnSuccess }
            }
            return kept.map(\.url)
        }
    }
}

/// Keeps a screenshot with the current test: written beside its video as `<test> <name>.png`
/// and recorded as a Swift Testing attachment (saved when the run has `--attachments-path`).
///
///     try await attachScreenshot(of: app, named: "CountryDetails", lifetime: .keepAlways)
public func attachScreenshot(
    of app: Application, named name: String, lifetime: AttachmentLifetime = .deleteOnSuccess,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) async throws {
    let png = try await app.screenshot(fileID: fileID, filePath: filePath, line: line, column: column)
    let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if let artifacts = TestArtifacts.current {
        try artifacts.keepScreenshot(png, named: name, lifetime: lifetime)
    }
    if Test.current != nil {
        Attachment.record(FileAttachment(source: .bytes(png)), named: name + ".png", sourceLocation: sourceLocation)
    }
}
