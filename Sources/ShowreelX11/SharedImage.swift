import CXCB
import ShowreelGraphics

#if canImport(Glibc)
import Glibc
#endif

/// The root window's pixels through MIT-SHM: the server writes the whole screen into a segment
/// both processes map (no pixels cross the socket), and each grab copies it into a new frame
/// buffer (frames outlive the grab: the recorder's queue holds them).
final class SharedImage {
    private let x: X11Connection
    private let segment: xcb_shm_seg_t
    private let memory: UnsafeMutableRawPointer
    private let byteCount: Int

    init(_ connection: X11Connection) throws(X11Error) {
        x = connection
        byteCount = connection.width * connection.height * 4
        let id = showreel_shm_create(byteCount)
        guard id >= 0 else { throw .sharedMemory(display: connection.display, detail: "shmget of \(byteCount) bytes failed") }
        guard let memory = showreel_shm_attach(id) else {
            showreel_shm_remove(id)
            throw .sharedMemory(display: connection.display, detail: "shmat failed")
        }
        self.memory = memory
        segment = connection.generateID()
        let cookie = xcb_shm_attach_checked(connection.connection, segment, UInt32(id), 0)
        let error = xcb_request_check(connection.connection, cookie)
        // Removed now, it lives until both sides detach: nothing leaks when either is killed.
        showreel_shm_remove(id)
        if let error {
            free(error)
            shmdt(memory)
            throw .sharedMemory(
                display: connection.display, detail: "the X server could not attach the segment (is it on another machine?)")
        }
    }

    deinit {
        if !x.isBroken { xcb_shm_detach(x.connection, segment); x.flush() }
        shmdt(memory)
    }

    /// The screen now, as an opaque BGRA frame buffer; nil when the connection broke.
    func grab() -> PixelBuffer? {
        let cookie = xcb_shm_get_image(
            x.connection, x.root, 0, 0, UInt16(x.width), UInt16(x.height), ~0,
            UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), segment, 0)
        guard let reply = xcb_shm_get_image_reply(x.connection, cookie, nil) else { return nil }
        free(reply)
        let pixels = PixelBuffer(width: x.width, height: x.height, zeroed: false)
        pixels.withUnsafeMutableBytes { destination in
            Self.copyOpaque(from: UnsafeRawPointer(memory), to: destination.baseAddress!, count: x.width * x.height)
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
