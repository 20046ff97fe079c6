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
package enum DisplayStream {
    public static let magic: [UInt8] = Array("SRDS".utf8)
    public static let version: UInt32 = 1
    /// What `showreel io … recordVideo` prints once it has the first frame: a client that
    /// launched it (through a tunnel host) knows from this line that the recording has started.
    public static let recordingStartedLine = "Recording started"
    static let frameTag: UInt8 = 1
    static let endTag: UInt8 = 2
    static let stopRequest: UInt8 = 0x53  // "S"
    static let frameHeaderSize = 1 + 8 + 4 + 4 + 4
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
}

/// The client side: connect, read the hello, then read events until the end.
package final class DisplayStreamClient: @unchecked Sendable {
    public let info: DisplayInfo
    private let socket: UnixSocket

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
            let pixels = PixelBuffer(width: width, height: height, bytesPerRow: bytesPerRow, zeroed: false)
            let complete = try pixels.withUnsafeMutableBytes { try socket.read(into: $0) }
            guard complete else { throw WireError.truncated }
            return .frame(Frame(pixels: pixels, presentationTime: .nanoseconds(pts)))
        case DisplayStream.endTag:
            guard let body = try socket.read(count: 9) else { throw WireError.truncated }
            let stop: Int64 = readLE(body, at: 0)
            return .end(stopTime: .nanoseconds(stop), reason: DisplayStreamEndReason(rawValue: body[8]) ?? .deviceShutdown)
        default:
            throw WireError.protocolViolation("unknown message tag \(tag)")
        }
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
