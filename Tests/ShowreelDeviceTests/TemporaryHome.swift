import Foundation
import ShowreelWire

/// A private registry folder per test, short enough for Unix socket paths.
final class TemporaryHome {
    let url: URL
    var registry: DeviceRegistry { DeviceRegistry(home: url) }

    init() throws {
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent("srt-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
