import ShowreelGraphics

/// A video's timeline at a variable frame rate: which frames are written and at which
/// timestamp, which pictures are repeated (a long hold, an idle screen kept current), and how
/// long the last one lasts until the stop time. Timestamps are ticks of `timescale` since the
/// first frame written. Arithmetic only, no FFmpeg: `VideoRecorder` asks, then encodes what
/// it is told, and `FrameTimelineTests` check the rules on their own.
struct FrameTimeline {
    static let timescale: Int64 = 90_000
    /// The longest a picture lasts in the file before it is written again: mov and mp4 keep a
    /// sample's duration in 32 bits of the 90 kHz time scale (6.6 hours at most), so a screen
    /// held for half a day would otherwise be refused by the muxer and lose the video.
    static let maximumHoldTicks: Int64 = 3600 * timescale
    /// How long the last frame lasts when the stop time is not after it: one frame at 60 Hz.
    static let minimumLastFrameTicks = Frame.refreshInterval.nanoseconds * timescale / 1_000_000_000

    /// A picture to write: when, and whether the encoder must make it a keyframe.
    struct Stamp: Equatable {
        let pts: Int64
        let keyframe: Bool
    }

    /// Where a frame goes: after `repeats` of the picture before it (a hold split up), at `stamp`.
    struct Placement: Equatable {
        let repeats: [Stamp]
        let stamp: Stamp
    }

    /// What to do with a frame that arrives (see `arrival(of:holding:)`).
    enum Arrival: Equatable {
        /// Write it now: no maximum frame rate, or nothing written yet.
        case write
        /// Hold it until its refresh is over; first write the frame held before, if any.
        case hold
        /// It is newer than the held frame, in the same refresh: it takes the held frame's place.
        case supersede
        /// It is older than the held frame: not shown.
        case drop
    }

    /// The least time between two frames, in ticks (one unit of the file's track).
    let minimumGap: Int64
    /// The most time between two keyframes.
    let keyframeTicks: Int64
    /// With a maximum frame rate: the length of one refresh.
    let refreshTicks: Int64?
    let maximumHoldTicks: Int64

    /// The device-clock time of the first frame written: the video's zero.
    private(set) var firstFrameTime: Duration?
    /// The device-clock time of the last frame written (not of a repeat).
    private(set) var lastFrameTime: Duration?
    /// The last timestamp written (a frame or a repeat); -1 before the first.
    private(set) var lastPts: Int64 = -1
    private var lastKeyframePts: Int64?
    /// Whether the last picture written was a repeat kept current: a new frame may then be
    /// stamped just after it, as the repeat's time was only an estimate of "now".
    private var lastWasRepeat = false

    init(minimumGap: Int64, keyframeTicks: Int64, refreshTicks: Int64? = nil, maximumHoldTicks: Int64 = Self.maximumHoldTicks) {
        self.minimumGap = minimumGap
        self.keyframeTicks = keyframeTicks
        self.refreshTicks = refreshTicks
        self.maximumHoldTicks = maximumHoldTicks
    }

    /// `time` in ticks since the first frame written (nil before it).
    func ticks(at time: Duration) -> Int64? {
        firstFrameTime.map { (time - $0).ticks(timescale: Self.timescale) }
    }

    /// With a maximum frame rate, a frame at `time` is held until a frame of a later refresh
    /// arrives, as a display shows only the newest frame of each refresh. `held` is the time of
    /// the frame held now, if any.
    func arrival(of time: Duration, holding held: Duration?) -> Arrival {
        guard let refreshTicks, let first = firstFrameTime else { return .write }
        guard let held else { return .hold }
        if time < held { return .drop }
        let refresh = { (time: Duration) in (time - first).ticks(timescale: Self.timescale) / refreshTicks }
        return refresh(time) == refresh(held) ? .supersede : .hold
    }

    /// The ticks from `time` to the end of its refresh (nil without a maximum frame rate or
    /// before the first frame).
    func ticksLeftInRefresh(at time: Duration) -> Int64? {
        guard let refreshTicks, let ticks = ticks(at: time) else { return nil }
        return (ticks / refreshTicks + 1) * refreshTicks - ticks
    }

    /// Places a frame shown at `time` (device-clock time), or nil when its time went backwards
    /// (it is dropped). A frame at the time of the one before, or less than `minimumGap` after,
    /// is moved `minimumGap` after it; a frame more than `maximumHoldTicks` after it comes
    /// after repeats of the picture before.
    mutating func place(_ time: Duration) -> Placement? {
        let first = firstFrameTime ?? time
        var pts = (time - first).ticks(timescale: Self.timescale)
        if lastWasRepeat, lastPts >= 0, pts < lastPts + minimumGap { pts = lastPts + minimumGap }
        if pts < 0 || pts < lastPts { return nil }
        if lastPts >= 0, pts < lastPts + minimumGap { pts = lastPts + minimumGap }
        let repeats = repeats(before: pts)
        let stamp = Stamp(pts: pts, keyframe: isKeyframe(pts))
        if stamp.keyframe { lastKeyframePts = pts }
        firstFrameTime = first
        lastFrameTime = time
        lastPts = pts
        lastWasRepeat = false
        return Placement(repeats: repeats, stamp: stamp)
    }

    /// The repeats of the last picture, every `maximumHoldTicks`, that hold it until `pts`.
    /// Each repeat is a keyframe when one is due, so the video seeks there.
    mutating func repeats(before pts: Int64) -> [Stamp] {
        guard lastPts >= 0 else { return [] }
        var repeats: [Stamp] = []
        while pts - lastPts > maximumHoldTicks {
            let at = lastPts + maximumHoldTicks
            let stamp = Stamp(pts: at, keyframe: isKeyframe(at))
            if stamp.keyframe { lastKeyframePts = at }
            lastPts = at
            repeats.append(stamp)
        }
        return repeats
    }

    /// The repeats that hold the last picture until `stopTime`.
    mutating func repeats(until stopTime: Duration) -> [Stamp] {
        guard let stop = ticks(at: stopTime) else { return [] }
        return repeats(before: stop)
    }

    /// The timestamp at which the last picture is written once more to keep the file current
    /// at `time` (never a keyframe), or nil when `time` is not at least `minimumGap` after the
    /// last timestamp (or nothing was written yet).
    mutating func repeatCurrent(at time: Duration) -> Int64? {
        guard let pts = ticks(at: time), lastPts >= 0, pts >= lastPts + minimumGap else { return nil }
        lastPts = pts
        lastWasRepeat = true
        return pts
    }

    /// How long the last picture, written at `pts`, lasts: until `stopTime`, or one 60 Hz frame
    /// when the stop time is not after it.
    func lastFrameDuration(from pts: Int64, stopTime: Duration) -> Int64 {
        guard let stop = ticks(at: stopTime), stop > pts else { return Self.minimumLastFrameTicks }
        return stop - pts
    }

    /// A stop time for a recording that was never told one: the last frame held briefly.
    var fallbackStopTime: Duration {
        (lastFrameTime ?? .zero) + .ticks(Self.minimumLastFrameTicks, timescale: Self.timescale)
    }

    private func isKeyframe(_ pts: Int64) -> Bool {
        lastKeyframePts.map { pts - $0 >= keyframeTicks } ?? true
    }
}
