import Testing

@testable import ShowreelRecorder

/// The timeline's rules on their own, no FFmpeg: which frames are written at which timestamp,
/// repeats of long holds and of an idle screen, and how long the last frame lasts.
@Suite("FrameTimeline")
struct FrameTimelineTests {
    static let second = FrameTimeline.timescale
    static let millisecond = FrameTimeline.timescale / 1000

    /// Places a frame at `time`, which must not be dropped.
    func place(_ time: Duration, on timeline: inout FrameTimeline) throws -> FrameTimeline.Placement {
        let placement = timeline.place(time)
        return try #require(placement, "a frame at \(time) was dropped")
    }

    /// A `.mov`-like timeline: frames a millisecond apart at least, a keyframe every 2 s.
    func movTimeline(refreshTicks: Int64? = nil) -> FrameTimeline {
        FrameTimeline(minimumGap: Self.millisecond, keyframeTicks: 2 * Self.second, refreshTicks: refreshTicks)
    }

    @Test("the first frame is the video's zero and a keyframe; later ones count from it")
    func firstFrameIsZero() throws {
        var timeline = movTimeline()
        let first = try place(.seconds(5), on: &timeline)
        #expect(first == .init(repeats: [], stamp: .init(pts: 0, keyframe: true)))
        let second = try place(.milliseconds(5500), on: &timeline)
        #expect(second.stamp == .init(pts: Self.second / 2, keyframe: false))
        #expect(timeline.firstFrameTime == .seconds(5))
        #expect(timeline.lastFrameTime == .milliseconds(5500))
    }

    @Test("a frame at the same time as the one before is moved one gap later; a third at that time is behind it and dropped")
    func duplicateTimestamps() throws {
        var timeline = movTimeline()
        _ = timeline.place(.seconds(1))
        let second = try place(.seconds(1), on: &timeline)
        #expect(second.stamp.pts == Self.millisecond)
        let third = timeline.place(.seconds(1))
        #expect(third == nil)
        // Within the gap after the moved frame, a later frame is moved too.
        let within = try place(.microseconds(1_001_500), on: &timeline)
        #expect(within.stamp.pts == 2 * Self.millisecond)
        // An mp4-like timeline moves it a single tick.
        var fine = FrameTimeline(minimumGap: 1, keyframeTicks: Self.second)
        _ = fine.place(.zero)
        let moved = fine.place(.zero)
        #expect(moved?.stamp.pts == 1)
    }

    @Test("a frame whose time went backwards is dropped and changes nothing")
    func backwardsFrameIsDropped() throws {
        var timeline = movTimeline()
        _ = timeline.place(.seconds(2))
        _ = timeline.place(.seconds(3))
        let backwards = timeline.place(.milliseconds(2500))
        #expect(backwards == nil)
        let beforeFirst = timeline.place(.seconds(1))
        #expect(beforeFirst == nil, "before the first frame")
        #expect(timeline.lastPts == Self.second)
        #expect(timeline.lastFrameTime == .seconds(3))
    }

    @Test("a keyframe comes when the keyframe interval has passed since the last one")
    func keyframeInterval() throws {
        var timeline = movTimeline()
        let keyframes = try [0, 1, 1.9, 2, 3, 4.5].map { seconds in
            try place(.milliseconds(Int64(seconds * 1000)), on: &timeline).stamp.keyframe
        }
        #expect(keyframes == [true, false, false, true, false, true])
    }

    @Test("a hold longer than a sample may last is split into repeats, the last picture written every hour")
    func longHoldRepeats() throws {
        var timeline = movTimeline()
        _ = timeline.place(.zero)
        let hour = FrameTimeline.maximumHoldTicks
        let placement = try place(.seconds(14 * 3600), on: &timeline)
        #expect(placement.repeats.map(\.pts) == (1...13).map { Int64($0) * hour })
        #expect(placement.repeats.allSatisfy { $0.keyframe }, "an hour apart, each repeat is past the keyframe interval")
        #expect(placement.stamp == .init(pts: 14 * hour, keyframe: true))
        // Exactly an hour's hold needs no repeat.
        let anHourLater = try place(.seconds(15 * 3600), on: &timeline)
        #expect(anHourLater.repeats == [])
    }

