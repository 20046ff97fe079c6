import HTTPTypes
import Hummingbird
import NIOCore
import ShowreelGraphics
import ShowreelHTTP
import ShowreelWire

/// Runs work one piece at a time, in the order it was asked for: the device's action queue (and
/// a WebDriver session's command queue).
package actor ActionQueue {
    package init() {}

    private var running = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package func run<T: Sendable>(_ action: @Sendable () async throws -> T) async throws -> T {
        if running {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running = true
        }
        defer { startNext() }
        // A caller cancelled while waiting its turn (a client that hung up) gets nothing done.
        try Task.checkCancellation()
        return try await action()
    }

    private func startNext() {
        if waiting.isEmpty { running = false } else { waiting.removeFirst().resume() }
    }
}

/// The request context of the automation API: Hummingbird's, plus the connection, so an action
/// can be cancelled when its client goes away.
package typealias AutomationRequestContext = ConnectionRequestContext

/// Every request that acts on the device (anything but a read: GET, `/v1/query`,
/// `/v1/element`) is cancelled when its client's connection closes, whether it is waiting its
/// turn in the device's action queue or running.
struct ActionMiddleware: RouterMiddleware {
    typealias Context = AutomationRequestContext

    static let reads = Set(AutomationAPI.Routes.reads.map(\.template))

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method != .get, !Self.reads.contains(request.uri.path) else { return try await next(request, context) }
        return try await untilHangUp(context.channel) {
            try await next(request, context)
        } onHangUp: {
            APIError(.badRequest, "the client went away; the action was cancelled").response
        }
    }
}

/// Says on every answer when on the device it was made (`AutomationAPI.deviceTimeHeader`).
struct DeviceTimeMiddleware: RouterMiddleware {
    typealias Context = AutomationRequestContext
    let clock: DeviceClock

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if let name = HTTPField.Name(AutomationAPI.deviceTimeHeader) { response.headers[name] = "\(clock.now.seconds)" }
        return response
    }
}
