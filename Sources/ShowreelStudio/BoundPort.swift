import Synchronization

/// The port the server listens on, known once it is bound (`--port 0` picks one): the guard
/// accepts only a `Host` that names it.
final class BoundPort: Sendable {
    private let port = Mutex<Int?>(nil)
    var value: Int? { port.withLock { $0 } }
    func set(_ value: Int) { port.withLock { $0 = value } }
}
