import Foundation

/// A `showreel` the tunnel host starts before it is asked for one, so that a test's
/// `showreel io ... recordVideo` begins at once instead of after the 120 ms a fresh process
/// spends loading FFmpeg's hundred and more libraries.
///
/// The host starts it with `environmentKey` set and a socket as its standard input; the
/// process waits there, before doing anything else, for one `Request` (a JSON line). With it, it
/// takes the request's environment and working directory and runs its argv as any `showreel`
/// would. When the socket closes without a request (the host stopped), it exits quietly.
extension HostAPI {
    package enum Standby {
        /// Set (to "1") in a standby's environment, and removed before the command runs.
        package static let environmentKey = "SHOWREEL_STANDBY"

        /// What the standby is to run.
        package struct Request: Codable, Equatable, Sendable {
            /// The command line, with the program first (as the host was sent it).
            package var argv: [String]
            /// Variables to set over the environment the standby started with (the host's).
            package var environment: [String: String]
            /// Where to run, when not the host's directory.
            package var workingDirectory: String?

            package init(argv: [String], environment: [String: String], workingDirectory: String?) {
                self.argv = argv
                self.environment = environment
                self.workingDirectory = workingDirectory
            }

            /// The request as the host writes it: JSON and a newline.
            package func line() throws -> Data {
                try WireJSON.encoder.encode(self) + Data("\n".utf8)
            }
        }
    }
}
