import Foundation

/// The thread a `VideoEncoder` encodes its pictures on, one at a time, so that the next
/// picture is converted while the one before is encoded. x264's slice threads keep about one
/// and a half of two cores busy, and converting a picture's changed bands on the recorder's
/// thread used to wait for them (6-7% of a 1170x2532 recording's time in `make bench`).
/// Handing over a picture waits for the one before; what encoding it failed with is thrown
/// then, or by `settle()`.
final class EncodingThread: @unchecked Sendable {
    /// One picture to encode: which of the encoder's pictures, at what time.
    struct Job {
        var picture: Int
        var pts: Int64
        var keyframe: Bool
    }

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var job: Job?
    private var failure: RecorderError?
    private var stopping = false
    private var stopped = false
    private let work: (Job) throws(RecorderError) -> Void

    /// Starts a thread that runs `work` for each job handed over, at the calling thread's priority.
    init(name: String, work: @escaping (Job) throws(RecorderError) -> Void) {
        self.work = work
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.qualityOfService = Thread.current.qualityOfService
        thread.start()
    }

    /// Waits for the job handed over before, then hands `job` over. Throws the first failure of
    /// any job before instead (and keeps throwing it: the recording cannot go on).
    func hand(_ job: Job) throws(RecorderError) {
        condition.lock()
        defer { condition.unlock() }
        while self.job != nil { condition.wait() }
        if let failure { throw failure }
        precondition(!stopping, "a picture handed to a stopped encoding thread")
        self.job = job
        condition.broadcast()
    }

    /// Waits until the job handed over last is done; throws the first failure of any job.
    func settle() throws(RecorderError) {
        condition.lock()
        defer { condition.unlock() }
        while job != nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the thread once the job in hand is done, and waits for it.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while job == nil, !stopping { condition.wait() }
            guard let current = job else { break }
            condition.unlock()
            var failed: RecorderError?
            do { try work(current) } catch { failed = error }
            condition.lock()
            if failure == nil { failure = failed }
            job = nil
            condition.broadcast()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
