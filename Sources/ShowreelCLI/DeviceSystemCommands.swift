import ArgumentParser
import Foundation
import ShowreelGraphics
import ShowreelTesting
import ShowreelWire

/// The device verbs simctl has for a device's state from outside, named and shaped as
/// simctl's: `pbcopy`, `pbpaste`, `openurl`.
extension DeviceCommand {
    static let systemCommands: [any ParsableCommand.Type] = [
        Pbcopy.self, Pbpaste.self, OpenURL.self, Privacy.self, Location.self, Push.self, Airplane.self, AddMedia.self,
    ]

    /// `showreel device pbcopy booted < file`, as `xcrun simctl pbcopy booted`.
    struct Pbcopy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pbcopy", abstract: "Put standard input on a device's pasteboard, like `simctl pbcopy`.",
            usage: "echo hello | showreel device pbcopy <device>")

        @Argument(help: "udid, name, or `booted`.")
        var device: String

        func run() async throws {
            try await reportingFailures {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                guard let text = String(data: data, encoding: .utf8) else {
                    throw CLIFailure(
                        message: "Standard input is not UTF-8 text: the pasteboard holds text.", exitCode: CLIFailure.Code.usage)
                }
                guard text.count <= AutomationLimits.maxPasteboardLength else {
                    throw CLIFailure(
                        message:
                            "Standard input has \(text.count) characters; the pasteboard takes at most \(AutomationLimits.maxPasteboardLength).",
                        exitCode: CLIFailure.Code.usage)
                }
                _ = try await automation(device) { try await $0.perform(.setPasteboard(text)) }
            }
        }
    }

    /// `showreel device pbpaste booted`, as `xcrun simctl pbpaste booted`: the text as it is, no newline added.
    struct Pbpaste: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pbpaste", abstract: "Print a device's pasteboard, like `simctl pbpaste`.")

        @Argument(help: "udid, name, or `booted`.")
        var device: String

        func run() async throws {
            try await reportingFailures {
                let text = try await automation(device) { try await $0.pasteboard() }
                Console.write(text)
            }
        }
    }

    /// `showreel device openurl booted countries://country/CA`, as `xcrun simctl openurl`.
    struct OpenURL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openurl", abstract: "Open a URL in the app that declares its scheme, like `simctl openurl`.",
            usage: "showreel device openurl <device> countries://country/CA")

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "The URL, e.g. countries://country/CA.")
        var url: String

        func run() async throws {
            try await reportingFailures {
                guard URLScheme.of(url) != nil else {
                    throw CLIFailure(
                        message: "'\(url)' is not a URL with a scheme, such as countries://country/CA.", exitCode: CLIFailure.Code.usage)
                }
                let status = try await automation(device) { try await $0.performForApp(.openURL(url)) }
                Console.out("\(status.bundleIdentifier): \(status.state.rawValue)")
            }
        }
    }
}

extension DeviceCommand {
    /// `showreel device privacy booted grant location dev.showreel.places`, as `xcrun simctl privacy`.
    struct Privacy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "privacy", abstract: "Grant, revoke or reset an app's permission for a service, like `simctl privacy`.",
            usage: "showreel device privacy <device> grant|revoke|reset <service> [<bundle id>]",
            discussion: "Services: \(PrivacyService.namesWithAll.joined(separator: ", ")). Reset without a bundle id resets every app.")

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "grant, revoke or reset.")
        var action: String
        @Argument(help: "A service (location, photos, contacts, ...) or `all`.")
        var service: String
        @Argument(help: "The app's bundle identifier (needed for grant and revoke).")
        var bundleIdentifier: String?

        func run() async throws {
            try await reportingFailures {
                let change: PermissionChange
                do {
                    change = try PermissionChange(action: action, service: service, bundleIdentifier: bundleIdentifier)
                } catch {
                    throw CLIFailure(message: "privacy: \(error)", exitCode: CLIFailure.Code.usage)
                }
                _ = try await automation(device) { try await $0.perform(.setPermission(change)) }
            }
        }
    }
}

extension DeviceCommand {
    /// `showreel device location booted set 43.6532,-79.3832`, as `xcrun simctl location`.
    struct Location: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "location", abstract: "Set, clear or move a device's simulated location, like `simctl location`.",
            usage: """
                showreel device location <device> set <lat>,<lon>
                showreel device location <device> clear
                showreel device location <device> start [--speed <m/s>] <lat>,<lon> <lat>,<lon> ...
                """,
            discussion:
                "start moves the location along the waypoints at the speed (default 20 m/s) on the device clock, reported once a second.")

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "set, clear or start.")
        var action: String
        @Argument(help: "Places as <lat>,<lon>: one for set, the waypoints for start.")
        var places: [String] = []
        @Option(help: "Metres per second along a route (start).")
        var speed = 20.0

        func run() async throws {
            try await reportingFailures {
                let action = try self.deviceAction()
                _ = try await automation(device) { try await $0.perform(action) }
            }
        }

        func deviceAction() throws -> DeviceAction {
            let coordinates = try places.map { text in
                guard let coordinate = Coordinate(parsing: text) else {
                    throw CLIFailure(
                        message: "'\(text)' is not a place: write <latitude>,<longitude> in degrees, e.g. 43.6532,-79.3832.",
                        exitCode: CLIFailure.Code.usage)
                }
                return coordinate
            }
            switch (action, coordinates.count) {
            case ("set", 1): return .setLocation(coordinates[0])
            case ("clear", 0): return .setLocation(nil)
            case ("start", 1...):
                let route = LocationRoute(waypoints: coordinates, speed: speed)
                guard speed.isFinite, speed > 0, speed <= AutomationLimits.maxSpeed else {
                    throw CLIFailure(
                        message: "--speed must be more than 0 and at most \(Int(AutomationLimits.maxSpeed)) m/s, got \(speed).",
                        exitCode: CLIFailure.Code.usage)
                }
                return .travel(route)
            case ("set", _), ("clear", _), ("start", _):
                throw CLIFailure(
                    message:
                        "location \(action) takes \(action == "set" ? "one place" : action == "clear" ? "no places" : "one or more waypoints"), got \(coordinates.count).",
                    exitCode: CLIFailure.Code.usage)
            default:
                throw CLIFailure(message: "Unknown location action '\(action)'. Use set, clear or start.", exitCode: CLIFailure.Code.usage)
            }
        }
    }
}

