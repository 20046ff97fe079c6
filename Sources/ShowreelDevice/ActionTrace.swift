import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelRender
import ShowreelWire
import Synchronization

/// What a device did for its automation, kept for the report's step trace: per action (or per
/// flow step) when it ran on the device clock, the element it acted on, the element tree when it
/// started, and small pictures of the screen before and after.
///
/// Actions arrive from every front end through the device's own methods (a flow's steps, a Swift
/// test's taps through the automation API), so each is traced once, here. A front end whose
/// steps are coarser than the device's actions (a flow step may wait, then tap) opens an entry
/// of its own first: the actions inside it give that step its target instead of entries of
/// their own.
package final class ActionTrace: @unchecked Sendable {
    package struct Entry: Sendable {
        package var title: String
        package var start: Duration
        package var end: Duration
        package var query: String?
        /// In screen points.
        package var target: Rect?
        /// Small pictures of the screen before and after, put together when first asked for.
        package var before: PixelBuffer? {
            get { beforePicture?.pixels }
            set { beforePicture = newValue.map { TracePicture(whole: $0) } }
        }
        package var after: PixelBuffer? {
            get { afterPicture?.pixels }
            set { afterPicture = newValue.map { TracePicture(whole: $0) } }
        }
        /// The pictures as `pictureEncoder` made them, when the trace encodes them as it goes
        /// (set here, a picture of its own that keeps the same pixels: entries are values).
        package var encodedBefore: String? {
            get { beforePicture?.encoded }
            set { beforePicture = beforePicture?.encoded(as: newValue) }
        }
        package var encodedAfter: String? {
            get { afterPicture?.encoded }
            set { afterPicture = afterPicture?.encoded(as: newValue) }
        }
        package var tree: [ElementSnapshot]
        package var error: String?
        package var isInterrupted = false
        package var beforePicture: TracePicture?
        package var afterPicture: TracePicture?

        package init(
            title: String, start: Duration, end: Duration, query: String?, target: Rect?, before: PixelBuffer?,
            after: PixelBuffer?, tree: [ElementSnapshot], error: String?, isInterrupted: Bool = false
        ) {
            self.title = title; self.start = start; self.end = end; self.query = query; self.target = target
            self.tree = tree; self.error = error; self.isInterrupted = isInterrupted
            self.before = before; self.after = after
        }
    }

    /// A traced action in progress; nil when an open entry absorbed it.
    package struct Handle: Sendable {
        let index: Int
    }

    /// Encodes a thumbnail as the report keeps it (a `data:` URI); nil when it cannot.
    package typealias PictureEncoder = @Sendable (PixelBuffer) -> String?

    /// An entry as traced: its pictures may still be in the making.
    private struct Traced {
        var entry: Entry
        var before: TracePicture?
        var after: TracePicture?
    }

    /// Thumbnail width in pixels; the height follows the screen's aspect.
    package let thumbnailWidth: Int
    private let lock = NSLock()
    private var recorded: [Traced] = []
    /// Makes the pictures, in the order they were asked for (each updates the one before), off
    /// the device's thread: an action does not wait for the pictures of its screen.
    private let painter = DispatchQueue(label: "showreel.trace.pictures")
    /// The painter's: the last picture it made and its pixels, and the buffer it redraws parts
    /// of pictures in.
    private var lastPainted: (picture: TracePicture, pixels: PixelBuffer)?
    private var canvas: PixelBuffer?
    /// Pictures asked for and not made yet: each holds a whole screen, which the device cannot
    /// draw into again meanwhile, so past `maxPending` the next waits for the painter.
    private let pending = Mutex((now: 0, most: 0))
    static let maxPending = 4
    /// Tests: the most pictures that waited for the painter at once.
    var mostPending: Int { pending.withLock { $0.most } }

    /// The most a trace keeps, so one that is never collected (a client in another process
    /// started it and died, and the device runs on) does not grow for good: past `maxBytes` of
    /// pictures and element trees, entries keep their titles, times and targets only; past
    /// `maxEntries`, actions are not traced at all. A recording's trace is far below both
    /// (a 30-minute session of a command a second: 1800 entries, mostly sharing pictures).
    package let maxBytes: Int
    package let maxEntries: Int
    /// What the pictures and trees kept so far take, about.
    private var bytes = 0
    /// Actions not traced because the trace was full.
    package private(set) var dropped = 0
    /// Whether the trace has its fill of pictures and trees.
    private var isFull: Bool { lock.withLock { bytes >= maxBytes } }
    /// The entry being traced: actions inside it add to it instead of making their own.
    private var open: Int?

    /// Encodes each picture once it is made, on the painter: set for a trace that will be kept
    /// (a flow's, a test's whose every video is kept), so that ending it does not encode them
    /// all at once while the test waits.
    private let pictureEncoder: PictureEncoder?

    package init(
        thumbnailWidth: Int = 195, maxBytes: Int = 256 << 20, maxEntries: Int = 100_000,
        encodingPicturesWith pictureEncoder: PictureEncoder? = nil
    ) {
        self.thumbnailWidth = thumbnailWidth
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
        self.pictureEncoder = pictureEncoder
    }

    /// Everything traced so far, in order, with every picture made.
    package var entries: [Entry] {
        painter.sync {}
        return lock.withLock {
            recorded.map { traced in
                var entry = traced.entry
                entry.beforePicture = traced.before
                entry.afterPicture = traced.after
                return entry
            }
        }
    }

    /// The entry begun and not yet ended, if any (a step opened through the automation API).
    package var openEntry: Handle? { lock.withLock { open.map(Handle.init) } }

    /// The last picture made, by the time of the frame it shows: the screen an action ends on
    /// is mostly the one the next begins on, and that picture is made once.
    private var lastPicture: (time: Duration, picture: TracePicture)?
    /// The device's latest frame's time, and where the screen changed since the frame of
    /// `lastPicture` (nil: anywhere): the next picture is that one with only those parts
    /// shrunk again, instead of the whole screen read for every key typed.
    private var screenChanges: (latest: Duration?, areas: [PixelArea]?) = (nil, nil)
    /// More changed areas than this are taken as one covering them all.
    private static let changeLimit = 32
    /// The last element tree taken, by the time of the frame on screen then: while no new frame
    /// was drawn, nothing on screen changed, and a wait and the tap after it share one tree.
    private var lastTree: (time: Duration, tree: [ElementSnapshot])?

    /// The element tree of the screen `frame` shows: taken with `take`, or the one taken already
    /// while that frame was on screen.
    func tree(on frame: Frame, _ take: () -> [ElementSnapshot]) -> [ElementSnapshot] {
        if let lastTree = lock.withLock({ lastTree }), lastTree.time == frame.presentationTime { return lastTree.tree }
        guard !isFull else { return [] }
        let tree = take()
        lock.withLock {
            lastTree = (frame.presentationTime, tree)
            bytes += Self.size(of: tree)
        }
        return tree
    }

    /// Whether an action looking for `query` needs the screen's tree: for an entry of its own,
    /// or to find the target of the entry open now, which has none yet.
    func needsTree(toFind query: ElementQuery?) -> Bool {
        lock.withLock {
            guard let open else { return true }
            return query != nil && recorded[open].entry.target == nil
        }
    }

    /// Starts an entry, or (while another is open) gives the open one its target and returns
    /// nil: a flow step's taps, a press's touch, are part of what is already being traced.
    func begin(
        _ title: String, query: ElementQuery?, target: Rect?, at time: Duration, screen: () -> Frame,
        tree: () -> [ElementSnapshot]
    ) -> Handle? {
        let absorbed = lock.withLock { () -> Bool in
            guard let open else { return false }
            // The first element the step looked for is what it is about (a tap's wait, then tap).
            if recorded[open].entry.query == nil, let query { recorded[open].entry.query = query.description }
            if recorded[open].entry.target == nil, let target { recorded[open].entry.target = target }
            return true
        }
        if absorbed { return nil }
        guard lock.withLock({ recorded.count < maxEntries }) else {
            lock.withLock { dropped += 1 }
            return nil
        }
        let entry = Entry(
            title: title, start: time, end: time, query: query?.description, target: target, before: nil, after: nil,
            tree: tree(), error: nil)
        let before = picture(of: screen())
        return lock.withLock {
            recorded.append(Traced(entry: entry, before: before))
            open = recorded.count - 1
            return Handle(index: recorded.count - 1)
        }
    }

    /// Ends an entry begun with `begin` (nothing for nil): its end time, the screen after it,
    /// and why it failed.
    func end(_ handle: Handle?, at time: Duration, screen: () -> Frame, error: String?, interrupted: Bool) {
        guard let handle else { return }
        let picture = picture(of: screen())
        lock.withLock {
            recorded[handle.index].entry.end = time
            recorded[handle.index].after = picture
            recorded[handle.index].entry.error = error
            recorded[handle.index].entry.isInterrupted = interrupted
            if open == handle.index { open = nil }
        }
    }

    /// Notes that the device drew a new frame at `time`, changing `areas` of the screen (nil:
    /// anywhere, or unknown).
    func screenChanged(at time: Duration, in areas: [PixelArea]?) {
        lock.withLock {
            var changed = screenChanges.areas.flatMap { known in areas.map { known.adding($0) } }
            if let areas = changed, areas.count > Self.changeLimit, let first = areas.first {
                changed = [areas.dropFirst().reduce(first) { $0.union($1) }]
            }
            screenChanges = (time, changed)
        }
    }

    /// A thumbnail of `frame`: the last one asked for while that frame is on screen, none once
    /// the trace is full. Made on `painter`; the frame's pixels are held until then, so the
    /// device draws its next frames elsewhere.
    private func picture(of frame: Frame) -> TracePicture? {
        let (last, changes) = lock.withLock { (lastPicture, screenChanges) }
        if let last, last.time == frame.presentationTime { return last.picture }
        guard !isFull else { return nil }
        // Only what changed since the last picture, when the frame is the device's latest.
        let changed = last != nil && changes.latest == frame.presentationTime ? changes.areas : nil
        let picture = TracePicture()
        let previous = last?.picture
        if pending.withLock({ $0.now }) >= Self.maxPending { painter.sync {} }
        pending.withLock { pending in
            pending.now += 1
            pending.most = max(pending.most, pending.now)
        }
        painter.async {
            let pixels = self.paint(picture, of: frame.pixels, after: previous, changed: changed)
            picture.encoded = self.pictureEncoder?(pixels)
            self.pending.withLock { $0.now -= 1 }
        }
        lock.withLock {
            lastPicture = (frame.presentationTime, picture)
            // Changes from now on are counted from this picture's frame, when it is the latest.
            screenChanges.areas = screenChanges.latest == frame.presentationTime ? [] : nil
            bytes += thumbnailHeight(of: frame.pixels) * thumbnailWidth * 4
        }
        return picture
    }

    /// The height of a thumbnail of `screen`: the width's share of the screen's aspect.
    private func thumbnailHeight(of screen: PixelBuffer) -> Int {
        max(1, Int((Double(screen.height) * Double(thumbnailWidth) / Double(screen.width)).rounded()))
    }

    /// About what an element tree takes in memory.
    private static func size(of tree: [ElementSnapshot]) -> Int {
        tree.reduce(0) { $0 + 256 + size(of: $1.children) }
    }

    /// `screen` at the thumbnail width: a copy of `previous` (a thumbnail of the screen before)
    /// with only `changed` (screen pixels) shrunk again when the sizes allow it, else all of it.
    func thumbnail(_ screen: PixelBuffer, updating previous: PixelBuffer? = nil, changed: [PixelArea]? = nil) -> PixelBuffer {
        if let previous, let changed, previous.width == thumbnailWidth, previous.height == thumbnailHeight(of: screen) {
            let small = previous.copy()
            if redraw(changed, of: screen, in: small) != nil { return small }
        }
        let small = PixelBuffer(width: thumbnailWidth, height: thumbnailHeight(of: screen), zeroed: false)
        FrameScaler.shrink(screen, into: small)
        return small
    }

    /// Shrinks `changed` (screen pixels) of `screen` again into `small`, a thumbnail of the
    /// screen before; returns the thumbnail's pixels written, or nil (nothing written) when
    /// the sizes do not allow a part alone.
    private func redraw(_ changed: [PixelArea], of screen: PixelBuffer, in small: PixelBuffer) -> [PixelArea]? {
        guard
            let factor = FrameScaler.partFactor(
                fromWidth: screen.width, height: screen.height, toWidth: small.width, height: small.height)
        else { return nil }
        let parts = changed.map { FrameScaler.redrawnPart(of: $0.shrunk(by: factor), width: small.width, height: small.height) }
            .filter { !$0.isEmpty }
        for part in parts { FrameScaler.shrink(screen, into: small, rows: part.rows, columns: part.columns) }
        return parts
    }

    /// On the painter: makes `picture` of `screen` as the parts that `changed` since `previous`
    /// (the picture made just before), or whole; returns its pixels, valid until the next call.
    ///
    /// The parts are redrawn in `canvas`, the trace's own copy of the last picture, and copied
    /// out: only a whole picture takes a thumbnail's worth of memory.
    private func paint(_ picture: TracePicture, of screen: PixelBuffer, after previous: TracePicture?, changed: [PixelArea]?)
        -> PixelBuffer
    {
        if let previous, let changed, let last = lastPainted, last.picture === previous,
            last.pixels.width == thumbnailWidth, last.pixels.height == thumbnailHeight(of: screen)
        {
            let canvas = PixelBuffer.reusing(canvas, width: last.pixels.width, height: last.pixels.height)
            if canvas !== last.pixels { canvas.copyPixels(from: last.pixels) }
            if let parts = redraw(changed, of: screen, in: canvas) {
                picture.base = previous
                picture.parts = parts.map { ($0, canvas.copy($0)) }
                self.canvas = canvas
                lastPainted = (picture, canvas)
                return canvas
            }
        }
        let whole = thumbnail(screen)
        picture.whole = whole
        lastPainted = (picture, whole)
        return whole
    }
}
