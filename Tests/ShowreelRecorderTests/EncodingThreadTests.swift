import Foundation
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

@Suite("Encoding thread")
struct EncodingThreadTests {
    /// What the jobs did, in order, from the encoding thread.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    static func job(_ picture: Int) -> EncodingThread.Job { EncodingThread.Job(picture: picture, pts: Int64(picture), keyframe: false) }

    @Test("a picture handed over is encoded while the caller goes on; the next waits for it; all in order")
    func handsOverAndGoesOn() async throws {
        let (whileFirst, all) = try await offPool {
            let log = Log()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let thread = EncodingThread(name: "test.encode") { job throws(RecorderError) in
                log.add("start \(job.picture)")
                if job.picture == 0 {
                    started.signal()
                    // Bounded: a handing over that waited for this job would come back only after it.
                    _ = release.wait(timeout: .now() + 10)
                }
                log.add("end \(job.picture)")
            }
            defer { thread.stop() }
            try thread.hand(Self.job(0))
            _ = started.wait(timeout: .now() + 10)
            let whileFirst = log.all
            release.signal()
            for picture in 1...5 { try thread.hand(Self.job(picture)) }
            try thread.settle()
            return (whileFirst, log.all)
        }
        // hand(_:) came back while job 0 was still being encoded.
        #expect(whileFirst == ["start 0"])
        #expect(all == (0...5).flatMap { ["start \($0)", "end \($0)"] })
    }

    @Test("what encoding a picture failed with is thrown by the next handing over and by settle, and no later job runs")
    func failuresReachTheCaller() async throws {
        let expected = RecorderError.encodeFailed(file: "test.mp4", message: "no more room")
        let (thrown, all) = try await offPool {
            let log = Log()
            let thread = EncodingThread(name: "test.encode") { job throws(RecorderError) in
                log.add("job \(job.picture)")
                if job.picture == 1 { throw expected }
            }
            defer { thread.stop() }
            try thread.hand(Self.job(0))
            try thread.hand(Self.job(1))
            var thrown: [RecorderError?] = []
            do throws(RecorderError) { try thread.hand(Self.job(2)) } catch { thrown.append(error) }
            do throws(RecorderError) { try thread.settle() } catch { thrown.append(error) }
            return (thrown, log.all)
        }
        #expect(thrown == [expected, expected])
        #expect(all == ["job 0", "job 1"])
    }

    @Test(
        "a recorder with threads 0 encodes on a thread of its own until it finishes; with threads 1 all on its own thread",
        arguments: [0, 1])
    func recorderThreads(threads: Int) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("threads.mp4")
            let (whileRecording, afterwards, frames) = try await offPool {
                let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: RecordingOptions(threads: threads))
                for index in 0..<6 { try recorder.append(makeFrame(index: index, at: .milliseconds(100 * index))) }
                let whileRecording = recorder.encodesOnAThreadOfItsOwn
                let summary = try recorder.finish(stopTime: .milliseconds(600))
                return (whileRecording, recorder.encodesOnAThreadOfItsOwn, summary.framesEncoded)
            }
            #expect(whileRecording == (threads == 0))
            #expect(!afterwards)
            #expect(frames == 6)
            let probe = try await offPool { try MediaProbe.probe(url) }
            #expect(probe.frameCount == 6)
        }
    }

    @Test("stopping waits for the picture in hand")
    func stopWaitsForTheJobInHand() async throws {
        let all = try await offPool {
            let log = Log()
            let thread = EncodingThread(name: "test.encode") { job throws(RecorderError) in
                Thread.sleep(forTimeInterval: 0.05)
                log.add("done \(job.picture)")
            }
            try thread.hand(Self.job(7))
            thread.stop()
            return log.all
        }
        #expect(all == ["done 7"])
    }
}
