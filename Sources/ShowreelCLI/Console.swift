import ArgumentParser
import Foundation

/// The CLI's voice: results on stdout, progress and problems on stderr.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func status(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func warning(_ line: String) { status("warning: \(line)") }
}

/// A failure the CLI reports as one clear line and a distinct exit status.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let exitCode: Int32

    var description: String { message }

    /// Exit statuses, so scripts can tell failures apart.
    enum Code {
        static let usage: Int32 = 64
        static let deviceNotFound: Int32 = 3
        static let fileExists: Int32 = 4
        static let unwritable: Int32 = 5
        static let encoderUnavailable: Int32 = 6
        static let writeFailed: Int32 = 7
        static let streamFailed: Int32 = 8
        /// `run`: the output folder cannot be created or written (sysexits' EX_CANTCREAT).
        static let cannotCreateOutput: Int32 = 73
    }
}

extension AsyncParsableCommand {
    /// Runs `body`; a `CLIFailure` becomes "error: ..." on stderr and its exit status.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CLIFailure {
            Console.status("error: \(failure.message)")
            throw ExitCode(failure.exitCode)
        }
    }
}
