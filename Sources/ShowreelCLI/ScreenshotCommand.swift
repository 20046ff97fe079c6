import ArgumentParser
import Foundation
import ShowreelRecorder
import ShowreelRender
import ShowreelWire

/// `showreel io <device> screenshot`: the current screen as PNG or JPEG, like simctl's.
struct ScreenshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot",
        abstract: "Save the device's current screen as an image.",
        usage: "showreel io <udid|booted> screenshot [--type=png|jpeg] [--mask=ignored|alpha|black] <file|->")

    var device = "booted"

    @Option(help: "Image type: png or jpeg (default: from the file's extension, else png).")
    var type: String?

    @Option(help: "How to treat pixels outside the screen shape: ignored, alpha, black.")
    var mask: MaskPolicy = .ignored

    @Argument(help: "The output file, or - for standard output.")
    var file: String

    func run() async throws {
        try await reportingFailures { try capture() }
    }

    private func capture() throws {
        let format = try imageFormat()
        let source = try openFrameSource(device)
        defer { source.close() }
        guard let pixels = try source.currentScreen() else {
            throw CLIFailure(message: "\(source.name) sent no screen.", exitCode: CLIFailure.Code.streamFailed)
        }
        if mask != .ignored, !(source is X11Source) {
            // PNG keeps alpha: `alpha` clears the outside; black paints it.
            ScreenMask(profile: source.info.profile).apply(to: pixels, transparent: mask == .alpha && format == .png)
        }
        let bytes: [UInt8]
        do { bytes = try ImageEncoder.encode(pixels, as: format) } catch {
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.writeFailed)
        }
        if file == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do { try Data(bytes).writeReplacing(URL(fileURLWithPath: file)) } catch {
            throw CLIFailure(message: "Cannot write \(file): \(ErrorSentence.describe(error))", exitCode: CLIFailure.Code.unwritable)
        }
        Console.status("Wrote \(file)")
    }

    private func imageFormat() throws -> ImageFormat {
        let name = type ?? (file == "-" ? "png" : URL(fileURLWithPath: file).pathExtension.lowercased())
        switch name {
        case "png": return .png
        case "jpeg", "jpg": return .jpeg
        case "": return .png
        default:
            throw CLIFailure(message: "Unsupported image type '\(name)'. Use png or jpeg.", exitCode: CLIFailure.Code.usage)
        }
    }
}
