import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelRender
import ShowreelWire

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
    public struct Entry: Sendable {
        public var title: String
        public var start: Duration
        public var end: Duration
        public var query: String?
        /// In screen points.
        public var target: Rect?
        public var before: PixelBuffer?
        public var after: PixelBuffer?
        public var tree: [ElementSnapshot]
        public var error: String?
        public var isInterrupted = false
    }

    /// A traced action in progress; nil when an open entry absorbed it.
    public struct Handle: Sendable {
        let index: Int
    }

    /// Thumbnail width in pixels; the height follows the screen's aspect.
    public let thumbnailWidth: Int
    private let lock = NSLock()
    private var recorded: [Entry] = []
    /// The entry being traced: actions inside it add to it instead of making their own.
    private var open: Int?

    public init(thumbnailWidth: Int = 195) {
        self.thumbnailWidth = thumbnailWidth
    }

    /// Everything traced so far, in order.
    public var entries: [Entry] { lock.withLock { recorded } }

    /// The entry begun and not yet ended, if any (a step opened through the automation API).
    public var openEntry: Handle? { lock.withLock { open.map(Handle.init) } }

    /// The last picture made, by the time of the frame it shows: the screen an action ends on
    /// is mostly the one the next begins on, and that picture is made once.
    private var lastPicture: (time: Duration, pixels: PixelBuffer)?
    /// The last element tree taken, by the time of the frame on screen then: while no new frame
    /// was drawn, nothing on screen changed, and a wait and the tap after it share one tree.
    private var lastTree: (time: Duration, tree: [ElementSnapshot])?

    /// The element tree of the screen `frame` shows: taken with `take`, or the one taken already
    /// while that frame was on screen.
    func tree(on frame: Frame, _ take: () -> [ElementSnapshot]) -> [ElementSnapshot] {
        if let lastTree = lock.withLock({ lastTree }), lastTree.time == frame.presentationTime { return lastTree.tree }
        let tree = take()
        lock.withLock { lastTree = (frame.presentationTime, tree) }
        return tree
    }

    /// Whether an action looking for `query` needs the screen's tree: for an entry of its own,
    /// or to find the target of the entry open now, which has none yet.
    func needsTree(toFind query: ElementQuery?) -> Bool {
        lock.withLock {
            guard let open else { return true }
            return query != nil && recorded[open].target == nil
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
            if recorded[open].query == nil, let query { recorded[open].query = query.description }
            if recorded[open].target == nil, let target { recorded[open].target = target }
            return true
        }
        if absorbed { return nil }
        let entry = Entry(
            title: title, start: time, end: time, query: query?.description, target: target,
            before: picture(of: screen()), after: nil, tree: tree(), error: nil)
        return lock.withLock {
            recorded.append(entry)
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
            recorded[handle.index].end = time
            recorded[handle.index].after = picture
            recorded[handle.index].error = error
            recorded[handle.index].isInterrupted = interrupted
            if open == handle.index { open = nil }
        }
    }

    private func picture(of frame: Frame) -> PixelBuffer {
        if let lastPicture = lock.withLock({ lastPicture }), lastPicture.time == frame.presentationTime { return lastPicture.pixels }
        let pixels = thumbnail(frame.pixels)
        lock.withLock { lastPicture = (frame.presentationTime, pixels) }
        return pixels
    }

    private func thumbnail(_ screen: PixelBuffer) -> PixelBuffer {
        let height = max(1, Int((Double(screen.height) * Double(thumbnailWidth) / Double(screen.width)).rounded()))
        let small = PixelBuffer(width: thumbnailWidth, height: height, zeroed: false)
        FrameScaler.shrink(screen, into: small)
        return small
    }
}