extension DeviceCommand {
    /// `showreel device push booted dev.showreel.mail payload.json`, as `xcrun simctl push`.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push", abstract: "Deliver a push notification to an app, like `simctl push`.",
            usage: "showreel device push <device> [<bundle id>] <payload.json | ->",
            discussion: """
                The payload is simctl's: {"aps": {"alert": {"title": "...", "body": "..."}, "badge": 1}}; `-` reads it from \
                standard input. Without a bundle id, the payload's "Simulator Target Bundle" names the app.
                """)

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "[<bundle id>] <payload.json | ->")
        var rest: [String] = []

        func run() async throws {
            try await reportingFailures {
                guard (1...2).contains(rest.count) else {
                    throw CLIFailure(
                        message: "push takes [<bundle id>] and a payload file (or - for standard input).", exitCode: CLIFailure.Code.usage)
                }
                let file = rest.last!
                let data: Data
                do {
                    data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    throw CLIFailure(
                        message: "Cannot read the payload \(file): \(ErrorSentence.describe(error))", exitCode: CLIFailure.Code.usage)
                }
                let payload: PushPayload
                do { payload = try JSONDecoder().decode(PushPayload.self, from: data) } catch {
                    throw CLIFailure(
                        message:
                            "The payload \(file) is not a push payload ({\"aps\": {\"alert\": ...}}): \(describeDecodingError(error)).",
                        exitCode: CLIFailure.Code.usage)
                }
                guard let bundle = rest.count == 2 ? rest[0] : payload.targetBundle else {
                    throw CLIFailure(
                        message: "Name the app: push <device> <bundle id> \(file), or put \"Simulator Target Bundle\" in the payload.",
                        exitCode: CLIFailure.Code.usage)
                }
                _ = try await automation(device) { try await $0.perform(.push(payload, to: bundle)) }
            }
        }
    }
}

extension DeviceCommand {
    /// `showreel device airplane booted on`: airplane mode (simctl has no verb for it; a
    /// simulator takes the Mac's network).
    struct Airplane: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "airplane",
            abstract: "Turn a device's airplane mode on or off: no network for apps, an airplane in the status bar.",
            usage: "showreel device airplane <device> on|off")

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "on or off.")
        var state: String

        func run() async throws {
            try await reportingFailures {
                guard let on = ["on": true, "off": false][state] else {
                    throw CLIFailure(message: "Unknown airplane mode '\(state)'. Use on or off.", exitCode: CLIFailure.Code.usage)
                }
                _ = try await automation(device) { try await $0.perform(.setAirplaneMode(on)) }
            }
        }
    }
}

extension DeviceCommand {
    /// `showreel device addmedia booted cat.png clip.mov`, as `xcrun simctl addmedia`.
    struct AddMedia: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "addmedia",
            abstract: "Add pictures (PNG, JPEG) and videos (MOV, MP4) to a device's photo library, where apps pick them.",
            usage: "showreel device addmedia <device> FILE...")

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "The pictures and videos, in the order they are added (the last shows first).")
        var files: [String] = []

        func run() async throws {
            try await reportingFailures {
                guard !files.isEmpty else {
                    throw CLIFailure(
                        message: "Name the pictures or videos to add: showreel device addmedia <device> FILE...",
                        exitCode: CLIFailure.Code.usage)
                }
                // Every file is read before any is added: a typo adds nothing.
                let media = try files.map { path in
                    let url = URL(fileURLWithPath: path)
                    guard let data = FileManager.default.contents(atPath: url.path) else {
                        throw CLIFailure(message: "No file at \(path).", exitCode: CLIFailure.Code.usage)
                    }
                    let file = MediaFile(name: url.lastPathComponent, data: data)
                    guard file.isVideo != nil else {
                        throw CLIFailure(
                            message: "\(path) is not \(MediaFile.takenKinds).",
                            exitCode: CLIFailure.Code.usage)
                    }
                    return file
                }
                _ = try await automation(device) { client in
                    for file in media { _ = try await client.perform(.addMedia(file)) }
                }
            }
        }
    }
}

extension Console {
    /// Text on stdout exactly as given (`pbpaste` adds no newline, as simctl's does not).
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
