import CXCB
import Foundation
import ShowreelGraphics
import ShowreelWire
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An X display (Xvfb, Xorg) as a display stream source: feeds a `DisplayStreamSink` (a
/// `RecordingSession`) the frames a device would, on a real clock.
///
/// A frame is taken only when the X server reports damage (the DAMAGE extension), so an idle
/// screen costs no frames and no CPU: the loop sleeps in poll(2) on the connection and a wake
/// pipe. Each frame is the root window through shared memory with the pointer drawn over it
/// (XFIXES). A change of the pointer's shape makes a frame, and so does a move (XInput 2's raw
/// motion, and motion for a warp): a still pointer costs nothing. Busy screens are taken at most
/// `maximumFrameRate` times a second: damage and moves that arrive sooner wait, merged, for the
/// next frame. A screen resized while it is recorded (RandR) is taken at its new size from then
/// on (the root window's ConfigureNotify says so), and the recorder scales those frames to its
/// video's size: the video goes on, at the size it started with.
package final class X11DisplaySource: @unchecked Sendable {
    /// The display name, as `DISPLAY` writes it (`:99`).
    package let display: String
    /// What a display stream's hello would say: the screen's size, a real clock.
    package let info: DisplayInfo
    package let maximumFrameRate: Double
    private let x: X11Connection
    private let image: SharedImage
    private let origin = ContinuousClock.now
    private let wake: (read: Int32, write: Int32)
    private let stopRequested = Atomic<Bool>(false)
    private let captured = Atomic<Int>(0)

    /// How a capture loop ended.
    package enum End: Sendable, Equatable {
        /// `stop()` was called.
        case stopped
        /// The X server went away (it exited, or closed the connection).
        case connectionLost
    }

    /// Connects to `display` and checks what capture needs, or throws a sentence saying what is wrong.
    package init(display: String, maximumFrameRate: Double = 30) throws(X11Error) {
        self.display = display
        self.maximumFrameRate = maximumFrameRate
        x = try X11Connection(display: display)
        image = try SharedImage(x)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .resources(display: display, detail: "no pipe (\(String(cString: strerror(errno))))") }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = (fds[0], fds[1])
        let profile = DeviceProfile(
            name: "x11", displayName: "X display \(display)",
            pointSize: Size(width: Double(x.width), height: Double(x.height)), scale: 1,
            cornerRadius: 0, sensorHousing: nil, statusBarHeight: 0)
        info = DisplayInfo(udid: display, deviceName: "X display \(display)", profile: profile, clock: .real)
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Frames taken so far (each one a damage report answered, or the first frame).
    package var framesCaptured: Int { captured.load(ordering: .relaxed) }

    /// The time since this source connected: the stream's clock.
    package var now: Duration { ContinuousClock.now - origin }

    /// The screen now, without the pointer (a screenshot); nil when the connection broke.
    package func screenshot() -> PixelBuffer? { image.grab() }

    /// Ends `run` soon, from any thread (a signal handler's queue): it sends the end event with
    /// the stop time and returns `.stopped`. Calling it before `run` makes `run` stop at once,
    /// after the first frame.
    package func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 0x53
        _ = write(wake.write, &byte, 1)
    }

    /// Feeds `sink` the first frame at once, then a frame per damage, until `stop()` or the
    /// server goes away; finally an end event (`.stopRequested` or `.deviceShutdown`). Blocks
    /// the calling thread. `onFirstFrame` runs once the first frame is in the sink.
    @discardableResult
    package func run(into sink: DisplayStreamSink, onFirstFrame: () -> Void = {}) -> End {
        let damage = x.generateID()
        xcb_damage_create(x.connection, damage, x.root, UInt8(XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY.rawValue))
        defer { if !x.isBroken { xcb_damage_destroy(x.connection, damage); x.flush() } }
        let damageNotify = x.damageFirstEvent &+ UInt8(XCB_DAMAGE_NOTIFY)
        // The pointer is no part of the screen's pixels: a new shape (a hand over a link, a text
        // cursor) is no damage, so it is asked for separately and taken as a change too.
        let cursorNotify = x.fixesFirstEvent &+ UInt8(XCB_XFIXES_CURSOR_NOTIFY)
        xcb_xfixes_select_cursor_input(x.connection, x.root, UInt32(XCB_XFIXES_CURSOR_NOTIFY_MASK_DISPLAY_CURSOR.rawValue))
        // A resize (RandR) changes what a grab must ask for: the root's ConfigureNotify says when.
        var structure = [UInt32(XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue)]
        xcb_change_window_attributes(x.connection, x.root, UInt32(XCB_CW_EVENT_MASK.rawValue), &structure)
        let configureNotify = UInt8(XCB_CONFIGURE_NOTIFY)
        // A move is no damage either: the pointer is drawn by the server, over the pixels.
        if x.inputOpcode != nil { free(xcb_request_check(x.connection, showreel_select_pointer_motion(x.connection, x.root))) }
        let pointerMoved = { (event: UnsafeMutablePointer<xcb_generic_event_t>) -> Bool in
            guard let opcode = self.x.inputOpcode, showreel_xcb_event_type(event) == UInt8(XCB_GE_GENERIC),
                showreel_xcb_generic_extension(event) == opcode
            else { return false }
            let type = showreel_xcb_generic_type(event)
            return type == UInt16(XCB_INPUT_RAW_MOTION) || type == UInt16(XCB_INPUT_MOTION)
        }
        // The server reports a new damage object's whole window as damaged: clear that, and
        // let its event go by, so the first frame is not followed at once by a copy of itself.
        xcb_damage_subtract(x.connection, damage, xcb_xfixes_region_t(XCB_NONE), xcb_xfixes_region_t(XCB_NONE))
        free(xcb_get_input_focus_reply(x.connection, xcb_get_input_focus(x.connection), nil))
        while let event = xcb_poll_for_queued_event(x.connection) { free(event) }
        let interval = Duration.seconds(1 / maximumFrameRate)
        var lastGrab: ContinuousClock.Instant?  // the last attempt, taken or not
        var sentFirst = false
        var pending = true  // the first frame is the screen as it is
        while true {
            // Events xcb already read (while waiting for a reply) never make the fd readable
            // again: take everything it has before sleeping.
            while let event = xcb_poll_for_event(x.connection) {
                let type = showreel_xcb_event_type(event)
                if type == damageNotify || type == cursorNotify || pointerMoved(event) { pending = true }
                if type == configureNotify, x.resized(to: event) { pending = true }
                free(event)
            }
            if x.isBroken {
                sink.receive(.end(stopTime: now, reason: .deviceShutdown))
                return .connectionLost
            }
            // A stop waits for the first attempt: a recording that stops at once still has its frame.
            if stopRequested.load(ordering: .sequentiallyConsistent), lastGrab != nil {
                sink.receive(.end(stopTime: now, reason: .stopRequested))
                return .stopped
            }
            var timeout: Int32 = -1
            if pending {
                let due = lastGrab.map { $0 + interval } ?? .now
                if due <= .now {
                    // Cleared before the grab: damage during the grab is reported again.
                    xcb_damage_subtract(x.connection, damage, xcb_xfixes_region_t(XCB_NONE), xcb_xfixes_region_t(XCB_NONE))
                    lastGrab = .now
                    // A grab the server refused on a live connection (the screen resized under
                    // us) is tried again at the frame rate, never in a busy loop.
                    guard let frame = captureFrame() else { continue }
                    pending = false
                    sink.receive(.frame(frame))
                    if !sentFirst { sentFirst = true; onFirstFrame() }
                    continue
                }
                timeout = Int32(clamping: Int(((due - .now).seconds * 1000).rounded(.up)) + 1)
            }
            waitForEvents(timeout: timeout)
        }
    }

    /// One frame now: the screen with the pointer drawn, stamped on this source's clock; nil
    /// when the connection broke. What `run` does for each damage (and the benchmark times).
    package func captureFrame() -> Frame? {
        guard let pixels = image.grab() else { return nil }
        PointerImage.current(x)?.draw(on: pixels)
        captured.add(1, ordering: .relaxed)
        return Frame(pixels: pixels, presentationTime: now)
    }

    /// Sleeps until the server sends something, `stop()` is called, or `timeout` ms pass (-1: no limit).
    private func waitForEvents(timeout: Int32) {
        var fds = [
            pollfd(fd: x.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, timeout)
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 16)
            _ = read(wake.read, &drain, drain.count)
        }
    }
}
