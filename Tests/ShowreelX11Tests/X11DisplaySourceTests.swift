import Foundation
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelWire
import ShowreelX11
import Synchronization
import Testing

/// An X display as a frame source, on a real Xvfb: frames on damage, the pointer drawn in.
@Suite("X display source")
struct X11DisplaySourceTests {
    /// Counts what a capture loop hands its sink.
    final class CountingSink: DisplayStreamSink, @unchecked Sendable {
        let frames = Mutex<[Frame]>([])
        let end = Mutex<DisplayStreamEndReason?>(nil)
        func receive(_ event: DisplayStreamEvent) {
            switch event {
            case let .frame(frame): frames.withLock { $0.append(frame) }
            case let .end(_, reason): end.withLock { $0 = reason }
            }
        }
        var count: Int { frames.withLock { $0.count } }
    }

    @Test("frames come only with damage: an idle display adds none, a drawing adds one; the pointer is in them")
    func damageDrivenCapture() async throws {
        let display = try TestDisplay()
        try display.fill(red: 200, green: 30, blue: 30)
        let source = try X11DisplaySource(display: display.name)
        let sink = CountingSink()
        let loop = Thread { source.run(into: sink) }
        loop.start()
        try await eventually("the first frame") { sink.count == 1 }
        try await Task.sleep(for: .seconds(2))
        #expect(sink.count == 1, "an idle display gave \(sink.count - 1) more frames")
        try display.fill(red: 30, green: 200, blue: 30)
        try await eventually("a frame for the drawing") { sink.count >= 2 }
        try await Task.sleep(for: .seconds(1))
        #expect(sink.count == 2, "one drawing gave \(sink.count - 1) frames")
        source.stop()
        try await eventually("the end event") { sink.end.withLock { $0 } == .stopRequested }
        let frames = sink.frames.withLock { $0 }
        #expect(pixel(frames[0].pixels, isNear: 200, 30, 30, x: 5, y: 5))
        #expect(pixel(frames[1].pixels, isNear: 30, 200, 30, x: 5, y: 5))
        #expect(frames[1].presentationTime > frames[0].presentationTime + .seconds(2))
        // Xvfb starts with its pointer (the X cursor, black and white) in the screen's middle.
        let centre = frames[1].pixels
        let around = (-8...8).flatMap { dy in (-8...8).map { dx in centre.pixel(x: centre.width / 2 + dx, y: centre.height / 2 + dy) } }
        #expect(around.contains { $0.green < 120 || $0.red > 120 }, "no pointer drawn at the screen's centre")
    }

    @Test("a move of the pointer alone makes a frame, with the pointer drawn where it went; a still pointer makes none")
    func pointerMoves() async throws {
        let display = try TestDisplay()
        try display.fill(red: 200, green: 200, blue: 200)
        let source = try X11DisplaySource(display: display.name)
        let sink = CountingSink()
        let loop = Thread { source.run(into: sink) }
        loop.start()
        defer { source.stop() }
        try await eventually("the first frame") { sink.count == 1 }
        try display.movePointer(x: 40, y: 40)
        try await eventually("a frame for the move") { sink.count >= 2 }
        try await Task.sleep(for: .seconds(1))
        #expect(sink.count == 2, "one move gave \(sink.count - 1) frames")
        let frames = sink.frames.withLock { $0 }
        func pointerDrawn(_ buffer: PixelBuffer, x: Int, y: Int) -> Bool {
            (-8...8).contains { dy in (-8...8).contains { dx in !pixel(buffer, isNear: 200, 200, 200, x: x + dx, y: y + dy) } }
        }
        // Xvfb starts with the pointer in the middle; the move takes it to (40, 40).
        #expect(pointerDrawn(frames[0].pixels, x: 160, y: 120) && !pointerDrawn(frames[0].pixels, x: 40, y: 40))
        #expect(pointerDrawn(frames[1].pixels, x: 40, y: 40) && !pointerDrawn(frames[1].pixels, x: 160, y: 120))
    }
}
