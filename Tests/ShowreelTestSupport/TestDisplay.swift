import CXCB
import Foundation
import ShowreelGraphics
import ShowreelX11

/// A test's own Xvfb, stopped when the test lets go of it.
public final class TestDisplay: @unchecked Sendable {
    public let server: XvfbServer
    public var name: String { server.display }

    public init(width: Int = 320, height: Int = 240) throws {
        server = try XvfbServer.start(width: width, height: height)
    }

    deinit { server.stop() }

    /// Fills the whole screen with one colour (an X client drawing on the root window: damage).
    public func fill(red: UInt8, green: UInt8, blue: UInt8) throws {
        try draw { connection, root, context, width, height in
            var values: [UInt32] = [UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)]
            xcb_change_gc(connection, context, XCB_GC_FOREGROUND.rawValue, &values)
            var rectangle = xcb_rectangle_t(x: 0, y: 0, width: width, height: height)
            xcb_poly_fill_rectangle(connection, root, context, 1, &rectangle)
        }
    }

    /// Covers the screen with small squares of random colours: frames that compress badly.
    public func scribble() throws {
        try draw { connection, root, context, width, height in
            for _ in 0..<2000 {
                var values: [UInt32] = [UInt32.random(in: 0...0xFF_FFFF)]
                xcb_change_gc(connection, context, XCB_GC_FOREGROUND.rawValue, &values)
                var rectangle = xcb_rectangle_t(
                    x: Int16.random(in: 0..<Int16(width)), y: Int16.random(in: 0..<Int16(height)),
                    width: 6, height: 6)
                xcb_poly_fill_rectangle(connection, root, context, 1, &rectangle)
            }
        }
    }

    /// Moves the pointer to (`x`, `y`), as a warp does (no pixel of the screen changes).
    public func movePointer(x: Int16, y: Int16) throws {
        try draw { connection, root, _, _, _ in
            xcb_warp_pointer(connection, xcb_window_t(XCB_NONE), root, 0, 0, 0, 0, x, y)
        }
    }

    /// Connects, hands `body` a graphics context on the root window, and returns once the
    /// server has done what it drew.
    private func draw(_ body: (OpaquePointer, xcb_window_t, xcb_gcontext_t, UInt16, UInt16) -> Void) throws {
        guard let connection = xcb_connect(name, nil), xcb_connection_has_error(connection) == 0 else {
            throw TestFailure("cannot connect to \(name) to draw")
        }
        defer { xcb_disconnect(connection) }
        guard let screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data?.pointee else {
            throw TestFailure("\(name) has no screen")
        }
        let context = xcb_generate_id(connection)
        xcb_create_gc(connection, context, screen.root, 0, nil)
        body(connection, screen.root, context, screen.width_in_pixels, screen.height_in_pixels)
        xcb_free_gc(connection, context)
        // A round trip: the drawing is done when this returns.
        free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil))
    }
}

/// Whether a decoded or captured pixel is near a colour (video compression shifts it a little).
public func pixel(_ buffer: PixelBuffer, isNear red: Int, _ green: Int, _ blue: Int, x: Int? = nil, y: Int? = nil) -> Bool {
    let pixel = buffer.pixel(x: x ?? buffer.width / 2, y: y ?? buffer.height / 2)
    return abs(Int(pixel.red) - red) < 24 && abs(Int(pixel.green) - green) < 24 && abs(Int(pixel.blue) - blue) < 24
}
