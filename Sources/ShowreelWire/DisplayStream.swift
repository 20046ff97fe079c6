import Foundation
import ShowreelGraphics

/// The display stream between a device and its recorders, over a Unix socket.
///
/// Device to client: a hello (magic, version, JSON `DisplayInfo`), then messages:
/// a frame (tag 1, pts in ns, width, height, bytes per row, BGRA bytes) whenever the
/// screen changed, and finally an end (tag 2, stop time in ns, reason), after which
/// the device closes. Client to device: a single stop byte, answered by the end message,
/// so the recorder learns the device-clock stop time (which it cannot know itself on a
/// virtual clock). All integers are little-endian.
///
/// A client that sends the patches byte may get, instead of a whole frame, a patch (tag 3):
/// the frame sent before with only the areas that changed (a key, a caret) sent again. A
/// frame then crosses the socket in kilobytes instead of 5 MB, and the recorder on the other
/// side knows what changed. A device that does not know the byte ignores it (it reads only
/// for the stop byte), and one that knows it never sends a patch to a client that did not ask.
///
/// A client whose video is half the screen's size may send the half-size byte: from then on
/// the device sends its frames and patches shrunk to half (each side halved, rounded down),
/// as a recorder would have shrunk them, so a quarter of the bytes cross the socket and the
/// recorder has nothing left to shrink. A device that does not know the byte sends whole
/// frames as before: the client tells them apart by their size.
package enum DisplayStream {
    public static let magic: [UInt8] = Array("SRDS".utf8)
    public static let version: UInt32 = 1
    /// What `showreel io … recordVideo` prints once it has the first frame: a client that
    /// launched it (through a tunnel host) knows from this line that the recording has started.
    public static let recordingStartedLine = "Recording started"
    /// What it prints, with the seconds of device time it spanned, when the stream ended with
    /// `DisplayStreamEndReason.discarded`: "Recording discarded: 1.234 s".
    public static let recordingDiscardedLine = "Recording discarded"
    static let frameTag: UInt8 = 1
    static let endTag: UInt8 = 2
    static let patchTag: UInt8 = 3
    static let stopRequest: UInt8 = 0x53  // "S"
    static let patchesRequest: UInt8 = 0x50  // "P"
    static let halfSizeRequest: UInt8 = 0x48  // "H"
    static let frameHeaderSize = 1 + 8 + 4 + 4 + 4
    /// Tag, pts, width, height, number of areas; then 16 bytes per area.
    static let patchHeaderSize = 1 + 8 + 4 + 4 + 4
    /// The most areas one patch may carry (a device merges its changed areas into a few).
    static let maximumPatchAreas = 4096
}

/// Who is on the other end of the stream, sent once on connect.
package struct DisplayInfo: Codable, Equatable, Sendable {
    public var udid: String
    public var deviceName: String
    public var profile: DeviceProfile
    public var clock: ClockKind

    public init(udid: String, deviceName: String, profile: DeviceProfile, clock: ClockKind) {
        self.udid = udid; self.deviceName = deviceName; self.profile = profile; self.clock = clock
    }
}

/// Why a stream ended.
package enum DisplayStreamEndReason: UInt8, Sendable {
    /// The subscriber asked to stop (the recorder got SIGINT or SIGTERM).
    case stopRequested = 0
    /// The device shut down while the subscriber was attached.
    case deviceShutdown = 1
    /// Whoever drives the device dropped the recording (a passing test's video that is not to
    /// be kept): the recorder writes nothing. A recorder that predates it takes it for the
    /// device shutting down, and finishes its file, which the one who dropped it removes.
    case discarded = 2
}

package enum DisplayStreamEvent: Sendable {
    case frame(Frame)
    case end(stopTime: Duration, reason: DisplayStreamEndReason)
}

