/// Why the command table refused or failed, with a message a person can act on. The HTTP
/// layer decides which status each kind is (`CommandTableError.apiError`).
struct CommandTableError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// The arguments cannot describe a command (empty argv, no such directory, bad env name).
        case invalidArguments
        /// The program could not be started (not found, not executable, spawn failed).
        case failedToStart
        /// The host's allowlist does not include the program.
        case programNotAllowed
        /// No command with that id (never started, or forgotten).
        case unknownCommand
        /// The host is shutting down and starts nothing new.
        case shuttingDown
    }

    var kind: Kind
    var message: String
    var description: String { message }

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
