import Foundation
import ShowreelWire

/// What one run recorded: every flow or test, its outcome, video, steps and failures.
///
/// Written as `manifest.json` beside the videos by `showreel run` and by Swift tests recorded
/// with the recording trait, in the same format; the HTML report, JUnit and `showreel report
/// merge` read it. JSON with ISO-8601 dates, sorted keys, pretty printed, so files diff well.
package struct RunManifest: Codable, Sendable, Equatable {
    package var title: String
    package var createdAt: Date
    package var entries: [ManifestEntry]

    package static let fileName = "manifest.json"

    package init(title: String, createdAt: Date = Date(), entries: [ManifestEntry] = []) {
        self.title = title
        self.createdAt = createdAt
        self.entries = entries
    }

    /// Reads a manifest; the error names the file and what was wrong with it.
    package static func load(from url: URL) throws -> RunManifest {
        try load(RunManifest.self, from: url, as: "a run manifest")
    }

    /// Reads one of the run's JSON files (`what` names it in the error).
    static func load<T: Decodable>(_ type: T.Type, from url: URL, as what: String) throws -> T {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ManifestError(url: url, problem: "cannot be read (\(error.localizedDescription))")
        }
        do { return try decoder.decode(T.self, from: data) } catch let error as DecodingError {
            throw ManifestError(url: url, problem: "is not \(what): \(error.summary)")
        }
    }

    /// Writes the manifest atomically, so a reader never sees half of it.
    package func write(to url: URL) throws {
        try Self.encoder.encode(self).writeReplacing(url)
    }

    /// This manifest joined with others (shards of one run): entries in order of first
    /// appearance, an entry whose id comes again replaced by the later one (a rerun), and the
    /// earliest creation date. Video paths are kept as they are: rebase them first when the
    /// manifests live in different folders (`ManifestEntry.rebased(onto:)`).
    package func merged(_ others: [RunManifest]) -> RunManifest {
        var order: [String] = []
        var byID: [String: ManifestEntry] = [:]
        for entry in ([self] + others).flatMap(\.entries) {
            if byID[entry.id] == nil { order.append(entry.id) }
            byID[entry.id] = entry
        }
        let earliest = ([self] + others).map(\.createdAt).min() ?? createdAt
        return RunManifest(title: title, createdAt: earliest, entries: order.compactMap { byID[$0] })
    }

    package func count(_ status: ManifestEntry.Status) -> Int { entries.filter { $0.status == status }.count }

    /// "3 passed, 1 failed", with ", 1 interrupted" and ", 2 skipped" when there are any: the
    /// one wording of a run's outcome for the terminal and the report.
    package var outcome: String {
        var parts = ["\(count(.passed)) passed", "\(count(.failed)) failed"]
        for status in [ManifestEntry.Status.interrupted, .skipped] where count(status) > 0 {
            parts.append("\(count(status)) \(status.rawValue)")
        }
        return parts.joined(separator: ", ")
    }

    /// Total duration of every entry, in seconds.
    package var duration: Double { entries.reduce(0) { $0 + $1.duration } }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// One flow or test in a run.
