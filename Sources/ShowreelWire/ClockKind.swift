/// Which clock a device keeps: said by the device on its display stream, in the registry and
/// in the automation API, and read by recorders (a virtual clock can wait for them).
public enum ClockKind: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Wall time: for watching a device interactively.
    case real
    /// Time moves only when the automation waits: same run, same frames, and a minute of
    /// video is produced in a fraction of a minute.
    case virtual

    public var description: String { rawValue }

    /// Whether frames are waited for rather than dropped when a consumer (a recorder, its
    /// encoder) falls behind. The one place this rule is decided: a virtual clock can stop
    /// while a recorder catches up, and must, since the same run has to give the same video;
    /// wall time cannot stop, so a real-clock consumer loses intermediate frames instead.
    public var waitsForSlowConsumers: Bool { self == .virtual }
}
