import Foundation
import ShowreelWire

/// A private registry and scratch folder per test under /tmp, short enough for Unix socket
/// paths, removed when the test lets go of it.
public final class Workspace: @unchecked Sendable {
    public let url: URL
    /// The registry home, `home/` inside the folder.
    public var home: URL { url.appendingPathComponent("home") }
    public var registry: DeviceRegistry { DeviceRegistry(home: home) }
    /// This process's environment with `SHOWREEL_HOME` pointing at the private registry.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SHOWREEL_HOME"] = registry.home.path
        return env
    }

    public init() throws {
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent("sre-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("home"), withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` into the folder as `name` and returns its URL.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        let file = file(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a fresh temporary directory that is removed afterwards. The body may wait
/// (decode a video off the pool, await a device).
public func withTemporaryDirectory<R>(_ body: (URL) async throws -> R) async throws -> R {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("showreel-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}
