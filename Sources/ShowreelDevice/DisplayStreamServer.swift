import Foundation
import Logging
import ShowreelRender
import ShowreelWire
import Synchronization

/// Serves the device's screen to recorders over a Unix socket (see `DisplayStream`).
///
/// Each subscriber gets the current screen at once (stamped with the time it subscribed),
/// then every changed frame, then an end message with the stop time. A subscriber has its
/// own thread and a bounded queue, so a slow recorder never stalls the device or the others.
package final class DisplayStreamServer: Sendable {
    /// One recorder's session, kept for inspection (tests compare its span with the video).
    package struct Session: Sendable, Equatable {
        package let id: Int
        package var startTime: Duration?
        package var stopTime: Duration?
        package var framesSent: Int
        package var framesDropped: Int
        /// Frames sent at half size (the client asked for them, see `DisplayStream`).
        package var halfSizeFramesSent = 0
    }

    package let socketPath: String
    /// Who the device is, with its screen as it is now: a recorder that subscribes while the
    /// device is on its side makes a landscape video.
    package var info: DisplayInfo {
        var info = bootInfo
        info.profile = screen.withLock { $0 }
        return info
    }
    private let bootInfo: DisplayInfo
    private let screen: Mutex<DeviceProfile>
    private let clock: DeviceClock
    private let logger: Logger
    private let listener: UnixSocket
    private let state = Mutex(State())
    /// Frames a subscriber may have waiting (before the oldest intermediate one is dropped, or a
    /// virtual-clock device waits): 16, or fewer to stay within 32 MiB of queued frames (6 at
    /// 780x1688), as the recorder's own queue does. Each socket subscriber holds its own queue, so
    /// this is what a lagging recorder can cost the device process.
    let queueLimit: Int

    struct State {
        var latest: Frame?
        var subscribers: [Int: Subscriber] = [:]
        var localSubscribers: [Int: LocalSubscriber] = [:]
        var sessions: [Int: Session] = [:]
        var nextID = 1
        var isShutDown = false
    }

    package init(socketPath: String, info: DisplayInfo, clock: DeviceClock, logger: Logger) throws {
        self.socketPath = socketPath
        bootInfo = info
        screen = Mutex(info.profile)
        self.clock = clock
        self.logger = logger
        queueLimit = max(2, min(16, (32 << 20) / max(1, info.profile.pixelWidth * info.profile.pixelHeight * 4)))
        listener = try UnixSocket.listen(at: socketPath)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "display-stream-accept"
        thread.start()
    }

    /// The screen turned (see `Device.setOrientation`): recorders that subscribe from now on get its size.
    package func screenDidTurn(to profile: DeviceProfile) { screen.withLock { $0 = profile } }

    package var sessions: [Session] { state.withLock { $0.sessions.values.sorted { $0.id < $1.id } } }
    package var subscriberCount: Int { state.withLock { $0.subscribers.count + $0.localSubscribers.count } }

    /// Sends a changed screen to every subscriber. On the virtual clock it first waits (up to
    /// `backpressureTimeout` of real time) for a lagging subscriber to make room, so nothing is
    /// dropped; on the real clock a lagging subscriber loses intermediate frames instead.
    package func publish(_ frame: Frame) {
        let (subscribers, locals) = state.withLock { state -> ([Subscriber], [LocalSubscriber]) in
            state.latest = frame
            return (Array(state.subscribers.values), Array(state.localSubscribers.values))
        }
        // A sink in this process applies its own backpressure (see `DisplayStreamSink`).
        for local in locals { local.deliver(.frame(frame)) }
        if clock.kind.waitsForSlowConsumers {
            let deadline = Date(timeIntervalSinceNow: Self.backpressureTimeout)
            for subscriber in subscribers { subscriber.waitForRoom(until: deadline) }
        }
        for subscriber in subscribers { subscriber.enqueue(.frame(frame)) }
    }

    /// Ends the stream of the socket subscriber `id` (see `sessions`) with the reason
    /// `discarded`: its recorder is to write nothing. False when no such subscriber is connected.
    package func discardStream(of id: Int) -> Bool {
        guard let subscriber = state.withLock({ $0.subscribers[id] }) else { return false }
        subscriber.enqueue(.end(stopTime: clock.now, reason: .discarded))
        return true
    }

    /// The socket subscriber that connected last and is still connected: a recorder in another
    /// process started just before (a tunnel host's). Not whether a frame was sent to it yet:
    /// the recorder may print that it has its first frame before the writer thread here has
    /// noted sending it.
    package var latestRecorder: Session? {
        state.withLock { state in
            state.subscribers.keys.max().flatMap { state.sessions[$0] }.flatMap { $0.stopTime == nil ? $0 : nil }
        }
    }

    /// How long a virtual-clock device waits for a stuck subscriber before dropping its frames.
    static let backpressureTimeout: TimeInterval = 10

    /// Ends every stream with the device's stop time and stops accepting subscribers.
    package func shutDown() {
        let (subscribers, locals) = state.withLock { state -> ([Subscriber], [LocalSubscriber]) in
            state.isShutDown = true
            defer { state.localSubscribers.removeAll() }
            return (Array(state.subscribers.values), Array(state.localSubscribers.values))
        }
        let now = clock.now
        for local in locals { local.deliver(.end(stopTime: now, reason: .deviceShutdown)) }
        for subscriber in subscribers { subscriber.enqueue(.end(stopTime: now, reason: .deviceShutdown)) }
        for subscriber in subscribers { subscriber.waitUntilFinished(timeout: 5) }
        listener.shutdownAndClose()
        unlink(socketPath)
    }

    /// Subscribes a sink in this process (a recorder in a test or a flow runner): it gets the
    /// current screen at once, stamped now, then every changed frame, then an end message when
    /// the subscription is stopped or the device shuts down. On a device already shut down it
    /// gets only the end.
    package func subscribe(_ sink: any DisplayStreamSink) -> DisplaySubscription {
        let (local, latest) = state.withLock { state -> (LocalSubscriber?, Frame?) in
            guard !state.isShutDown else { return (nil, nil) }
            let id = state.nextID
            state.nextID += 1
            let local = LocalSubscriber(id: id, sink: sink, server: self)
            state.localSubscribers[id] = local
            state.sessions[id] = Session(id: id, framesSent: 0, framesDropped: 0)
            return (local, state.latest)
        }
        guard let local else {
            sink.receive(.end(stopTime: clock.now, reason: .deviceShutdown))
            return DisplaySubscription(stop: { [clock] in clock.now })
        }
        if let latest { local.deliver(.frame(Frame(pixels: latest.pixels, presentationTime: clock.now))) }
        return DisplaySubscription(stop: { [weak self, clock] in
            let now = clock.now
            local.deliver(.end(stopTime: now, reason: .stopRequested))
            self?.state.withLock { _ = $0.localSubscribers.removeValue(forKey: local.id) }
            return now
        })
    }

    private func acceptLoop() {
        while let connection = listener.accept() {
            let subscriber = state.withLock { state -> Subscriber? in
                guard !state.isShutDown else { return nil }
                let id = state.nextID
                state.nextID += 1
                let subscriber = Subscriber(
                    id: id, socket: connection, server: self, dropsWhenBehind: !clock.kind.waitsForSlowConsumers,
                    limit: queueLimit)
                state.subscribers[id] = subscriber
                state.sessions[id] = Session(id: id, framesSent: 0, framesDropped: 0)
                // The current screen, as of now: the recording starts showing what is there. It
                // is queued before the reader starts, so a stop request sent at once (a recorder
                // interrupted as it starts) still gets this frame before the end; and before any
                // frame published after it, whose changed areas are counted from it.
                if let latest = state.latest {
                    subscriber.enqueue(.frame(Frame(pixels: latest.pixels, presentationTime: clock.now)))
                }
                return subscriber
            }
            guard let subscriber else { connection.shutdownAndClose(); continue }
            subscriber.start(hello: (try? DisplayStreamEncoder.hello(info)) ?? [])
            logger.debug("display stream subscriber \(subscriber.id) connected")
        }
    }

    // Called from subscriber threads.
    func stopRequested(by subscriber: Subscriber) {
        subscriber.enqueue(.end(stopTime: clock.now, reason: .stopRequested))
    }

    func recordSent(_ event: DisplayStreamEvent, by id: Int, halfSize: Bool = false) {
        state.withLock { state in
            switch event {
            case let .frame(frame):
                if state.sessions[id]?.startTime == nil { state.sessions[id]?.startTime = frame.presentationTime }
                state.sessions[id]?.framesSent += 1
                if halfSize { state.sessions[id]?.halfSizeFramesSent += 1 }
            case let .end(stopTime, _):
                state.sessions[id]?.stopTime = stopTime
            }
        }
    }

    func recordDropped(by id: Int) {
        state.withLock { $0.sessions[id]?.framesDropped += 1 }
    }

    func finished(_ subscriber: Subscriber) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: subscriber.id) }
        logger.debug("display stream subscriber \(subscriber.id) finished")
    }
}

