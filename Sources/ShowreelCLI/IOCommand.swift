import ArgumentParser
import ShowreelWire

/// `showreel io <device> <operation> [options]`, shaped like `xcrun simctl io`.
struct IOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "io",
        abstract: "Record a video or take a screenshot of a device's screen or an X display.",
        usage: """
            showreel io <udid|booted|:display> recordVideo [--codec=h264|hevc] [--mask=ignored|alpha|black] [--force] <file.mov|file.mp4>
            showreel io <udid|booted|:display> screenshot [--type=png|jpeg] [--mask=ignored|alpha|black] <file|->
            """,
        discussion: "Run `showreel io booted recordVideo --help` for the recording options."
    )

    @Argument(help: "The device: its udid, its name, `booted` for the one booted device, or an X display such as :99.")
    var device: String

    @Argument(help: "recordVideo or screenshot.")
    var operation: String

    @Argument(parsing: .captureForPassthrough, help: "The operation's options and output file.")
    var arguments: [String] = []

    func run() async throws {
        switch operation {
        case "recordVideo":
            // Help and usage errors are the operation's own, not the root command's.
            var command: RecordVideoCommand
            do { command = try RecordVideoCommand.parse(arguments) } catch { RecordVideoCommand.exit(withError: error) }
            command.device = device
            try await command.run()
        case "screenshot":
            var command: ScreenshotCommand
            do { command = try ScreenshotCommand.parse(arguments) } catch { ScreenshotCommand.exit(withError: error) }
            command.device = device
            try await command.run()
        default:
            throw ValidationError("Unknown io operation '\(operation)'. Use recordVideo or screenshot.")
        }
    }
}

/// Finds the device a command names, or fails with the registry's explanation.
func resolveDevice(_ name: String) throws -> DeviceRecord {
    do {
        return try DeviceRegistry().resolve(name)
    } catch {
        throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.deviceNotFound)
    }
}
