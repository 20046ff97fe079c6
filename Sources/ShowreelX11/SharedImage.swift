import CXCB
import ShowreelGraphics

#if canImport(Glibc)
import Glibc
#endif

/// The root window's pixels through MIT-SHM: the server writes the whole screen into a segment
/// both processes map (no pixels cross the socket), and each grab copies it into a new frame
/// buffer (frames outlive the grab: the recorder's queue holds them). When the screen's size
/// changes (RandR: `xrandr --fb 1920x1080`), the next grab attaches a segment of the new size
/// and its frames have that size (a recorder scales them to its video's).
final class SharedImage {
    private let x: X11Connection
    private var segment: xcb_shm_seg_t = 0
    private var memory: UnsafeMutableRawPointer?
    /// The size the segment holds.
    private var width = 0, height = 0

    init(_ connection: X11Connection) throws(X11Error) {
        x = connection
        try attach(width: connection.width, height: connection.height)
    }

    deinit { detach() }

    private func attach(width: Int, height: Int) throws(X11Error) {
        let byteCount = width * height * 4
        let id = showreel_shm_create(byteCount)
        guard id >= 0 else { throw .sharedMemory(display: x.display, detail: "shmget of \(byteCount) bytes failed") }
        guard let memory = showreel_shm_attach(id) else {
            showreel_shm_remove(id)
            throw .sharedMemory(display: x.display, detail: "shmat failed")
        }
        let segment = x.generateID()
        let cookie = xcb_shm_attach_checked(x.connection, segment, UInt32(id), 0)
        let error = xcb_request_check(x.connection, cookie)
        // Removed now, it lives until both sides detach: nothing leaks when either is killed.
        showreel_shm_remove(id)
        if let error {
            free(error)
            shmdt(memory)
            throw .sharedMemory(display: x.display, detail: "the X server could not attach the segment (is it on another machine?)")
        }
        (self.memory, self.segment, self.width, self.height) = (memory, segment, width, height)
    }

    private func detach() {
        guard let memory else { return }
        if !x.isBroken { xcb_shm_detach(x.connection, segment); x.flush() }
        shmdt(memory)
        self.memory = nil
    }

    /// The screen now, as an opaque BGRA frame buffer; nil when the connection broke, or the
    /// server refused the grab (the screen was resized since its size was last known: the
    /// connection learns the new one, and the next grab takes it).
    func grab() -> PixelBuffer? {
        if (width, height) != (x.width, x.height) {
            detach()
            do { try attach(width: x.width, height: x.height) } catch { return nil }
        }
        guard let memory else { return nil }
        let cookie = xcb_shm_get_image(
            x.connection, x.root, 0, 0, UInt16(width), UInt16(height), ~0,
            UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), segment, 0)
        guard let reply = xcb_shm_get_image_reply(x.connection, cookie, nil) else {
            x.refreshSize()
            return nil
        }
        free(reply)
        let pixels = PixelBuffer(width: width, height: height, zeroed: false)
        pixels.withUnsafeMutableBytes { destination in
            Self.copyOpaque(from: UnsafeRawPointer(memory), to: destination.baseAddress!, count: width * height)
        }
        return pixels
    }

    /// Copies BGRX pixels as BGRA with alpha 255: depth 24 leaves the fourth byte undefined
    /// (Xvfb writes 0, which a PNG would show as transparent). One pass, vectorised.
    static func copyOpaque(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        let from = source.assumingMemoryBound(to: UInt32.self)
        let to = destination.assumingMemoryBound(to: UInt32.self)
        for index in 0..<count { to[index] = from[index] | 0xFF00_0000 }
    }
}
