import Foundation
import ShowreelGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device as the registry records it: `$SHOWREEL_HOME/devices/<udid>/device.json`.
public struct DeviceRecord: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable {
        case booted = "Booted"
        case shutdown = "Shutdown"
    }

    public var udid: String
    public var name: String
    public var profile: String
    public var state: State
    public var clock: ClockKind
    /// The process hosting the device, and when it started (so a reused pid is not trusted).
    public var pid: Int32
    public var processStartTime: UInt64?
    public var displaySocket: String
    public var automationURL: String?
    public var bootedAt: Date
    /// For an X display (`showreel display start`): its name as `DISPLAY` writes it (`:99`).
    /// Recorders capture it directly; `pid` is its X server and there is no display socket.
    public var x11Display: String?
    /// The bundle identifiers of the apps the device installed (absent for an X display, and
    /// in records written before devices said).
    public var installedApps: [String]?

    public init(
        udid: String, name: String, profile: String, state: State, clock: ClockKind, pid: Int32,
        processStartTime: UInt64?, displaySocket: String, automationURL: String?, bootedAt: Date,
        x11Display: String? = nil, installedApps: [String]? = nil
    ) {
        self.udid = udid; self.name = name; self.profile = profile; self.state = state; self.clock = clock
        self.pid = pid; self.processStartTime = processStartTime; self.displaySocket = displaySocket
        self.automationURL = automationURL; self.bootedAt = bootedAt; self.x11Display = x11Display
        self.installedApps = installedApps
    }
}

/// Why a device name did not resolve, worded with what to do instead.
public enum DeviceLookupError: Error, CustomStringConvertible, Equatable, Sendable {
    case noBootedDevice(registry: String)
    case severalBooted([String])
    /// Several devices have the name given (shut down ones count only when none is booted).
    case ambiguous(String, [String])
    case unknownDevice(String, registry: String)
    case notBooted(String)

    public var description: String {
        switch self {
        case let .noBootedDevice(registry):
            return "No booted device (registry: \(registry)). Boot one with `showreel device boot`, "
                + "or run `showreel demo`, which boots one in-process."
        case let .severalBooted(devices):
            return "Several devices are booted (\(devices.joined(separator: ", "))): name one by its udid instead of 'booted'."
        case let .ambiguous(name, devices):
            return "Several devices are named '\(name)' (\(devices.joined(separator: ", "))): name one by its udid instead."
        case let .unknownDevice(name, registry):
            return "No device '\(name)' in \(registry). `showreel device list` shows the devices."
        case let .notBooted(name):
            return "Device \(name) is not booted. Boot it with `showreel device boot`."
        }
    }
}

/// The folder through which processes find devices, like simctl's device set.
public struct DeviceRegistry: Sendable {
    public let home: URL

    public init(home: URL = DeviceRegistry.defaultHome()) { self.home = home }

    /// `$SHOWREEL_HOME`, or `~/.showreel`.
    public static func defaultHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["SHOWREEL_HOME"], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".showreel", isDirectory: true)
    }

    public var devicesDirectory: URL { home.appendingPathComponent("devices", isDirectory: true) }

    public func directory(for udid: String) -> URL { devicesDirectory.appendingPathComponent(udid, isDirectory: true) }

    /// Writes the record atomically, so a reader never sees half a file.
    public func save(_ record: DeviceRecord) throws {
        let folder = directory(for: record.udid)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(record).writeReplacing(folder.appendingPathComponent("device.json"))
    }

    /// Every device in the registry. A record that claims to be booted by a process that no
    /// longer exists (a crashed device) is marked shut down on disk and reported as such; an X
    /// display whose server is gone (killed, or its machine restarted) is removed: nothing can
    /// boot it again, and a new display on its number would share its name.
    public func records() -> [DeviceRecord] {
        guard let entries = try? FileManager.default.contentsOfDirectory(at: devicesDirectory, includingPropertiesForKeys: nil) else {
            return []
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return entries.compactMap { folder -> DeviceRecord? in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent("device.json")),
                var record = try? decoder.decode(DeviceRecord.self, from: data)
            else { return nil }
            if record.state == .booted, !Self.isAlive(pid: record.pid, startTime: record.processStartTime) {
                // An X display has no socket of ours: its server's may belong to a new one by now.
                if record.x11Display != nil {
                    remove(udid: record.udid)
                    return nil
                }
                record.state = .shutdown
                unlink(record.displaySocket)
                try? save(record)
            }
            return record
        }.sorted { $0.bootedAt < $1.bootedAt }
    }

    /// Resolves a udid, a unique name, or `booted` (exactly one booted device).
    public func resolve(_ name: String) throws(DeviceLookupError) -> DeviceRecord {
        let all = records()
        if name == "booted" {
            let booted = all.filter { $0.state == .booted }
            guard !booted.isEmpty else { throw .noBootedDevice(registry: devicesDirectory.path) }
            guard booted.count == 1 else { throw .severalBooted(booted.map { "\($0.name) (\($0.udid))" }) }
            return booted[0]
        }
        var matches = all.filter { $0.udid.caseInsensitiveCompare(name) == .orderedSame || $0.name == name }
        // A name shared with devices that are shut down means the booted one.
        if matches.count > 1, matches.contains(where: { $0.state == .booted }) { matches.removeAll { $0.state != .booted } }
        guard let record = matches.first else { throw .unknownDevice(name, registry: devicesDirectory.path) }
        guard matches.count == 1 else { throw .ambiguous(name, matches.map { "\($0.name) (\($0.udid))" }) }
        guard record.state == .booted else { throw .notBooted("\(record.name) (\(record.udid))") }
        return record
    }

    public func remove(udid: String) {
        try? FileManager.default.removeItem(at: directory(for: udid))
    }

    /// Whether `pid` is running and is the same process that wrote the record. A zombie (an
    /// exited process whose parent has not reaped it: in a container, an orphan's init may
    /// never) is not running.
    public static func isAlive(pid: Int32, startTime: UInt64?) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = ProcessStat.read(pid) else { return true }  // no /proc to ask
        return !stat.hasExited && (startTime.map { $0 == stat.startTicks } ?? true)
    }
}