/// One connected recorder: a queue, a writer thread and a reader thread (for the stop byte).
final class Subscriber: Sendable {
    let id: Int
    private let socket: UnixSocket
    private weak let server: DisplayStreamServer?
    private let queue = Mutex(Queue())
    private let wakeUp = NSCondition()
    private let done = NSCondition()

    struct Queue {
        var events: [DisplayStreamEvent] = []
        var lastFrameTime: Duration?
        var ended = false
        var finished = false
    }

    private let dropsWhenBehind: Bool
    private let limit: Int
    /// Whether the client asked for patches, and for frames at half size (see `DisplayStream`).
    private let wantsPatches = Atomic<Bool>(false)
    private let wantsHalfSize = Atomic<Bool>(false)

    init(id: Int, socket: UnixSocket, server: DisplayStreamServer, dropsWhenBehind: Bool, limit: Int) {
        self.id = id
        self.limit = limit
        self.socket = socket
        self.server = server
        self.dropsWhenBehind = dropsWhenBehind
    }

    func start(hello: [UInt8]) {
        let writer = Thread { [self] in writeLoop(hello: hello) }
        writer.name = "display-stream-\(id)-writer"
        writer.start()
        let reader = Thread { [self] in readLoop() }
        reader.name = "display-stream-\(id)-reader"
        reader.start()
    }

