import Foundation
import ShowreelRender
import Testing

@testable import ShowreelRecorder

/// Distinct background colours, one per synthetic frame (repeating).
let palette: [RGBA] = [
    RGBA(red: 220, green: 40, blue: 40), RGBA(red: 40, green: 200, blue: 60), RGBA(red: 40, green: 60, blue: 220),
    RGBA(red: 230, green: 200, blue: 40), RGBA(red: 200, green: 50, blue: 200), RGBA(red: 40, green: 200, blue: 200),
    RGBA(red: 240, green: 240, blue: 240), RGBA(red: 30, green: 30, blue: 30),
]

/// A synthetic screen: a background colour that changes per frame plus a white square that moves.
func makePixels(index: Int, width: Int = 320, height: Int = 240) -> PixelBuffer {
    let buffer = PixelBuffer(width: width, height: height)
    let colour = palette[index % palette.count]
    let square = 40
    let squareX = (index * 23) % max(1, width - square)
    let squareY = min(20, max(0, height - square))
    buffer.withUnsafeMutableBytes { bytes in
        for y in 0..<height {
            for x in 0..<width {
                let inSquare = x >= squareX && x < squareX + square && y >= squareY && y < squareY + square
                let offset = y * buffer.bytesPerRow + x * 4
                bytes[offset] = inSquare ? 255 : colour.blue
                bytes[offset + 1] = inSquare ? 255 : colour.green
                bytes[offset + 2] = inSquare ? 255 : colour.red
                bytes[offset + 3] = 255
            }
        }
    }
    return buffer
}

func makeFrame(index: Int, at time: Duration, width: Int = 320, height: Int = 240) -> Frame {
    Frame(pixels: makePixels(index: index, width: width, height: height), presentationTime: time)
}

/// A point of the background, away from the moving square.
func backgroundPoint(width: Int, height: Int) -> (x: Int, y: Int) { (width - 12, height - 12) }

func isClose(_ a: RGBA, _ b: RGBA, tolerance: Int = 16) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

/// Runs `body` with a fresh temporary directory that is removed afterwards.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("showreel-recorder-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

// MARK: - The ffmpeg command-line tools, for cross-checks

let ffprobePath = "/usr/bin/ffprobe"
let ffmpegPath = "/usr/bin/ffmpeg"
let haveFFmpegTools = FileManager.default.isExecutableFile(atPath: ffprobePath)
    && FileManager.default.isExecutableFile(atPath: ffmpegPath)

/// Runs a program and returns its standard output (standard error is discarded).
func run(_ program: String, _ arguments: [String]) throws -> Data {
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

struct FFprobeReport: Decodable {
    struct Stream: Decodable {
        var codec_name: String?
        var width: Int?
        var height: Int?
        var nb_read_frames: String?
    }
    struct Format: Decodable {
        var duration: String?
    }
    var streams: [Stream]
    var format: Format?

    var frames: Int? { streams.first?.nb_read_frames.flatMap { Int($0) } }
    var duration: Double? { format?.duration.flatMap { Double($0) } }
}

func ffprobe(_ url: URL) throws -> FFprobeReport {
    let data = try run(ffprobePath, [
        "-v", "error", "-select_streams", "v:0",
        "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-count_frames",
        "-show_entries", "format=duration", "-of", "json", url.path,
    ])
    return try JSONDecoder().decode(FFprobeReport.self, from: data)
}

/// ffprobe's duration of each video packet in seconds (nil where it reports none).
func ffprobePacketDurations(_ url: URL) throws -> [Double?] {
    let data = try run(ffprobePath, [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration_time", "-of", "csv=p=0", url.path,
    ])
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map {
        Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
    }
}

// MARK: - Simulating a full disk

#if canImport(Glibc)
import Glibc
#endif

/// Points this process's open descriptor for `url` at /dev/full, so every later write to the
/// file fails with ENOSPC, as when the disk fills up during a recording. False if not open.
func makeOpenFileFull(_ url: URL) -> Bool {
    let wanted = url.resolvingSymlinksInPath().path
    guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
    for name in descriptors {
        guard let fd = Int32(name),
              let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
              target == wanted else { continue }
        let full = open("/dev/full", O_WRONLY)
        guard full >= 0 else { return false }
        defer { close(full) }
        return dup2(full, fd) >= 0
    }
    return false
}
