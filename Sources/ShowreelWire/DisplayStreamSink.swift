/// Takes a display stream's events in order: a recorder in the device's own process (tests,
/// flows), where frames need not cross a socket. Over a socket, `DisplayStreamClient` reads the
/// same events for a recorder in another process.
///
/// `receive` is called on the thread that publishes the frame. A sink on a virtual-clock device
/// may block there until it has room: device time waits for it, so nothing is dropped.
package protocol DisplayStreamSink: AnyObject, Sendable {
    func receive(_ event: DisplayStreamEvent)
}