    func enqueue(_ event: DisplayStreamEvent) {
        var dropped = false
        queue.withLock { queue in
            guard !queue.ended else { return }
            var event = event
            if case let .frame(frame) = event {
                // Only the subscription's first frame (stamped when it connected) can meet a device
                // frame of the same instant.
                let stamped = frame.stamped(after: queue.lastFrameTime)
                queue.lastFrameTime = stamped.presentationTime
                event = .frame(stamped)
            }
            if case .end = event { queue.ended = true }
            queue.events.append(event)
            if dropsWhenBehind, queue.events.count > limit, case let .frame(oldest) = queue.events[0] {
                // Behind on a real clock: drop the oldest intermediate frame, never the newest or the end.
                // (A virtual-clock device waits for room instead, so its streams never lose a frame.)
                // What it changed is now the next frame's change too, for a patch from the frame sent before.
                queue.events.removeFirst()
                if case let .frame(next) = queue.events[0] { queue.events[0] = .frame(next.changing(also: oldest.changedAreas)) }
                dropped = true
            }
        }
        if dropped { server?.recordDropped(by: id) }
        wakeUp.lock(); wakeUp.broadcast(); wakeUp.unlock()
    }

    /// Waits until this subscriber has room for another frame, or `deadline` passes.
    /// A virtual-clock device waits for its recorders rather than dropping frames: its time
    /// does not run away, and the same run must give the same video.
    func waitForRoom(until deadline: Date) {
        wakeUp.lock()
        defer { wakeUp.unlock() }
        while queue.withLock({ !$0.ended && $0.events.count >= limit }) {
            // The deadline is checked here: a timed wait may return early without a signal.
            guard Date() < deadline else { return }
            _ = wakeUp.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
        }
    }

    func waitUntilFinished(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        done.lock()
        while !queue.withLock({ $0.finished }) {
            if !done.wait(until: deadline) { break }
        }
        done.unlock()
    }

    private func next() -> DisplayStreamEvent {
        wakeUp.lock()
        defer { wakeUp.unlock() }
        while true {
            let event = queue.withLock { queue -> DisplayStreamEvent? in
                queue.events.isEmpty ? nil : queue.events.removeFirst()
            }
            if let event {
                wakeUp.broadcast()  // a publisher may be waiting for room
                return event
            }
            wakeUp.wait()
        }
    }

