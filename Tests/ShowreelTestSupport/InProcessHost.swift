import Foundation
import Logging
import ShowreelHost
import ShowreelWire

/// Quiet logger for in-process hosts (set SHOWREEL_TEST_LOG=debug to see their logs).
public let testLogger: Logger = {
    if let level = ProcessInfo.processInfo.environment["SHOWREEL_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) {
        var logger = Logger(label: "showreel.host.test") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }
    return Logger(label: "showreel.host.test") { _ in SwiftLogNoOpLogHandler() }
}()

/// Runs a host in-process on an ephemeral port for the duration of `body`, then cancels it
/// (which terminates its children).
public func withHost<T>(
    _ configuration: TunnelHostConfiguration = TunnelHostConfiguration(),
    _ body: (URL) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.port = 0
    configuration.handlesSignals = false
    let host = TunnelHost(configuration: configuration, logger: testLogger)
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let task = Task {
        defer { continuation.finish() }
        try await host.run { port in continuation.yield(port) }
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
        _ = try await task.value
        throw TestFailure("the host stopped before listening")
    }
    let baseURL = URL(string: "http://127.0.0.1:\(port)")!
    do {
        let result = try await body(baseURL)
        task.cancel()
        _ = try? await task.value
        return result
    } catch {
        task.cancel()
        _ = try? await task.value
        throw error
    }
}

/// Whether `pid` is a live process (a zombie or a missing entry counts as gone).
public func isAlive(_ pid: Int32) -> Bool {
    ProcessStat.read(pid).map { !$0.hasExited } ?? false
}
