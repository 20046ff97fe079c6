import Foundation
import Logging
import ShowreelWire
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

// A copy of `configuration.standbyExecutable` started before it is asked for (see
// `HostAPI.Standby`): the next command that runs that executable is handed to it, and is running
// as soon as it has read its request, with the 120 ms of loading FFmpeg's libraries behind it.
// It is a command like any other from then on: its own session, its output drained, its exit
// status reported, signals sent to its group. One waits at a time, made after the first command
// that could have used one, so a host that never runs `showreel` never starts one.
extension CommandTable {
    /// The copy waiting for a command.
    struct Standby {
        /// Which start this is (an ended standby's late news is for none newer).
        let token: UUID
        /// The executable it runs, as the launch found it.
        let executablePath: String
        /// The host's end of the socket the standby reads its request from.
        let socket: UnixSocket
        var task: Task<Void, Never>?
        /// Set once it runs and waits: its pid, and how to hand it a command.
        var pid: Int32?
        var claim: CheckedContinuation<UUID?, Never>?
    }

    /// Runs `launch` in the waiting standby when it can (returns nil when it cannot, and the
    /// caller starts the command afresh), and makes sure one waits for the next command.
    func launchOnStandby(_ launch: CommandLaunch, kind: CommandKind) -> CommandSnapshot? {
        guard let path = standbyPath(for: launch) else { return nil }
        defer { startStandby(path) }
        guard let waiting = standby, waiting.executablePath == path, let pid = waiting.pid, let claim = waiting.claim else {
            return nil
        }
        standby = nil
        let request = HostAPI.Standby.Request(argv: launch.argv, environment: launch.overrides, workingDirectory: launch.workingDirectory)
        // One that died while it waited (killed, say) is seen in /proc: a write alone would not
        // tell, as the spawn's copy of its socket end may still be open here.
        let alive = ProcessStat.read(pid).map { !$0.hasExited } ?? false
        let handedOver = alive && (try? waiting.socket.write(Array(request.line()))) != nil
        waiting.socket.close()
        guard handedOver else {
            // It is gone (killed, or it failed to start): the command starts afresh.
            claim.resume(returning: nil)
            logger.notice("the waiting standby was gone; starting the command afresh", metadata: ["pid": "\(pid)"])
            return nil
        }
        let id = addRecord(argv: launch.argv, executablePath: launch.executablePath, kind: kind)
        records[id]?.task = waiting.task
        records[id]?.pid = pid  // its session is in `groups` and the ledger since it started
        claim.resume(returning: id)
        changed(id)
        logger.info(
            "started command",
            metadata: [
                "id": "\(id)", "pid": "\(pid)", "kind": "\(kind.rawValue)", "argv": "\(ShellWords.join(launch.argv))", "standby": "yes",
            ])
        evictFinished()
        return snapshot(id, output: .none)
    }

    /// The standby executable when `launch` runs it and could run in one: the environment it
    /// asks for must not be one that changes how a program loads (that is fixed at the start).
    private func standbyPath(for launch: CommandLaunch) -> String? {
        guard !isShuttingDown, let path = configuration.standbyExecutable,
            ExecutableResolver.canonical(launch.executablePath) == ExecutableResolver.canonical(path),
            LoaderEnvironment.loaderVariables(in: launch.overrides).isEmpty
        else { return nil }
        return launch.executablePath
    }

    /// Starts a standby of `path` unless one is already starting or waiting.
    private func startStandby(_ path: String) {
        guard standby == nil, !isShuttingDown,
            let launch = try? CommandLaunch(
                argv: [path], environment: [HostAPI.Standby.environmentKey: "1"], workingDirectory: nil, configuration: configuration)
        else { return }
        let ends: (own: UnixSocket, child: Int32)
        do { ends = try UnixSocket.pairForChild() } catch {
            logger.warning("no standby: \(error)")
            return
        }
        let token = UUID()
        let configuration = launch.configuration(deathSignalLauncher: deathSignalLauncher ?? nil)
        let logger = self.logger
        let input = FileDescriptor(rawValue: ends.child)
        standby = Standby(token: token, executablePath: path, socket: ends.own)
        // It waits to be claimed, then runs as the command that claimed it.
        standby?.task = Task.detached { [self] in
            await Self.run(
                configuration, input: .fileDescriptor(input, closeAfterSpawningProcess: true), table: self, logger: logger
            ) { pid in
                await self.standbyWaits(token, pid: pid)
            } unclaimed: {
                await self.standbyEnded(token)
            }
        }
    }

    /// The standby runs: it is noted for the shutdown and the ledger like a command, and waits
    /// here for the command it is to run (nil: none, it is to end).
    private func standbyWaits(_ token: UUID, pid: Int32) async -> UUID? {
        guard standby?.token == token, !isShuttingDown else { return nil }
        groups.insert(pid)
        ledger?.record(session: pid)
        logger.debug("standby waiting", metadata: ["pid": "\(pid)"])
        return await withCheckedContinuation { continuation in
            standby?.pid = pid
            standby?.claim = continuation
        }
    }

    /// A standby that ended unclaimed (or never started) is forgotten.
    private func standbyEnded(_ token: UUID) {
        guard standby?.token == token else { return }
        dismissStandby()
        forgetEndedGroups()
    }

    /// Ends the waiting standby (at shutdown): its socket closes, so it exits.
    func dismissStandby() {
        guard let waiting = standby else { return }
        standby = nil
        waiting.socket.close()
        waiting.claim?.resume(returning: nil)
    }
}
