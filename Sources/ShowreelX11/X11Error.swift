/// Why an X display could not be captured, worded with what to do instead.
package enum X11Error: Error, CustomStringConvertible, Equatable, Sendable {
    /// No X server answers at that display name.
    case cannotOpen(display: String)
    /// The server lacks an extension the capture needs (or has it in too old a version).
    case missingExtension(display: String, name: String, needed: String)
    /// The root window is not 24 or 32 bits deep, 32 bits per pixel: not BGRA in memory.
    case unsupportedFormat(display: String, depth: Int, bitsPerPixel: Int)
    /// A shared-memory segment could not be made or attached (shmget/shmat or the server's attach).
    case sharedMemory(display: String, detail: String)
    /// The process is out of a resource it needs to wait for the display (a pipe).
    case resources(display: String, detail: String)

    package var description: String {
        switch self {
        case let .cannotOpen(display):
            return "Cannot open X display \(display): no X server answers there, or it refused this client. "
                + "Start one with `showreel display start` (Xvfb), or check DISPLAY, the display number and XAUTHORITY."
        case let .missingExtension(display, name, needed):
            return "X display \(display) lacks the \(name) extension \(needed), which recording needs. "
                + "Xvfb and Xorg have it; use one of them."
        case let .unsupportedFormat(display, depth, bitsPerPixel):
            return "X display \(display) is \(depth) bits deep at \(bitsPerPixel) bits per pixel; "
                + "recording needs depth 24 or 32 at 32 bits per pixel (e.g. Xvfb -screen 0 1280x800x24)."
        case let .sharedMemory(display, detail):
            return "Cannot share memory with X display \(display) (\(detail)). The recorder must run on the "
                + "display's machine, with System V shared memory available (in Docker, not --ipc=none)."
        case let .resources(display, detail):
            return "Cannot wait for X display \(display): \(detail)."
        }
    }
}
