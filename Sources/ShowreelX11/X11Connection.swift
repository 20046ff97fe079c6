import CXCB
import Foundation

/// A connection to an X server with the extensions capture needs checked: the root window of
/// its first screen, its size and pixel layout.
///
/// Not thread-safe on its own: one capture loop owns it.
final class X11Connection {
    let display: String
    let connection: OpaquePointer
    let root: xcb_window_t
    /// The screen's size, as last known (RandR may change it: see `resized` and `refreshSize`).
    private(set) var width: Int
    private(set) var height: Int
    /// The first event code of the DAMAGE extension (its Notify event is this plus 0).
    let damageFirstEvent: UInt8
    /// The first event code of the XFIXES extension (CursorNotify is this plus 1).
    let fixesFirstEvent: UInt8
    /// The X Input extension's major opcode, which its XI2 events (GenericEvents) carry; nil
    /// when the server has no XI 2.0: then the pointer's moves show with the next change only.
    let inputOpcode: UInt8?

    /// Connects to `display` (`:99`, `:99.0`) and checks for MIT-SHM, DAMAGE 1.1 and XFIXES 4.0.
    init(display: String) throws(X11Error) {
        self.display = display
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(display, &screenNumber) else { throw .cannotOpen(display: display) }
        guard xcb_connection_has_error(connection) == 0 else {
            xcb_disconnect(connection)
            throw .cannotOpen(display: display)
        }
        self.connection = connection
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(0, Int(screenNumber)) where screens.rem > 1 { xcb_screen_next(&screens) }
        guard let screen = screens.data?.pointee else {
            xcb_disconnect(connection)
            throw .cannotOpen(display: display)
        }
        root = screen.root
        width = Int(screen.width_in_pixels)
        height = Int(screen.height_in_pixels)
        do {
            try Self.checkPixelFormat(connection, depth: screen.root_depth, display: display)
            (damageFirstEvent, fixesFirstEvent) = try Self.checkExtensions(connection, display: display)
            inputOpcode = Self.inputTwo(connection)
        } catch {
            xcb_disconnect(connection)
            throw error
        }
    }

    deinit { xcb_disconnect(connection) }

    /// The connection's file descriptor, for poll(2): readable when events arrived.
    var fileDescriptor: Int32 { xcb_get_file_descriptor(connection) }

    /// Whether the server went away (xcb marks the connection broken for good).
    var isBroken: Bool { xcb_connection_has_error(connection) != 0 }

    func flush() { xcb_flush(connection) }

    /// Takes the root window's size from a ConfigureNotify event (the screen was resized);
    /// returns whether it changed.
    @discardableResult
    func resized(to event: UnsafeMutablePointer<xcb_generic_event_t>) -> Bool {
        let configure = UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_configure_notify_event_t.self).pointee
        guard configure.window == root else { return false }
        return adopt(width: Int(configure.width), height: Int(configure.height))
    }

    /// Asks the server for the root window's size (after a refused grab); returns whether it changed.
    @discardableResult
    func refreshSize() -> Bool {
        guard !isBroken, let geometry = xcb_get_geometry_reply(connection, xcb_get_geometry(connection, root), nil) else { return false }
        defer { free(geometry) }
        return adopt(width: Int(geometry.pointee.width), height: Int(geometry.pointee.height))
    }

    private func adopt(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, (width, height) != (self.width, self.height) else { return false }
        (self.width, self.height) = (width, height)
        return true
    }

    func generateID() -> UInt32 { xcb_generate_id(connection) }

    /// Frames are copied as BGRA: the root must be 32 bits a pixel (depth 24 is BGRX).
    private static func checkPixelFormat(_ connection: OpaquePointer, depth: UInt8, display: String) throws(X11Error) {
        let setup = xcb_get_setup(connection)
        var formats = xcb_setup_pixmap_formats_iterator(setup)
        while formats.rem > 0 {
            if let format = formats.data?.pointee, format.depth == depth {
                guard depth == 24 || depth == 32, format.bits_per_pixel == 32,
                    setup?.pointee.image_byte_order == UInt8(XCB_IMAGE_ORDER_LSB_FIRST.rawValue)
                else { throw .unsupportedFormat(display: display, depth: Int(depth), bitsPerPixel: Int(format.bits_per_pixel)) }
                return
            }
            xcb_format_next(&formats)
        }
        throw .unsupportedFormat(display: display, depth: Int(depth), bitsPerPixel: 0)
    }

    /// XI 2.0's opcode, when the server has it (the version query also tells the server this
    /// client speaks XI2, which it needs before XI2 selections).
    private static func inputTwo(_ connection: OpaquePointer) -> UInt8? {
        guard let input = showreel_input_extension(connection), input.pointee.present != 0 else { return nil }
        let version = xcb_input_xi_query_version_reply(connection, xcb_input_xi_query_version(connection, 2, 0), nil)
        defer { free(version) }
        guard let version, version.pointee.major_version >= 2 else { return nil }
        return input.pointee.major_opcode
    }

    /// Asks all three version queries at once (one round trip), then checks the answers.
    /// Returns DAMAGE's and XFIXES' first event codes.
    private static func checkExtensions(_ connection: OpaquePointer, display: String) throws(X11Error) -> (UInt8, UInt8) {
        func present(_ reply: UnsafePointer<xcb_query_extension_reply_t>?) -> xcb_query_extension_reply_t? {
            guard let reply, reply.pointee.present != 0 else { return nil }
            return reply.pointee
        }
        guard present(showreel_shm_extension(connection)) != nil else {
            throw .missingExtension(display: display, name: "MIT-SHM", needed: "")
        }
        guard let damage = present(showreel_damage_extension(connection)) else {
            throw .missingExtension(display: display, name: "DAMAGE", needed: "1.1")
        }
        guard let fixesExtension = present(showreel_xfixes_extension(connection)) else {
            throw .missingExtension(display: display, name: "XFIXES", needed: "4.0")
        }
        // The version queries also tell the server which version this client speaks: DAMAGE and
        // XFIXES refuse requests from a client that has not asked.
        let shmCookie = xcb_shm_query_version(connection)
        let damageCookie = xcb_damage_query_version(connection, 1, 1)
        let fixesCookie = xcb_xfixes_query_version(connection, 4, 0)
        let shm = xcb_shm_query_version_reply(connection, shmCookie, nil)
        let damageVersion = xcb_damage_query_version_reply(connection, damageCookie, nil)
        let fixes = xcb_xfixes_query_version_reply(connection, fixesCookie, nil)
        defer { free(shm); free(damageVersion); free(fixes) }
        guard shm != nil else { throw .missingExtension(display: display, name: "MIT-SHM", needed: "") }
        guard let damageVersion, (damageVersion.pointee.major_version, damageVersion.pointee.minor_version) >= (1, 1) else {
            throw .missingExtension(display: display, name: "DAMAGE", needed: "1.1")
        }
        guard let fixes, fixes.pointee.major_version >= 4 else {
            throw .missingExtension(display: display, name: "XFIXES", needed: "4.0")
        }
        return (damage.first_event, fixesExtension.first_event)
    }
}