package struct ManifestEntry: Codable, Sendable, Equatable {
    package enum Status: String, Codable, Sendable, CaseIterable {
        /// `interrupted`: stopped by Ctrl-C or SIGTERM while it ran, neither passed nor failed;
        /// `skipped`: not run at all.
        case passed, failed, interrupted, skipped
    }

    /// Why an entry failed, where, and when in its video.
    package struct Failure: Codable, Sendable, Equatable {
        package var message: String
        /// `file:line:column` of the failing step or expectation.
        package var location: String?
        /// Seconds into the video when it failed.
        package var deviceTime: Double?

        package init(message: String, location: String? = nil, deviceTime: Double? = nil) {
            self.message = message
            self.location = location
            self.deviceTime = deviceTime
        }
    }

    /// One step of a flow (or activity of a test), with the time it started in the video.
    /// Seconds into a video of `time`, a device time, for a video whose first frame is at
    /// device time `start`: to the millisecond (the video's time base), never before the video.
    /// How every front end turns a step's device time into the manifest's and the trace's.
    package static func videoSeconds(_ time: Duration, since start: Duration) -> Double {
        let elapsed = time - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return max(0, (seconds * 1000).rounded() / 1000)
    }

    package struct Step: Codable, Sendable, Equatable {
        package var title: String
        /// Seconds into the video.
        package var time: Double
        /// `file:line:column` of the step.
        package var location: String?
        package var status: Status
        /// What the step wrote: its scripts' `console.log` lines, an optional step's warning.
        package var log: [String]? = nil

        package init(title: String, time: Double, location: String? = nil, status: Status) {
            self.title = title
            self.time = time
            self.location = location
            self.status = status
        }
    }

    /// Stable across runs: the flow's path, or "Suite/test()".
    package var id: String
    package var name: String
    package var suite: String?
    package var status: Status
    /// Seconds.
    package var duration: Double
    /// The video, relative to the manifest's folder.
    package var video: String?
    /// A screenshot (of the failure), relative to the manifest's folder.
    package var screenshot: String?
    package var failures: [Failure]
    package var steps: [Step]
    /// Further files, relative to the manifest's folder.
    package var attachments: [String]
    /// A small animated picture of the video (WebP), relative to the manifest's folder.
    package var preview: String?
    /// The combination (language, device, appearance) it ran in, in a matrix run.
    package var cell: RunCell?
    /// Strings an app showed in its source language for want of a translation; nil when none.
    package var missingTranslations: [MissingTranslation]?

    /// A key an app's string catalog has no translation for in the language it ran in.
    package struct MissingTranslation: Codable, Sendable, Equatable {
        package var app: String
        package var language: String
        package var key: String

        package init(app: String, language: String, key: String) {
            self.app = app; self.language = language; self.key = key
        }
    }

    package init(
        id: String, name: String, suite: String? = nil, status: Status, duration: Double, video: String? = nil,
        screenshot: String? = nil, failures: [Failure] = [], steps: [Step] = [], attachments: [String] = [],
        preview: String? = nil, cell: RunCell? = nil
    ) {
        self.cell = cell
        self.id = id
        self.name = name
        self.suite = suite
        self.status = status
        self.duration = duration
        self.video = video
        self.screenshot = screenshot
        self.failures = failures
        self.steps = steps
        self.attachments = attachments
        self.preview = preview
    }

    // Lists may be left out of a hand-written manifest: absent means empty.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        suite = try c.decodeIfPresent(String.self, forKey: .suite)
        status = try c.decode(Status.self, forKey: .status)
        duration = try c.decode(Double.self, forKey: .duration)
        video = try c.decodeIfPresent(String.self, forKey: .video)
        screenshot = try c.decodeIfPresent(String.self, forKey: .screenshot)
        failures = try c.decodeIfPresent([Failure].self, forKey: .failures) ?? []
        steps = try c.decodeIfPresent([Step].self, forKey: .steps) ?? []
        attachments = try c.decodeIfPresent([String].self, forKey: .attachments) ?? []
        preview = try c.decodeIfPresent(String.self, forKey: .preview)
        cell = try c.decodeIfPresent(RunCell.self, forKey: .cell)
        missingTranslations = try c.decodeIfPresent([MissingTranslation].self, forKey: .missingTranslations)
    }

    /// The entry with its file paths prefixed by `folder` (a relative path such as
    /// "shard-1"), for a manifest that lives one folder up from the files.
    package func rebased(onto folder: String) -> ManifestEntry {
        guard !folder.isEmpty, folder != "." else { return self }
        func prefixed(_ path: String) -> String {
            path.hasPrefix("/") ? path : (folder.hasSuffix("/") ? folder : folder + "/") + path
        }
        var entry = self
        entry.video = video.map(prefixed)
        entry.screenshot = screenshot.map(prefixed)
        entry.attachments = attachments.map(prefixed)
        entry.preview = preview.map(prefixed)
        return entry
    }
}

/// A manifest file that cannot be used, and why.
package struct ManifestError: Error, CustomStringConvertible, Equatable {
    package let url: URL
    package let problem: String

    package var description: String { "\(url.path) \(problem)" }
}

extension DecodingError {
    /// One line: the JSON path and what was wrong there.
    var summary: String {
        func path(_ context: Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch self {
        case let .keyNotFound(key, context): return "missing '\(key.stringValue)'\(path(context))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return context.debugDescription + path(context)
        @unknown default: return String(describing: self)
        }
    }
}
