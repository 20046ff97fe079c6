import Foundation
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRecorder
import ShowreelReport

/// Turns what a device traced during a recording into the report's step trace (`RunTrace`):
/// times in the video's seconds, pictures as small inline JPEGs, the element tree in the
/// report's terms. Flows and recorded Swift tests both write their traces through it.
package enum TraceExport {
    /// The trace of `entries`, with times counted from `videoStart` (the device time of the
    /// video's first frame). Without `pictures` none are encoded, and without `trees` no element
    /// tree is converted: for a recording that is not kept, only its steps are needed, and JPEG
    /// encoding is most of a trace's cost.
    package static func trace(
        of entries: [ActionTrace.Entry], screen: Size, videoStart: Duration, pictures withPictures: Bool = true,
        trees: Bool = true
    ) -> RunTrace {
        var pictures: [String] = []
        var index: [String: Int] = [:]
        // The trace hands the same picture to an action's end and the next one's start: encoded
        // once. A picture encoded as it was traced is not put together again (it may be kept as
        // the parts that differ from the one before).
        var encoded: [ObjectIdentifier: Int] = [:]
        func picture(_ picture: TracePicture?, made: String?) -> Int? {
            guard withPictures, let picture else { return nil }
            if let known = encoded[ObjectIdentifier(picture)] { return known }
            guard let uri = made ?? picture.pixels.flatMap(pictureData) else { return nil }
            let position = index[uri] ?? pictures.count
            if position == pictures.count {
                pictures.append(uri)
                index[uri] = position
            }
            encoded[ObjectIdentifier(picture)] = position
            return position
        }
        let steps = entries.map { entry in
            RunTrace.Step(
                title: entry.title,
                start: ManifestEntry.videoSeconds(entry.start, since: videoStart),
                end: ManifestEntry.videoSeconds(entry.end, since: videoStart),
                status: entry.isInterrupted ? .interrupted : entry.error == nil ? .passed : .failed,
                query: entry.query, target: entry.target.map(rect),
                before: picture(entry.beforePicture, made: entry.encodedBefore),
                after: picture(entry.afterPicture, made: entry.encodedAfter),
                tree: trees ? entry.tree.map(element) : [], error: entry.error)
        }
        return RunTrace(screen: RunTrace.Size(width: screen.width, height: screen.height), steps: steps, pictures: pictures)
    }

    private static func rect(_ rect: Rect) -> RunTrace.Rect {
        RunTrace.Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    private static func element(_ snapshot: ElementSnapshot) -> RunTrace.Element {
        RunTrace.Element(
            type: snapshot.type.description, identifier: snapshot.identifier, label: snapshot.label,
            value: snapshot.value, frame: rect(snapshot.frame), enabled: snapshot.isEnabled,
            hittable: snapshot.isHittable, children: snapshot.children.map(element))
    }

    /// A picture as the trace keeps it: a small JPEG, inline (also what an `ActionTrace` that
    /// encodes its pictures as it goes is given).
    package static let pictureData: ActionTrace.PictureEncoder = { pixels in
        guard let jpeg = try? ImageEncoder.encode(pixels, as: .jpeg) else { return nil }
        return "data:image/jpeg;base64," + Data(jpeg).base64EncodedString()
    }
}

extension TraceExport {
    /// `trace(of:screen:videoStart:pictures:trees:)` as an automation server's exporter: what a
    /// device in its own process answers `POST /v1/trace/end` with. A trace asked for without
    /// pictures is for a video that is not kept: only its steps are needed, so no trees either.
    package static let exporter: AutomationServer.TraceExporter = { entries, screen, videoStart, pictures in
        trace(of: entries, screen: screen, videoStart: videoStart, pictures: pictures, trees: pictures)
    }
}
