import ShowreelDevice
import ShowreelReport
import Synchronization
import Testing

/// The failures seen while a test ran, each with the device time it happened at.
final class IssueLog: Sendable {
    /// The device time now, or (for a device in another process, whose clock cannot be read
    /// without a call) when it last answered: a failed expectation comes after the call it
    /// checks, and on a virtual clock no time passes between the two.
    private let now: @Sendable () -> Duration?
    private let start: Duration?
    private let failures = Mutex<[ManifestEntry.Failure]>([])
    private let cancelled = Mutex(false)

    init(now: @escaping @Sendable () -> Duration?) {
        self.now = now
        start = now()
    }

    /// The failures of a test on `testDevice`, timed on its clock.
    convenience init(_ testDevice: TestDevice) {
        if let clock = testDevice.device?.clock {
            self.init(now: { clock.now })
        } else {
            let client = testDevice.client
            self.init(now: { client.lastDeviceTime })
        }
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
        guard let start, let now = now() else { return nil }
        return (now - start).seconds
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
