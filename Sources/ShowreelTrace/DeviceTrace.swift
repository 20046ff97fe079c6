import ShowreelDevice
import ShowreelGraphics
import ShowreelReport
import ShowreelTesting

/// A device's step trace while a recording that no `RecordedSession` owns runs: a recorded
/// test whose video another process writes (a tunnel host's recorder) or whose device is
/// another process (`showreel device boot`), and a WebDriver session on an attached device.
///
/// Either way the device traces its own actions, as it does for an in-process recording: in
/// this process directly, in another through its automation API (`POST /v1/trace`, steps,
/// `POST /v1/trace/end`), which answers the finished `RunTrace`.
package struct DeviceTrace: Sendable {
    private enum Place: Sendable {
        case local(Device)
        case remote(DeviceClient)
    }

    private let place: Place
    /// This recording's trace among the device's (nil from a device that predates ids).
    private let id: String?
    /// The device time tracing started at.
    package let started: Duration
    /// The device time of the first frame the device's display stream sent to the recorder
    /// that connected last and still records, when tracing started (nil without one).
    package let recordingStart: Duration?

    private init(place: Place, started: (id: String?, time: Duration, recordingStart: Duration?)) {
        self.place = place
        id = started.id
        self.started = started.time
        recordingStart = started.recordingStart
    }

    /// Starts tracing `device` in this process for one recording (others may trace it too);
    /// refused while a recording that owns the device traces it.
    package static func start(_ device: Device) async throws -> DeviceTrace {
        let started = try await device.attachTrace(replaceable: false)
        return DeviceTrace(place: .local(device), started: (started.id, started.time, started.recordingStart))
    }

    /// Starts tracing the device `client` drives, in its own process.
    package static func start(_ client: DeviceClient) async throws -> DeviceTrace {
        DeviceTrace(place: .remote(client), started: try await client.startTrace())
    }

    /// Opens a step whose actions give it its target (a WebDriver command).
    package func beginStep(_ title: String) async throws {
        switch place {
        case let .local(device): try await device.openStep(title)
        case let .remote(client): try await client.beginTraceStep(title)
        }
    }

    /// Closes the step opened with `beginStep`, failed with `error` when it has one.
    package func endStep(error: String?) async throws {
        switch place {
        case let .local(device): try await device.closeStep(error: error)
        case let .remote(client): try await client.endTraceStep(error: error)
        }
    }

    /// Stops tracing and returns the trace, its times counted from `videoStart` (the device
    /// time of the video's first frame), with pictures only when the trace will be kept.
    package func end(videoStart: Duration, pictures: Bool) async throws -> RunTrace {
        switch place {
        case let .local(device):
            let entries = try await device.detachTrace(id)
            return TraceExport.trace(of: entries, screen: await device.screenPointSize, videoStart: videoStart, pictures: pictures)
        case let .remote(client):
            return try await client.endTrace(id, videoStart: videoStart, pictures: pictures, as: RunTrace.self)
        }
    }
}
