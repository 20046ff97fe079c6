import Foundation

/// The ffmpeg command-line tools, for cross-checks of what the recorder wrote.
public let ffprobePath = "/usr/bin/ffprobe"
public let ffmpegPath = "/usr/bin/ffmpeg"
public let haveFFmpegTools =
    FileManager.default.isExecutableFile(atPath: ffprobePath)
    && FileManager.default.isExecutableFile(atPath: ffmpegPath)

/// Runs a program and returns its standard output (standard error is discarded). The child is
/// waited for on a thread of its own, never on Swift's cooperative pool.
public func runTool(_ program: String, _ arguments: [String]) async throws -> Data {
    try await offPool { try runToolBlocking(program, arguments) }
}

private func runToolBlocking(_ program: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
}

public struct FFprobeReport: Decodable {
    public struct Stream: Decodable {
        public var codec_name: String?
        public var width: Int?
        public var height: Int?
        public var nb_read_frames: String?
    }
    public struct Format: Decodable {
        public var duration: String?
    }
    public var streams: [Stream]
    public var format: Format?

    public var frames: Int? { streams.first?.nb_read_frames.flatMap { Int($0) } }
    public var duration: Double? { format?.duration.flatMap { Double($0) } }
}

public func ffprobe(_ url: URL) async throws -> FFprobeReport {
    let data = try await runTool(
        ffprobePath,
        [
            "-v", "error", "-select_streams", "v:0",
            "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-count_frames",
            "-show_entries", "format=duration", "-of", "json", url.path,
        ])
    return try JSONDecoder().decode(FFprobeReport.self, from: data)
}

/// ffprobe's duration of each video packet in seconds (nil where it reports none).
public func ffprobePacketDurations(_ url: URL) async throws -> [Double?] {
    let data = try await runTool(
        ffprobePath,
        [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration_time", "-of", "csv=p=0", url.path,
        ])
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map {
        Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
    }
}

/// What ffprobe says about `url` as JSON (`-of json`), asked with `entries` (such as
/// `-show_chapters`, `-show_streams`).
public func ffprobeJSON(_ url: URL, _ entries: [String]) async throws -> [String: Any] {
    let data = try await runTool(ffprobePath, ["-v", "error"] + entries + ["-of", "json", url.path])
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw TestFailure("ffprobe said no JSON object about \(url.path)")
    }
    return object
}
