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
package struct AutomationRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Closes a connection whose client has stopped sending (it closed its end). Hummingbird keeps
/// half-closed connections open and does not cancel a running handler, so without this an action
/// would run to its end for nobody (a 1000-key `type` typed on for minutes).
final class ClosesOnHangUp: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}

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
        let channel = context.channel
        return try await withoutActuallyEscaping(next) { next in
            // Safe to send: the group below ends before this closure returns.
            nonisolated(unsafe) let next = next
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await next(request, context) }
                group.addTask {
                    await hangUp(channel); return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                if let first { return first }
                _ = try? await group.next()  // the action notices the cancellation and stops
                return APIError(.badRequest, "the client went away; the action was cancelled").response
            }
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

/// Returns when the connection closes, or when the calling task is cancelled.
private func hangUp(_ channel: any Channel) async {
    let (closed, continuation) = AsyncStream<Void>.makeStream()
    channel.closeFuture.whenComplete { _ in continuation.finish() }
    for await _ in closed {}
}