    private func writeLoop(hello: [UInt8]) {
        defer {
            queue.withLock {
                $0.finished = true; $0.ended = true
            }
            socket.shutdownAndClose()
            server?.finished(self)
            done.lock(); done.broadcast(); done.unlock()
        }
        do {
            try socket.write(hello)
            // The size of the frame sent last: a patch changes that frame.
            var lastSize: (width: Int, height: Int)?
            var halfSize = HalfSizeFrames()
            while true {
                let event = next()
                switch event {
                case let .frame(device):
                    let shrinks = wantsHalfSize.load(ordering: .relaxed)
                    let frame = shrinks ? halfSize.shrunk(device) : device
                    let (width, height) = (frame.pixels.width, frame.pixels.height)
                    if wantsPatches.load(ordering: .relaxed), let lastSize, lastSize == (width, height),
                        let areas = frame.changedAreas, DisplayStreamEncoder.isWorthPatching(areas, width: width, height: height)
                    {
                        try socket.write(DisplayStreamEncoder.patch(frame, areas: areas))
                    } else {
                        try socket.write(DisplayStreamEncoder.frameHeader(frame))
                        try frame.pixels.withUnsafeBytes { try socket.write($0) }
                    }
                    lastSize = (width, height)
                    server?.recordSent(event, by: id, halfSize: shrinks)
                case let .end(stopTime, reason):
                    try socket.write(DisplayStreamEncoder.end(stopTime: stopTime, reason: reason))
                    server?.recordSent(event, by: id)
                    return
                }
            }
        } catch {
            // The recorder went away (killed, or closed early): nothing to finish.
        }
    }

    private func readLoop() {
        // Any stop byte ends the stream; a closed socket ends the reader.
        while let byte = try? socket.read(count: 1)?.first {
            if DisplayStreamEncoder.isPatchesRequest(byte) { wantsPatches.store(true, ordering: .relaxed) }
            if DisplayStreamEncoder.isHalfSizeRequest(byte) { wantsHalfSize.store(true, ordering: .relaxed) }
            if DisplayStreamEncoder.isStopRequest(byte) {
                server?.stopRequested(by: self)
                return
            }
        }
        // The peer closed without asking: end the writer too.
        server?.stopRequested(by: self)
    }
}

/// A subscription of a sink in this process; `stop()` ends its stream.
package final class DisplaySubscription: Sendable {
    private let stopper: Mutex<(@Sendable () -> Duration)?>

    init(stop: @escaping @Sendable () -> Duration) { stopper = Mutex(stop) }

    /// Ends the stream: the sink gets its end message, stamped now on the device clock, which
    /// is returned. Later calls do nothing and return nil.
    @discardableResult
    package func stop() -> Duration? {
        let stop = stopper.withLock { stopper in
            defer { stopper = nil }
            return stopper
        }
        return stop?()
    }
}

/// A sink in this process, fed on the publishing thread: one event at a time and in order,
/// with strictly increasing timestamps, and nothing after its end.
final class LocalSubscriber: Sendable {
    let id: Int
    private let sink: any DisplayStreamSink
    private weak let server: DisplayStreamServer?
    /// Held while an event is delivered, so a stop from another thread waits for a frame
    /// being handed over (which may wait for encoder room) and comes after it.
    private let delivery = Mutex<(lastFrameTime: Duration?, ended: Bool)>((nil, false))

    init(id: Int, sink: any DisplayStreamSink, server: DisplayStreamServer) {
        self.id = id
        self.sink = sink
        self.server = server
    }

    func deliver(_ event: DisplayStreamEvent) {
        let delivered = delivery.withLock { state -> DisplayStreamEvent? in
            guard !state.ended else { return nil }
            var event = event
            switch event {
            case let .frame(frame):
                let stamped = frame.stamped(after: state.lastFrameTime)
                state.lastFrameTime = stamped.presentationTime
                event = .frame(stamped)
            case .end:
                state.ended = true
            }
            sink.receive(event)
            return event
        }
        if let delivered { server?.recordSent(delivered, by: id) }
    }
}
