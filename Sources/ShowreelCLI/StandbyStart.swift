import Foundation
import ShowreelWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process as a tunnel host's standby (`HostAPI.Standby`): it waits on its standard input
/// for the command it is to be, and becomes it.
enum StandbyStart {
    /// When this process is a standby: waits for its request, takes its environment and working
    /// directory, and returns its arguments (without the program). Nil when it is not one; it
    /// exits when the host goes away without sending one, or sent one it cannot read.
    static func arguments() -> [String]? {
        let key = HostAPI.Standby.environmentKey
        guard let marker = getenv(key), String(cString: marker) == "1" else { return nil }
        unsetenv(key)
        guard let line = readLine(from: STDIN_FILENO) else { exit(0) }
        let request: HostAPI.Standby.Request
        do { request = try WireJSON.decoder.decode(HostAPI.Standby.Request.self, from: line) } catch {
            fail("the tunnel host's request could not be read (\(ErrorSentence.describe(error)))")
        }
        for (name, value) in request.environment { setenv(name, value, 1) }
        if let directory = request.workingDirectory, chdir(directory) != 0 {
            fail("cannot work in '\(directory)': \(String(cString: strerror(errno)))")
        }
        // What a command the host starts afresh reads: nothing.
        let nothing = open("/dev/null", O_RDONLY)
        if nothing >= 0 {
            dup2(nothing, STDIN_FILENO)
            close(nothing)
        }
        if !holdsStopSignals(request.argv) { releaseStopSignals() }
        return Array(request.argv.dropFirst())
    }

    /// Whether the early hold of SIGINT and SIGTERM applies to `argv`, as it would have had the
    /// command started afresh.
    private static func holdsStopSignals(_ argv: [String]) -> Bool {
        var pointers = argv.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { runsUntilStopped(Int32($0.count), $0.baseAddress) }
    }

    /// Reads up to the first newline (the request is one line); nil at end of input before one.
    private static func readLine(from descriptor: Int32) -> Data? {
        var bytes = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes.append(contentsOf: chunk[..<count])
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) { return bytes[..<newline] }
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("showreel (standby): \(message)\n".utf8))
        exit(70)
    }
}
