/// Which clock a device keeps: said by the device on its display stream, in the registry and
/// in the automation API, and read by recorders (a virtual clock can wait for them).
public enum ClockKind: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Wall time: for watching a device interactively.
    case real
    /// Time moves only when the automation waits: same run, same frames, and a minute of
    /// video is produced in a fraction of a minute.
    case virtual

    public var description: String { rawValue }
}
