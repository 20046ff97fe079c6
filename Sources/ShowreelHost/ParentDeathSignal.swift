import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Makes children die with the host, even when the host is killed with SIGKILL and cannot end
/// them itself: on Linux each command starts through util-linux's `setpriv --pdeathsig KILL`,
/// which sets the parent-death signal (`prctl(PR_SET_PDEATHSIG, SIGKILL)`) and then execs the
/// program (no shell; the pid is the program's). swift-subprocess has no pre-exec hook to call
/// prctl itself.
///
/// The kernel sends the signal when the *thread* that spawned the child exits. swift-subprocess
/// spawns every child from one worker thread that lives until the process exits, so the
/// signal comes exactly when the host dies. The signal reaches the direct child only: what a
/// command started itself in its process group is ended by the host's own shutdown, not here.
enum ParentDeathSignal {
    /// `setpriv`, when it is installed and knows `--pdeathsig` (util-linux 2.33 and later).
    static func launcher() async -> String? {
        #if os(Linux)
        for candidate in ["/usr/bin/setpriv", "/bin/setpriv"] where FileManager.default.isExecutableFile(atPath: candidate) {
            let help = try? await Subprocess.run(
                .path(FilePath(candidate)), arguments: ["--help"], output: .string(limit: 64 * 1024), error: .discarded)
            if help?.standardOutput.contains("--pdeathsig") == true { return candidate }
        }
        #endif
        return nil
    }

    /// The arguments that make `launcher` exec `executablePath` with `arguments`.
    static func launcherArguments(executablePath: String, arguments: [String]) -> [String] {
        ["--pdeathsig", "KILL", "--", executablePath] + arguments
    }
}
