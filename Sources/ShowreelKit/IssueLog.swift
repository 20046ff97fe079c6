import ShowreelDevice
import ShowreelReport
import Synchronization
import Testing

/// The failures seen while a test ran, each with the device time it happened at.
final class IssueLog: Sendable {
    private let clock: DeviceClock?
    private let start: Duration?
    private let failures = Mutex<[ManifestEntry.Failure]>([])
    private let cancelled = Mutex(false)

    init(clock: DeviceClock?) {
        self.clock = clock
        start = clock?.now
    }

    var isEmpty: Bool { failures.withLock { $0.isEmpty } }
    var all: [ManifestEntry.Failure] { failures.withLock { $0 } }

    func note(_ issue: Issue) {
        guard issue.isFailure else { return }
        let location = issue.sourceLocation.map { "\($0.fileID):\($0.line):\($0.column)" }
        add(ManifestEntry.Failure(message: Self.message(of: issue), location: location, deviceTime: elapsed))
    }

    /// A failure XCTest reported.
    func note(message: String, file: String, line: Int) {
        add(ManifestEntry.Failure(message: message, location: "\(file):\(line)", deviceTime: elapsed))
    }

    func note(thrown error: any Error) {
        if error is CancellationError {
            cancelled.withLock { $0 = true }
        } else {
            add(ManifestEntry.Failure(message: ErrorSentence.describe(error), deviceTime: elapsed))
        }
    }

    /// Failed when anything failed; skipped when the test was cancelled before it could.
    var status: ManifestEntry.Status {
        if !isEmpty { return .failed }
        return cancelled.withLock { $0 } ? .skipped : .passed
    }

    private func add(_ failure: ManifestEntry.Failure) { failures.withLock { $0.append(failure) } }

    private var elapsed: Double? {
        guard let clock, let start else { return nil }
        return (clock.now - start).seconds
    }

    private static func message(of issue: Issue) -> String {
        var text: String
        switch issue.kind {
        case let .errorCaught(error): text = ErrorSentence.describe(error)
        case .timeLimitExceeded: text = "The test exceeded its time limit."
        default: text = String(describing: issue)
        }
        return text
    }
}
