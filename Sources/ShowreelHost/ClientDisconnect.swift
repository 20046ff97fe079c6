import NIOCore

/// Notices a client that went away while its request waits (a sync command runs): the
/// connection's input closed (the client closed or shut down its end) or the connection dropped.
/// A client that half-closes after sending its request counts as gone; HTTP clients don't.
struct ClientDisconnect: Sendable {
    private let channel: (any Channel)?
    private let events: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private static let handlerName = "showreel.client-disconnect"

    /// Starts watching `channel`; call `stop()` when the request is done.
    static func watch(_ channel: any Channel) async -> ClientDisconnect {
        let (events, continuation) = AsyncStream<Void>.makeStream()
        let installed: Void? = try? await channel.eventLoop.submit {
            guard channel.isActive else {
                continuation.yield()
                return
            }
            try channel.pipeline.syncOperations.addHandler(Watcher(continuation: continuation), name: handlerName, position: .first)
        }.get()
        if installed == nil { continuation.finish() }
        return ClientDisconnect(channel: installed == nil ? nil : channel, events: events, continuation: continuation)
    }

    /// True when the client went away; false once `stop()` was called (or the task was cancelled).
    func wait() async -> Bool {
        for await _ in events { return true }
        return false
    }

    func stop() {
        continuation.finish()
        guard let channel else { return }
        channel.pipeline.removeHandler(name: Self.handlerName, promise: nil)
    }

    private final class Watcher: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<Void>.Continuation

        init(continuation: AsyncStream<Void>.Continuation) {
            self.continuation = continuation
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let channelEvent = event as? ChannelEvent, case .inputClosed = channelEvent {
                continuation.yield()
                continuation.finish()
            }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.yield()
            continuation.finish()
            context.fireChannelInactive()
        }
    }
}
