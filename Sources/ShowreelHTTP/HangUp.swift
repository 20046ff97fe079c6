import Hummingbird
import NIOCore

/// A request context that knows its connection, so work for a client that hung up can be
/// cancelled (see `untilHangUp`). Hummingbird's, plus the channel.
package struct ConnectionRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    package let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Closes a connection whose client has stopped sending (it closed its end). Hummingbird keeps
/// half-closed connections open and does not cancel a running handler, so without this (and
/// `untilHangUp`) work would run to its end for nobody: a 1000-key `type`, an 8 s implicit wait.
package final class ClosesOnHangUp: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = NIOAny

    package init() {}

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Runs `work` until it ends or `channel` closes, whichever comes first. On a hang-up the work
/// is cancelled and awaited (it notices the cancellation and stops, so whatever queues behind
/// it starts at once), and `onHangUp` is the answer (nobody reads it).
package func untilHangUp<T: Sendable>(
    _ channel: any Channel, _ work: () async throws -> T, onHangUp: @escaping @Sendable () -> T
) async throws -> T {
    try await withoutActuallyEscaping(work) { work in
        // Safe to send: the group below ends before this closure returns.
        nonisolated(unsafe) let work = work
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                await closed(channel)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            _ = try? await group.next()  // the work notices the cancellation and stops
            return onHangUp()
        }
    }
}

/// Returns when the connection closes, or when the calling task is cancelled.
private func closed(_ channel: any Channel) async {
    let (closed, continuation) = AsyncStream<Void>.makeStream()
    channel.closeFuture.whenComplete { _ in continuation.finish() }
    for await _ in closed {}
}
