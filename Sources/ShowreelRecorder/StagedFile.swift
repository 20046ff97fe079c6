import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written under a hidden temporary name beside its real one and renamed into place
/// once complete, so the real name only ever holds a finished file: a process killed while
/// writing leaves the previous file (or none) and a `.name.partial.ext` beside it, never a
/// half-written video that an old manifest still names. The partial name is fixed, so the next
/// recording of the same name overwrites what a killed one left instead of piling up files, and
/// the next recording into the folder removes the partial files of any name whose writer is
/// dead (see `claim(logger:)`).
/// The one way videos of runs and tests are written (see `RecordingSession`).
package struct StagedFile: Sendable {
    /// Where the file ends up.
    package let destination: URL
    /// Where it is written meanwhile: same folder (so the rename is atomic), hidden, with the
    /// destination's extension (which picks the container).
    package let partial: URL
    /// The finished partial file remuxed with its steps (`StepTracks`), before it replaces it.
    package let withSteps: URL

    package init(_ destination: URL) {
        self.destination = destination
        let name = destination.deletingPathExtension().lastPathComponent
        let ext = destination.pathExtension
        let folder = destination.deletingLastPathComponent()
        partial = folder.appendingPathComponent(".\(name).partial" + (ext.isEmpty ? "" : ".\(ext)"))
        withSteps = folder.appendingPathComponent(".\(name).steps" + (ext.isEmpty ? "" : ".\(ext)"))
    }

    /// Removes what killed writers left in the destination's folder (`PartialFiles`), then claims
    /// the partial file for this writer, creating it: while the claim is held, no other
    /// process's cleaning takes it for a dead writer's. Nil when it cannot be created (the
    /// writer's own open then says why).
    package func claim(logger: Logger) -> WriterLock? {
        PartialFiles.removeStale(in: destination.deletingLastPathComponent(), logger: logger)
        return WriterLock(partial, creating: true)
    }

    /// Moves the finished file to its real name, replacing what was there in one step.
    package func commit() throws(RecorderError) {
        try Self.move(partial, to: destination, failure: "could not move the finished video from \(partial.lastPathComponent) into place")
    }

    /// Puts `file` (finished, in the same folder) in the partial file's place, and returns the
    /// claim on it, which the writer holds until the file takes its name (the partial's claim
    /// stays with the file it replaced).
    package func replacePartial(with file: URL) throws(RecorderError) -> WriterLock? {
        let claim = WriterLock(file, creating: false)
        try Self.move(file, to: partial, failure: "could not replace \(partial.lastPathComponent) with \(file.lastPathComponent)")
        return claim
    }

    private static func move(_ source: URL, to target: URL, failure: String) throws(RecorderError) {
        guard rename(source.path, target.path) == 0 else {
            throw .writeFailed(file: target.path, message: "\(failure): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the partial file, if there is one.
    package func abandon() {
        try? FileManager.default.removeItem(at: partial)
    }
}
