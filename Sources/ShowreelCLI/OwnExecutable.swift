import Foundation

/// The running executable's absolute path (`showreel`, or a package's own executable), so what
/// it launches through a tunnel host is the same build with the same apps.
enum OwnExecutable {
    static let path: String = {
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return link }
        return Bundle.main.executablePath ?? CommandLine.arguments.first ?? "showreel"
    }()
}
