import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelTestSupport
import ShowreelWire
import Synchronization
import Testing

/// A client that asks for patches gets, for a frame that changed in places, only those places;
/// it must rebuild exactly the frames the device drew, whatever the device skipped for it.
@Suite("Display stream patches")
struct DisplayStreamPatchTests {
    @Test("a client that asks for patches rebuilds every frame the device drew, most of them from patches")
    func patchesRebuildTheFrames() async throws {
        let (received, truth, _) = try await Self.typeThenPush(halfSize: false)
        #expect(received.frames.count == truth.count, "a virtual-clock device drops no frame")
        for frame in received.frames.dropFirst() {
            #expect(truth[frame.time] == frame.hash, "the frame at \(frame.time) differs from the device's")
        }
        #expect(received.patches >= 10, "\(received.patches) of \(received.frames.count) frames came as patches")
        #expect(received.frames.count - received.patches >= 2, "the first frame and the other app's come whole")
    }

    @Test("a client that asks for half-size frames gets every frame the device drew shrunk as a recorder shrinks it, most as patches")
    func halfSizeFrames() async throws {
        let (received, truth, session) = try await Self.typeThenPush(halfSize: true)
        // The first frame may leave before the device reads the request; every later one is half size.
        let half = received.frames.filter { $0.size == (390, 844) }
        #expect(half.count >= received.frames.count - 1 && half.count >= 10, "\(received.frames.map(\.size))")
        #expect(session.halfSizeFramesSent == half.count)
        for frame in half {
            #expect(truth[frame.time] == frame.hash, "the frame at \(frame.time) is not the device's, shrunk")
        }
        #expect(received.patches >= 10, "\(received.patches) of \(received.frames.count) frames came as patches")
    }

    /// Keys and the caret (small changes, sent as patches), then another app (the whole screen
    /// changes, so that frame comes whole), read by a client; with what the device drew (shrunk
    /// to half with `halfSize`, which the client asks for) and the device's record of the stream.
    private static func typeThenPush(halfSize: Bool) async throws -> (
        received: HashingReader.Received, truth: [Duration: UInt64], session: DisplayStreamServer.Session
    ) {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(SignUpApp.bundleIdentifier)
        let drawn = FrameHashes(halfSize: halfSize)
        let subscription = device.display.subscribe(drawn)
        let reader = try HashingReader(socketPath: device.display.socketPath, halfSize: halfSize)
        try await device.typeText("patches", into: .textField("email"))
        try await device.launch(CountriesApp.bundleIdentifier)
        try await device.tap(.cell("Canada"))
        try await device.wait(.seconds(1))
        let received = try await reader.stop()
        subscription.stop()
        let session = try #require(device.display.sessions.last)
        await device.shutdown()
        return (received, drawn.byTime, session)
    }

