import Foundation

/// The line `showreel host` writes to stderr once it listens, which is how a process that
/// started it with `--port 0` learns the port: written and read through this one type.
extension HostAPI {
    package enum ListeningLine {
        static let prefix = "Tunnel host listening on http://"

        /// The line for a host on `address` (an IPv6 one in brackets) and `port`, with its newline.
        package static func text(address: String, port: Int) -> String {
            "\(prefix)\(address):\(port)\n"
        }

        /// The port announced in `output` (what the host wrote so far), or nil until the whole
        /// line is there.
        package static func port(in output: String) -> Int? {
            guard let start = output.range(of: prefix) else { return nil }
            let rest = output[start.upperBound...]
            guard let end = rest.firstIndex(of: "\n") else { return nil }
            return rest[..<end].split(separator: ":").last.flatMap { Int($0) }
        }
    }
}
