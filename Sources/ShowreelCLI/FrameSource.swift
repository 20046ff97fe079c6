import ShowreelGraphics
import ShowreelRecorder
import ShowreelWire
import ShowreelX11

/// Where `io` takes its frames from: a device's display stream, or an X display (a device
/// argument that starts with `:`, as `DISPLAY` writes it, or a display `showreel display
/// start` registered). One recorder either way: both feed the same `RecordingSession`.
protocol FrameSource: AnyObject, Sendable {
    /// The screen's size and clock, as a display stream's hello says.
    var info: DisplayInfo { get }
    /// How messages name it: the device's name, or `X display :99`.
    var name: String { get }
    /// Asks for the end of the stream (from any thread): `feed` then returns after the end event.
    func requestStop()
    /// Feeds `session` until the end, the source going away, or a broken stream (thrown).
    func feed(_ session: RecordingSession, onStart: () -> Void) throws
    /// The screen now, for a screenshot.
    func currentScreen() throws -> PixelBuffer?
    func close()
}

/// Opens what `device` names: an X display (`:N`, or a registered one), else a device's stream.
func openFrameSource(_ device: String) throws -> FrameSource {
    if device.hasPrefix(":") { return try openDisplay(device) }
    let record = try resolveDevice(device)
    if let display = record.x11Display { return try openDisplay(display) }
    do { return try DeviceStreamSource(record: record, client: DisplayStreamClient(socketPath: record.displaySocket)) } catch {
        throw CLIFailure(
            message: "Cannot connect to \(record.name)'s display stream at \(record.displaySocket): \(ErrorSentence.describe(error))",
            exitCode: CLIFailure.Code.streamFailed)
    }
}

private func openDisplay(_ display: String) throws -> FrameSource {
    do { return X11Source(try X11DisplaySource(display: display)) } catch {
        throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.deviceNotFound)
    }
}

/// A device in another process, through its display stream socket.
final class DeviceStreamSource: FrameSource {
    let record: DeviceRecord
    let client: DisplayStreamClient

    init(record: DeviceRecord, client: DisplayStreamClient) {
        self.record = record
        self.client = client
    }

    var info: DisplayInfo { client.info }
    var name: String { record.name }
    func requestStop() { try? client.requestStop() }
    func feed(_ session: RecordingSession, onStart: () -> Void) throws { try session.consume(client, onStart: onStart) }
    func close() { client.close() }

    func currentScreen() throws -> PixelBuffer? {
        defer { try? client.requestStop() }
        guard case let .frame(frame)? = try client.next() else { return nil }
        return frame.pixels
    }
}

/// An X display, captured on damage.
final class X11Source: FrameSource {
    let source: X11DisplaySource

    init(_ source: X11DisplaySource) { self.source = source }

    var info: DisplayInfo { source.info }
    var name: String { "X display \(source.display)" }
    func requestStop() { source.stop() }
    func currentScreen() throws -> PixelBuffer? { source.screenshot() }
    func close() {}

    func feed(_ session: RecordingSession, onStart: () -> Void) throws {
        source.run(into: session, onFirstFrame: onStart)
    }
}