/// Writes the device side of the protocol.
package enum DisplayStreamEncoder {
    public static func hello(_ info: DisplayInfo) throws -> [UInt8] {
        let json = try JSONEncoder().encode(info)
        return DisplayStream.magic + le(DisplayStream.version) + le(UInt32(json.count)) + Array(json)
    }

    public static func frameHeader(_ frame: Frame) -> [UInt8] {
        [DisplayStream.frameTag] + le(frame.presentationTime.nanoseconds) + le(UInt32(frame.pixels.width))
            + le(UInt32(frame.pixels.height)) + le(UInt32(frame.pixels.bytesPerRow))
    }

    public static func end(stopTime: Duration, reason: DisplayStreamEndReason) -> [UInt8] {
        [DisplayStream.endTag] + le(stopTime.nanoseconds) + [reason.rawValue]
    }

    /// Whether the byte a client sent is a stop request.
    public static func isStopRequest(_ byte: UInt8) -> Bool { byte == DisplayStream.stopRequest }

    /// Whether the byte a client sent asks for patches instead of whole frames.
    package static func isPatchesRequest(_ byte: UInt8) -> Bool { byte == DisplayStream.patchesRequest }

    /// Whether the byte a client sent asks for frames at half the screen's size.
    package static func isHalfSizeRequest(_ byte: UInt8) -> Bool { byte == DisplayStream.halfSizeRequest }

    /// Whether sending `areas` of a `width` x `height` frame as a patch is worth it: they cover
    /// less than half of it (a whole frame is one copy; a patch is one per row of each area).
    package static func isWorthPatching(_ areas: [PixelArea], width: Int, height: Int) -> Bool {
        areas.count <= DisplayStream.maximumPatchAreas
            && areas.reduce(0) { $0 + $1.pixelCount } * 2 < width * height
    }

    /// The patch that turns the frame sent before (of the same size) into `frame`: its time,
    /// `areas` (within the frame), then each area's pixels, rows tightly packed, in one message.
    package static func patch(_ frame: Frame, areas: [PixelArea]) -> [UInt8] {
        let pixels = frame.pixels
        var message = [DisplayStream.patchTag] + le(frame.presentationTime.nanoseconds) + le(UInt32(pixels.width))
        message += le(UInt32(pixels.height)) + le(UInt32(areas.count))
        let areas = areas.map { PixelArea(rows: $0.rows.clamped(to: 0..<pixels.height), columns: $0.columns.clamped(to: 0..<pixels.width)) }
        for area in areas {
            message += le(UInt32(area.rows.lowerBound)) + le(UInt32(area.rows.count))
            message += le(UInt32(area.columns.lowerBound)) + le(UInt32(area.columns.count))
        }
        message.reserveCapacity(message.count + areas.reduce(0) { $0 + $1.pixelCount * 4 })
        pixels.withUnsafeBytes { bytes in
            for area in areas {
                for row in area.rows {
                    let start = row * pixels.bytesPerRow + area.columns.lowerBound * 4
                    message.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<start + area.columns.count * 4]))
                }
            }
        }
        return message
    }
}

