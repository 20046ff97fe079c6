import ArgumentParser
import Foundation
import ShowreelGraphics
import ShowreelTesting
import ShowreelWire

/// The device verbs simctl has for a device's state from outside, named and shaped as
/// simctl's: `pbcopy`, `pbpaste`, `openurl`.
extension DeviceCommand {
    static let systemCommands: [any ParsableCommand.Type] = [Pbcopy.self, Pbpaste.self, OpenURL.self, Privacy.self]

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

extension Console {
    /// Text on stdout exactly as given (`pbpaste` adds no newline, as simctl's does not).
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
