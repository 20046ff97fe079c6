import Foundation

/// How a command ended.
enum Termination: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
}

/// Which endpoint family started a command.
enum CommandKind: String, Sendable {
    case exec
    case launch
    case api
}

/// Which output a snapshot copies: none, each stream apart, or both interleaved. Each is a
/// full copy of up to `outputLimit` bytes, so callers take only what they answer with.
enum OutputSelection: Sendable {
    case none
    case streams
    case combined
}

/// A consistent copy of one command's state, taken inside the table.
struct CommandSnapshot: Sendable {
    var id: UUID
    var argv: [String]
    var executablePath: String
    var kind: CommandKind
    var pid: Int32?
    var startedAt: Date
    var finishedAt: Date?
    var termination: Termination?
    /// Set when the child could not be monitored to its end (not a normal exit).
    var failure: String?
    var killedAfterTimeout: Bool
    var signalsSent: [String]
    var outputBytes: Int
    var droppedBytes: Int
    var stdout: String?
    var stderr: String?
    /// Both streams interleaved in arrival order.
    var combined: String?

    var isFinished: Bool { termination != nil || failure != nil }
}