/// The client side: connect, read the hello, ask for patches, then read events until the end.
/// Frames rebuilt from patches say which areas changed (`Frame.changedAreas`).
package final class DisplayStreamClient: @unchecked Sendable {
    public let info: DisplayInfo
    private let socket: UnixSocket
    /// The last frame read: what the next patch changes. Read on one thread (`next()`'s).
    private var last: PixelBuffer?
    /// Earlier frames' buffers, filled again once the recorder let go of them.
    private var recycler = FrameRecycler()
    /// A patch's pixels as they come off the socket, kept between patches.
    private var patchBytes: [UInt8] = []

    public init(socketPath: String) throws {
        socket = try UnixSocket.connect(to: socketPath)
        guard let head = try socket.read(count: 12), Array(head[0..<4]) == DisplayStream.magic else {
            throw WireError.protocolViolation("no display stream hello at \(socketPath)")
        }
        let version: UInt32 = readLE(head, at: 4)
        guard version == DisplayStream.version else {
            throw WireError.protocolViolation("display stream version \(version), this recorder speaks \(DisplayStream.version)")
        }
        let length = Int(readLE(head, at: 8) as UInt32)
        guard length < 1 << 20, let json = try socket.read(count: length) else { throw WireError.truncated }
        info = try JSONDecoder().decode(DisplayInfo.self, from: Data(json))
        // Best effort: a device that sent its hello and ended at once (shutting down) has closed
        // its side, and what it sent before closing (the end) is still to be read.
        try? socket.write([DisplayStream.patchesRequest])
    }

    /// The next frame or the end; nil if the device vanished without an end message.
    public func next() throws -> DisplayStreamEvent? {
        guard let tag = try socket.read(count: 1)?.first else { return nil }
        switch tag {
        case DisplayStream.frameTag:
            guard let header = try socket.read(count: DisplayStream.frameHeaderSize - 1) else { throw WireError.truncated }
            let pts: Int64 = readLE(header, at: 0)
            let width = Int(readLE(header, at: 8) as UInt32)
            let height = Int(readLE(header, at: 12) as UInt32)
            let bytesPerRow = Int(readLE(header, at: 16) as UInt32)
            guard width > 0, height > 0, width <= 16384, height <= 16384, bytesPerRow >= width * 4 else {
                throw WireError.protocolViolation("frame of \(width)x\(height), \(bytesPerRow) bytes per row")
            }
            let pixels =
                bytesPerRow == width * 4
                ? recycler.buffer(width: width, height: height).pixels
                : PixelBuffer(width: width, height: height, bytesPerRow: bytesPerRow, zeroed: false)
            let complete = try pixels.withUnsafeMutableBytes { try socket.read(into: $0) }
            guard complete else { throw WireError.truncated }
            recycler.published(changing: nil, replacing: last)
            last = pixels
            return .frame(Frame(pixels: pixels, presentationTime: .nanoseconds(pts)))
        case DisplayStream.patchTag:
            return .frame(try readPatch())
        case DisplayStream.endTag:
            guard let body = try socket.read(count: 9) else { throw WireError.truncated }
            let stop: Int64 = readLE(body, at: 0)
            return .end(stopTime: .nanoseconds(stop), reason: DisplayStreamEndReason(rawValue: body[8]) ?? .deviceShutdown)
        default:
            throw WireError.protocolViolation("unknown message tag \(tag)")
        }
    }

    /// A patch's frame: the last frame read with the patch's areas read into a copy of it.
    private func readPatch() throws -> Frame {
        guard let header = try socket.read(count: DisplayStream.patchHeaderSize - 1) else { throw WireError.truncated }
        let pts: Int64 = readLE(header, at: 0)
        let (width, height) = (Int(readLE(header, at: 8) as UInt32), Int(readLE(header, at: 12) as UInt32))
        let count = Int(readLE(header, at: 16) as UInt32)
        guard let last, last.width == width, last.height == height else {
            throw WireError.protocolViolation("a \(width)x\(height) patch without a frame of that size before it")
        }
        guard count <= DisplayStream.maximumPatchAreas, let table = try socket.read(count: count * 16) else {
            throw count > DisplayStream.maximumPatchAreas ? WireError.protocolViolation("a patch of \(count) areas") : WireError.truncated
        }
        var areas: [PixelArea] = []
        for index in 0..<count {
            let field = { (at: Int) in Int(readLE(table, at: index * 16 + at) as UInt32) }
            let (top, rows, left, columns) = (field(0), field(4), field(8), field(12))
            guard top + rows <= height, left + columns <= width else {
                throw WireError.protocolViolation(
                    "a patch area of \(columns)x\(rows) at (\(left), \(top)) outside a \(width)x\(height) frame")
            }
            areas.append(PixelArea(rows: top..<top + rows, columns: left..<left + columns))
        }
        let pixels = copyOfLast(last)
        for area in areas where !area.isEmpty {
            let rowBytes = area.columns.count * 4
            patchBytes =
                patchBytes.count >= rowBytes * area.rows.count ? patchBytes : [UInt8](repeating: 0, count: rowBytes * area.rows.count)
            let complete = try patchBytes.withUnsafeMutableBytes {
                try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<rowBytes * area.rows.count]))
            }
            guard complete else { throw WireError.truncated }
            pixels.withUnsafeMutableBytes { target in
                patchBytes.withUnsafeBytes { source in
                    for (index, row) in area.rows.enumerated() {
                        (target.baseAddress! + row * pixels.bytesPerRow + area.columns.lowerBound * 4)
                            .copyMemory(from: source.baseAddress! + index * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }
        recycler.published(changing: areas, replacing: last)
        self.last = pixels
        return Frame(pixels: pixels, presentationTime: .nanoseconds(pts), changedAreas: areas)
    }

    /// A buffer holding `last`'s pixels: a recycled one with only what changed since copied in.
    private func copyOfLast(_ last: PixelBuffer) -> PixelBuffer {
        guard last.bytesPerRow == last.width * 4 else {
            let pixels = PixelBuffer(width: last.width, height: last.height, bytesPerRow: last.bytesPerRow, zeroed: false)
            pixels.copyPixels(from: last)
            return pixels
        }
        let (pixels, stale) = recycler.buffer(width: last.width, height: last.height)
        pixels.copyPixels(in: stale, from: last)
        return pixels
    }

    /// Asks the device for frames at half the screen's size from now on (see `DisplayStream`).
    public func requestHalfSizeFrames() throws {
        try socket.write([DisplayStream.halfSizeRequest])
    }

    /// Asks the device to end the stream; it answers with the end message and its stop time.
    public func requestStop() throws {
        try socket.write([DisplayStream.stopRequest])
    }

    public func close() { socket.shutdownAndClose() }
}

func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

func readLE<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int) -> T {
    var value: T = 0
    withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + MemoryLayout<T>.size]) }
    return T(littleEndian: value)
}