    @Test("behind on a real clock, what a frame dropped for a slow client changed still reaches it in the next patch")
    func droppedFramesCarryOver() async throws {
        let home = try Workspace()
        let device = try Device(clock: .real, apps: ShowcaseCatalog.apps, registry: home.registry)
        var statusBar = StatusBarValues()
        statusBar.time = "9:00"
        await device.overrideStatusBar(statusBar)
        try await device.launch(CountriesApp.bundleIdentifier)
        let drawn = FrameHashes()
        let subscription = device.display.subscribe(drawn)
        // A client that reads nothing for a while: a push's whole frames fill the socket, then
        // the 6 frames its queue holds are all the device keeps for it; the status bar's clock
        // ticking after it changes a small area per frame, sent as patches from what was sent.
        let reader = try HashingReader(socketPath: device.display.socketPath, paused: true)
        try await device.tap(.cell("Canada"))
        for minute in 1...20 {
            statusBar.time = "9:\(minute < 10 ? "0" : "")\(minute)"
            await device.overrideStatusBar(statusBar)
            try await device.wait(.milliseconds(20))
        }
        reader.resume()
        try await device.wait(.milliseconds(100))
        let received = try await reader.stop()
        subscription.stop()
        let session = try #require(device.display.sessions.last)
        await device.shutdown()

        #expect(
            session.framesDropped > 0,
            "the slow client was never behind (\(session), \(received.frames.count) frames read, \(drawn.byTime.count) drawn); the test proves nothing"
        )
        #expect(received.patches > 0)
        let truth = drawn.byTime
        for frame in received.frames.dropFirst() {
            #expect(truth[frame.time] == frame.hash, "the frame at \(frame.time) differs from the device's")
        }
    }

    @Test("a client that does not ask for patches gets whole frames only, as before")
    func oldClientsGetWholeFrames() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        let socket = try UnixSocket.connect(to: device.display.socketPath)
        let head = try #require(try socket.read(count: 12))
        let length = head[8..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
        _ = try socket.read(count: length)
        let tags = Mutex<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        // The protocol by hand, as a recorder written before patches reads it, on a thread of its own.
        Thread {
            defer { done.signal() }
            while let tag = try? socket.read(count: 1)?.first {
                tags.withLock { $0.append(tag) }
                guard tag == 1, let header = try? socket.read(count: 20) else { return }
                let field = { (at: Int) in header[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
                _ = try? socket.read(count: field(12) * field(16))
            }
        }.start()
        for _ in 0..<2 {
            try await device.tap(.button("tapButton"))
            try await device.wait(.milliseconds(300))
        }
        try socket.write([0x53])
        _ = try await offPool { done.wait() }
        socket.close()
        await device.shutdown()
        let seen = tags.withLock { $0 }
        #expect(seen.count >= 4)
        #expect(seen.dropLast().allSatisfy { $0 == 1 } && seen.last == 2, "tags \(seen)")
    }
}

/// The content of every frame a sink in the device's process gets, by time: what the device
/// drew (with `halfSize`, shrunk whole to half its size).
private final class FrameHashes: DisplayStreamSink, Sendable {
    private let hashes = Mutex<[Duration: UInt64]>([:])
    private let halfSize: Bool
    var byTime: [Duration: UInt64] { hashes.withLock { $0 } }

    init(halfSize: Bool = false) { self.halfSize = halfSize }

    func receive(_ event: DisplayStreamEvent) {
        guard case let .frame(frame) = event else { return }
        var pixels = frame.pixels
        if halfSize {
            pixels = PixelBuffer(width: pixels.width / 2, height: pixels.height / 2)
            FrameScaler.shrink(frame.pixels, into: pixels)
        }
        let hash = pixels.contentHash
        hashes.withLock { $0[frame.presentationTime] = hash }
    }
}

/// Reads a display stream on a thread of its own (off Swift's pool), hashing each frame as it
/// comes (the client reuses its buffers) and counting those rebuilt from patches.
private final class HashingReader: @unchecked Sendable {
    struct Received {
        var frames: [(time: Duration, hash: UInt64, size: (Int, Int))] = []
        var patches = 0
    }

    private let client: DisplayStreamClient
    private let received = Mutex(Received())
    private let finished = DispatchSemaphore(value: 0)

    private let resumed = DispatchSemaphore(value: 0)

    /// `paused`: reads the first frame, then nothing until `resume()`. `halfSize`: asks for
    /// frames at half size.
    init(socketPath: String, paused: Bool = false, halfSize: Bool = false) throws {
        client = try DisplayStreamClient(socketPath: socketPath)
        if halfSize { try client.requestHalfSizeFrames() }
        let thread = Thread { [self] in
            var first = true
            while case let .frame(frame)? = try? client.next() {
                if paused, first { resumed.wait() }
                first = false
                let hash = frame.pixels.contentHash
                received.withLock {
                    $0.frames.append((frame.presentationTime, hash, (frame.pixels.width, frame.pixels.height)))
                    if frame.changedAreas != nil { $0.patches += 1 }
                }
            }
            finished.signal()
        }
        thread.start()
    }

    func resume() { resumed.signal() }

    /// Asks the device to end the stream and returns what was read.
    func stop() async throws -> Received {
        try client.requestStop()
        _ = try await offPool { [finished] in finished.wait() }
        client.close()
        return received.withLock { $0 }
    }
}
