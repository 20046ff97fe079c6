#if compiler(>=6.3) && os(Linux)
import Glibc

/// The last stop signal (SIGINT or SIGTERM) the early handler caught, 0 for none. Statically
/// initialised (it lives in a section), so the handler may touch it before the Swift runtime
/// has initialised anything; `SignalTrap` reads and clears it.
@section(".data.showreel_early_stop")
nonisolated(unsafe) var earlyStopSignal: Int32 = 0

/// The commands that run until stopped (the recorder, the tunnel host, the WebDriver server, a
/// booted device, a flow run, the studio) catch SIGINT and SIGTERM from their first instruction: this
/// function sits in the executable's pre-init array, which the dynamic loader runs before any
/// library's initialiser and before any thread exists. It blocks both signals (threads inherit
/// the mask) and installs a handler that only records them. A stop sent while the process was
/// still loading would otherwise kill it with nothing written, or, where the signal was
/// inherited as ignored (a `cmd &` in a script), be lost and leave it running forever; and the
/// main thread's park (`dispatch_main` waits in `sigsuspend` with nothing blocked) would let a
/// pending SIGINT kill the recorder with no file. `SignalTrap` later picks up what was recorded;
/// every one of these commands makes one. Children get a clean mask and default handlers (swift-
/// subprocess and `XvfbServer` reset both). Only C calls here: the Swift runtime is not
/// initialised yet.
@used @section(".preinit_array")
let holdStopSignals:
    @convention(c) (
        Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Void = { argc, argv, environment in
        // A tunnel host's standby holds them too while it waits: what it will run is not known
        // yet, and a stop then is taken as one for the command (see `StandbyStart`).
        guard runsUntilStopped(argc, argv) || isStandby(environment) else { return }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in earlyStopSignal = number }
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

/// Whether `argv` is a command that runs until stopped. Only C calls (see above).
func runsUntilStopped(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Bool {
    guard argc > 1, let argv else { return false }
    func argument(_ index: Int, is word: StaticString) -> Bool {
        guard index < argc, let value = argv[index] else { return false }
        return strcmp(value, UnsafeRawPointer(word.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }
    return argument(1, is: "host") || argument(1, is: "webdriver") || argument(1, is: "run") || argument(1, is: "studio")
        || (argument(1, is: "device") && argument(2, is: "boot"))
        || (argument(1, is: "io") && argument(3, is: "recordVideo"))
}

/// Whether the environment marks this process as a tunnel host's standby. Only C calls.
private func isStandby(_ environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Bool {
    guard var entry = environment else { return false }
    let marker: StaticString = "SHOWREEL_STANDBY=1"  // HostAPI.Standby.environmentKey, set to "1"
    while let text = entry.pointee {
        if strcmp(text, UnsafeRawPointer(marker.utf8Start).assumingMemoryBound(to: CChar.self)) == 0 { return true }
        entry += 1
    }
    return false
}

/// Gives up the hold for a standby's command that does not run until stopped: default
/// handlers, signals unblocked, so a stop ends it as it ends any program; one that came while
/// the hold was on ends it now.
func releaseStopSignals() {
    let pending = earlyStopSignal
    earlyStopSignal = 0
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    if pending != 0 { raise(pending) }
}

/// Takes the stop signal the early handler caught, if any.
func takeEarlyStopSignal() -> Int32? {
    let number = earlyStopSignal
    guard number != 0 else { return nil }
    earlyStopSignal = 0
    return number
}
#else
func takeEarlyStopSignal() -> Int32? { nil }
func runsUntilStopped(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Bool { false }
func releaseStopSignals() {}
#endif