    @Test("the stop time holds the last picture: repeats up to it, and the last frame lasts until it")
    func stopTime() throws {
        var timeline = movTimeline()
        _ = timeline.place(.seconds(10))
        _ = timeline.place(.seconds(12))
        #expect(timeline.lastFrameDuration(from: 2 * Self.second, stopTime: .seconds(15)) == 3 * Self.second)
        let repeats = timeline.repeats(until: .seconds(10 + 3 * 3600))
        let hour = FrameTimeline.maximumHoldTicks
        #expect(repeats.map(\.pts) == [2 * Self.second + hour, 2 * Self.second + 2 * hour])
    }

    @Test("a stop before the last frame, or at it, leaves it one 60 Hz frame")
    func stopBeforeLastFrame() {
        var timeline = movTimeline()
        _ = timeline.place(.seconds(10))
        _ = timeline.place(.seconds(12))
        let beforeLast = timeline.repeats(until: .seconds(11))
        #expect(beforeLast == [])
        #expect(timeline.lastFrameDuration(from: 2 * Self.second, stopTime: .seconds(11)) == FrameTimeline.minimumLastFrameTicks)
        #expect(timeline.lastFrameDuration(from: 2 * Self.second, stopTime: .seconds(12)) == FrameTimeline.minimumLastFrameTicks)
        let beforeFirst = timeline.lastFrameDuration(from: 2 * Self.second, stopTime: .seconds(1))
        #expect(beforeFirst == FrameTimeline.minimumLastFrameTicks, "before the first frame")
        #expect(FrameTimeline.minimumLastFrameTicks == 1500)
    }

    @Test("nothing written: no repeats, no repeat kept current, and a fallback stop just after zero")
    func emptyTimeline() {
        var timeline = movTimeline()
        let repeats = timeline.repeats(until: .seconds(100_000))
        #expect(repeats == [])
        let current = timeline.repeatCurrent(at: .seconds(5))
        #expect(current == nil)
        #expect(timeline.fallbackStopTime == .ticks(FrameTimeline.minimumLastFrameTicks, timescale: FrameTimeline.timescale))
        #expect(timeline.arrival(of: .seconds(1), holding: nil) == .write)
    }

    @Test("an idle screen is kept current by a repeat at least a gap later; a frame at the repeat's time lands just after it")
    func repeatCurrent() throws {
        var timeline = movTimeline()
        _ = timeline.place(.seconds(1))
        let tooSoon = timeline.repeatCurrent(at: .seconds(1))
        #expect(tooSoon == nil, "not a gap after the last frame")
        let repeated = timeline.repeatCurrent(at: .seconds(3))
        #expect(repeated == 2 * Self.second)
        // The repeat's time was an estimate of "now": a frame that was shown a little earlier
        // follows it rather than being dropped.
        let next = try place(.milliseconds(2900), on: &timeline)
        #expect(next.stamp.pts == 2 * Self.second + Self.millisecond)
        let backwards = timeline.place(.milliseconds(2950))
        #expect(backwards == nil, "after a frame, not a repeat, going backwards drops")
        #expect(timeline.fallbackStopTime > .milliseconds(2900))
    }

    @Test("under a maximum frame rate, frames are held per refresh: newer ones replace, older ones drop")
    func refreshArrivals() {
        let refresh = Self.second / 30
        var timeline = movTimeline(refreshTicks: refresh)
        #expect(timeline.arrival(of: .zero, holding: nil) == .write, "the first frame is written at once")
        _ = timeline.place(.zero)
        #expect(timeline.arrival(of: .milliseconds(40), holding: nil) == .hold)
        #expect(timeline.arrival(of: .milliseconds(50), holding: .milliseconds(40)) == .supersede, "same refresh (33-66 ms)")
        #expect(timeline.arrival(of: .milliseconds(70), holding: .milliseconds(40)) == .hold, "a later refresh")
        #expect(timeline.arrival(of: .milliseconds(30), holding: .milliseconds(40)) == .drop)
        #expect(timeline.ticksLeftInRefresh(at: .milliseconds(40)) == 2 * refresh - 40 * Self.millisecond)
        #expect(movTimeline().ticksLeftInRefresh(at: .zero) == nil, "no maximum frame rate")
    }
}
