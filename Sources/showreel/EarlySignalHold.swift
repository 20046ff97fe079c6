#if compiler(>=6.3) && os(Linux)
import Glibc

/// The last stop signal (SIGINT or SIGTERM) the early handler caught, 0 for none. Statically
/// initialised (it lives in a section), so the handler may touch it before the Swift runtime
/// has initialised anything; `SignalTrap` reads and clears it.
@section(".data.showreel_early_stop")
nonisolated(unsafe) var earlyStopSignal: Int32 = 0

/// The recorder catches SIGINT and SIGTERM from its first instruction: this function sits in the
/// executable's pre-init array, which the dynamic loader runs before any library's initialiser
/// and before any thread exists. It blocks both signals (threads inherit the mask) and installs
/// a handler that only records them: the main thread's park (`dispatch_main` waits in
/// `sigsuspend` with nothing blocked) would otherwise let a pending SIGINT kill the process with
/// no file. `SignalTrap` later picks up what was recorded. Only C calls here: the Swift runtime
/// is not initialised yet.
@used @section(".preinit_array")
let holdRecorderStopSignals:
    @convention(c) (
        Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Void = { argc, argv, _ in
        guard argc > 3, let argv, let first = argv[1], let operation = argv[3],
            strcmp(first, UnsafeRawPointer(StaticString("io").utf8Start).assumingMemoryBound(to: CChar.self)) == 0,
            strcmp(operation, UnsafeRawPointer(StaticString("recordVideo").utf8Start).assumingMemoryBound(to: CChar.self)) == 0
        else { return }
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

/// Takes the stop signal the early handler caught, if any.
func takeEarlyStopSignal() -> Int32? {
    let number = earlyStopSignal
    guard number != 0 else { return nil }
    earlyStopSignal = 0
    return number
}
#else
func takeEarlyStopSignal() -> Int32? { nil }
#endif
