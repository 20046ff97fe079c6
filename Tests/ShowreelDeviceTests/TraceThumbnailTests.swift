import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelWire
import Synchronization
import Testing

@testable import ShowreelDevice

/// A trace's pictures are remade only where the screen changed since the last one (a key, the
/// caret): each must be the picture a whole shrink of its frame gives, pixel for pixel.
@Suite("Trace thumbnails")
struct TraceThumbnailTests {
    @Test("a thumbnail remade only where the screen changed is the whole frame's thumbnail")
    func partialThumbnailsMatchWholeOnes() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(SignUpApp.bundleIdentifier)
        let frames = KeptFrames()
        let subscription = device.display.subscribe(frames)
        try await device.typeText("ab.c", into: .textField("email"))
        subscription.stop()
        await device.shutdown()

        let trace = ActionTrace()
        let kept = frames.all.filter { $0.changedAreas != nil }
        #expect(kept.count >= 8, "\(kept.count) frames with changed areas")
        var previous = trace.thumbnail(kept[0].pixels)
        // Every frame from the one before it, and every third from three before (areas added up).
        for (index, frame) in kept.enumerated().dropFirst() {
            let whole = trace.thumbnail(frame.pixels)
            let updated = trace.thumbnail(frame.pixels, updating: previous, changed: frame.changedAreas)
            #expect(updated.hasSamePixels(as: whole), "frame \(index) at \(frame.presentationTime)")
            previous = updated
        }
        for start in stride(from: 0, to: kept.count - 3, by: 3) {
            let areas = kept[start + 1...start + 3].flatMap { $0.changedAreas! }
            let updated = trace.thumbnail(kept[start + 3].pixels, updating: trace.thumbnail(kept[start].pixels), changed: areas)
            #expect(updated.hasSamePixels(as: trace.thumbnail(kept[start + 3].pixels)), "frames \(start) to \(start + 3)")
        }
    }

    @Test("a traced device's pictures after each key are whole thumbnails of frames it showed")
    func tracedPicturesMatchTheScreen() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(SignUpApp.bundleIdentifier)
        let trace = ActionTrace()
        await device.setActionTrace(trace)
        let frames = KeptFrames()
        let subscription = device.display.subscribe(frames)
        try await device.tap(.textField("email"))
        for key in ["a", "b", "c"] { try await device.tapKey(key) }
        subscription.stop()
        await device.shutdown()

        let shown = frames.all
        let entries = trace.entries.filter { $0.after != nil }
        #expect(entries.count >= 4)
        // Once the keyboard is up, a key changes a key cap and the caret: those pictures are
        // kept as parts of the one before, and put together here.
        let keys = entries.filter { $0.title.hasPrefix("key") }
        #expect(keys.count == 3 && keys.dropFirst().allSatisfy { $0.afterPicture?.isWhole == false }, "\(keys.map(\.title))")
        // The screen an action ends on may be drawn just after it, at the same instant: the
        // picture must be a whole thumbnail of a frame shown by then, whichever.
        for entry in entries {
            let shownBy = shown.filter { $0.presentationTime <= entry.end }
            #expect(
                shownBy.contains { entry.after!.hasSamePixels(as: trace.thumbnail($0.pixels)) },
                "\(entry.title) at \(entry.end): no frame of \(shownBy.map(\.presentationTime)) has that thumbnail")
        }
    }
}

extension TraceThumbnailTests {
    @Test("pictures asked for faster than they are made wait for the painter past a few: each holds a whole screen")
    func picturesInFlightAreBounded() {
        let trace = ActionTrace()
        // Screens that say nothing of what changed: each picture is a whole shrink.
        let screens = (0..<24).map { Frame(pixels: PixelBuffer(width: 780, height: 1688), presentationTime: .milliseconds($0 * 20)) }
        for (index, screen) in screens.enumerated() {
            let handle = trace.begin(
                "step \(index)", query: nil, target: nil, at: screen.presentationTime, screen: { screen }, tree: { [] })
            trace.end(handle, at: screen.presentationTime, screen: { screen }, error: nil, interrupted: false)
        }
        #expect(trace.mostPending <= ActionTrace.maxPending, "\(trace.mostPending) pictures waited at once")
        #expect(trace.mostPending >= 1)
        let entries = trace.entries
        #expect(entries.count == 24)
        #expect(entries.allSatisfy { $0.before != nil && $0.after != nil })
    }
}

/// Every frame a device publishes, kept (so that the device draws each next one afresh).
private final class KeptFrames: DisplayStreamSink, Sendable {
    private let frames = Mutex<[Frame]>([])
    var all: [Frame] { frames.withLock { $0 } }
    func receive(_ event: DisplayStreamEvent) {
        if case let .frame(frame) = event { frames.withLock { $0.append(frame) } }
    }
}

extension TraceThumbnailTests {
    @Test("a trace that will be kept encodes each picture once, as it is made: ending it has nothing left to encode")
    func picturesEncodedAsTheyAreMade() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(SignUpApp.bundleIdentifier)
        // What each picture was encoded as (its pixels, by name).
        let encoded = Mutex<[String: PixelBuffer]>([:])
        let trace = ActionTrace(encodingPicturesWith: { pixels in
            encoded.withLock { encoded in
                let name = "picture \(encoded.count + 1)"
                encoded[name] = pixels.copy()
                return name
            }
        })
        await device.setActionTrace(trace)
        try await device.tap(.textField("email"))
        for key in ["a", "b"] { try await device.tapKey(key) }
        await device.setActionTrace(nil)
        await device.shutdown()

        let entries = trace.entries
        let pictures = entries.flatMap { [($0.beforePicture, $0.encodedBefore), ($0.afterPicture, $0.encodedAfter)] }
            .compactMap { picture, made in picture.map { ($0, made) } }
        #expect(pictures.count >= 6, "\(entries.map(\.title))")
        let names = encoded.withLock { $0 }
        let distinct = Set(pictures.map { ObjectIdentifier($0.0) })
        #expect(names.count == distinct.count, "\(names.count) encodings of \(distinct.count) pictures: one encoded again, or not at all")
        // Each picture's encoding was made from its own pixels, as they are once put together.
        for (picture, made) in pictures {
            let source = try #require(made.flatMap { names[$0] }, "a picture without its encoding")
            #expect(try #require(picture.pixels).hasSamePixels(as: source), "\(made!)")
        }
    }
}
