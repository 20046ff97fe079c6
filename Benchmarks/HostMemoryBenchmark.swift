import Foundation
import ShowreelWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Peak memory of a real `showreel host` process (the binary beside this one) after 1000
/// commands and after one 200 MB output, each against the same host's idle RSS in this run.
///
/// The bounds follow from the host's settings (defaults: 16 MiB of output kept per command,
/// 32 MiB of finished commands' output kept in memory, the rest spooled to disk):
/// - 1000 commands, 1 MB of output each, 8 clients: idle + 32 MiB kept + 8 answers in flight
///   (1 MB of text and its JSON each: 16 MiB) + 48 MiB for the allocator (the output arrives in
///   64 KiB pieces, which fragment the heap) = idle + 96 MiB. Unbounded, the 256 finished
///   commands the table remembers would hold 256 MB.
/// - One command printing 200 MB: idle + the 16 MiB it keeps + 3 copies while answering (its
///   bytes, its text, the JSON buffer) + 16 MiB for pipes and buffers = idle + 80 MiB.
enum HostMemoryBenchmark {
    static let commands = 1000
    static let clients = 8
    /// `seq 1 150000`: 1,088,895 bytes.
    static let commandLine = "seq 1 150000"
    /// `seq 1 24500000`: 200,388,895 bytes.
    static let bigCommandLine = "seq 1 24500000"
    static let commandsBoundMiB = 96.0
    static let bigOutputBoundMiB = 80.0

    struct Memory {
        var rssMiB: Double
        var peakMiB: Double
    }

    /// The report, or a line saying why it could not run.
    static func report(besides benchmark: String) -> String {
        let showreel = (benchmark as NSString).deletingLastPathComponent + "/showreel"
        guard access(showreel, X_OK) == 0 else {
            return
                "\nTunnel host memory: SKIP (no showreel binary at \(showreel); build it with the same configuration: swift build -c release --product showreel)"
        }
        do {
            FileHandle.standardError.write(Data("[bench] tunnel host memory\n".utf8))
            let (idle1, many) = try measure(showreel) { port in
                try runClients(port: port)
            }
            let (idle2, big) = try measure(showreel) { port in
                let answer = try post(port, HostAPI.Routes.Legacy.exec, command: Data(bigCommandLine.utf8).base64EncodedString())
                guard answer.count > 16 * 1024 * 1024 else { throw BenchmarkError("the 200 MB /exec answered only \(answer.count) bytes") }
            }
            var lines = ["", "Tunnel host memory (a real `showreel host` process; RSS from /proc, peak = VmHWM; MiB)"]
            let widths = [44, 8, 8, 8, 10, 14]
            lines.append(row(["scenario", "idle", "peak", "after", "peak-idle", "bound"], widths))
            for (name, idle, result, bound) in [
                ("\(commands) /launch + /status, 1 MB output each", idle1, many, commandsBoundMiB),
                ("one /exec printing 200 MB", idle2, big, bigOutputBoundMiB),
            ] {
                let grown = result.peakMiB - idle.rssMiB
                lines.append(
                    row(
                        [
                            name, f(idle.rssMiB), f(result.peakMiB), f(result.rssMiB), f(grown),
                            "\(grown <= bound ? "PASS" : "FAIL") <= \(Int(bound))",
                        ], widths))
            }
            lines.append(
                "  \(clients) clients at once; each command's output kept: 16 MiB, finished commands' output in memory: 32 MiB in all")
            lines.append("  (older output is spooled to disk and read back on /status). Unbounded, the 256 remembered finished commands")
            lines.append("  would hold 256 MB of output after the first run; the 200 MB command keeps its newest 16 MiB.")
            return lines.joined(separator: "\n")
        } catch {
            return "\nTunnel host memory: could not run (\(error))"
        }
    }

    /// Starts a host, reads its idle memory after one warm-up command, runs `work`, reads again.
    private static func measure(_ showreel: String, _ work: (Int) throws -> Void) throws -> (idle: Memory, after: Memory) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: showreel)
        process.arguments = ["host", "--port", "0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let data = stderr.fileHandleForReading.availableData
            if data.isEmpty { break }
            line.append(data)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: "\n").first.flatMap({ Int($0.split(separator: ":").last ?? "") }) else {
            throw BenchmarkError("showreel host did not start: \(text)")
        }
        _ = try post(port, HostAPI.Routes.Legacy.exec, command: Data("echo warm".utf8).base64EncodedString())
        Thread.sleep(forTimeInterval: 0.3)
        let idle = try memory(of: process.processIdentifier)
        try work(port)
        return (idle, try memory(of: process.processIdentifier))
    }

    private static func runClients(port: Int) throws {
        let command = Data(commandLine.utf8).base64EncodedString()
        let failures = NSLock()
        nonisolated(unsafe) var failure: (any Error)?
        let group = DispatchGroup()
        for client in 0..<clients {
            DispatchQueue.global().async(group: group) {
                do {
                    for _ in stride(from: client, to: commands, by: clients) {
                        let id = try WireJSON.decoder.decode(
                            HostAPI.LegacyResultResponse.self,
                            from: post(port, HostAPI.Routes.Legacy.launch, command: command)
                        ).result
                        while true {
                            let status = try WireJSON.decoder.decode(
                                HostAPI.LegacyStatusResponse.self,
                                from: post(port, HostAPI.Routes.Legacy.status, command: id))
                            if case .finished = status.result { break }
                            Thread.sleep(forTimeInterval: 0.005)
                        }
                    }
                } catch {
                    failures.withLock { failure = error }
                }
            }
        }
        group.wait()
        if let failure = failures.withLock({ failure }) { throw failure }
    }

    /// One legacy POST with `command=<value>` (escaped as the iOS client does), its body.
    private static func post(_ port: Int, _ route: Route, command: String) throws -> Data {
        let escaped = command.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(
            of: "=", with: "%3D")
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(route.path())")!, timeoutInterval: 600)
        request.httpMethod = route.method.rawValue
        request.httpBody = Data("command=\(escaped)".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Data, any Error> = .failure(BenchmarkError("no answer"))
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
                result = .failure(
                    BenchmarkError("\(route.template) answered \(status): \(String(decoding: (data ?? Data()).prefix(200), as: UTF8.self))")
                )
            } else {
                result = .success(data ?? Data())
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }

    private static func memory(of pid: Int32) throws -> Memory {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
        }
        return Memory(rssMiB: field("VmRSS"), peakMiB: field("VmHWM"))
    }

    private static func row(_ cells: [String], _ widths: [Int]) -> String {
        var line = " "
        for (index, cell) in cells.enumerated() {
            let width = widths[index]
            line +=
                " "
                + (index == 0
                    ? cell.padding(toLength: max(width, cell.count), withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: max(0, width - cell.count)) + cell)
        }
        return line
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
