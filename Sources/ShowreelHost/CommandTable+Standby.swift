import Foundation
import Logging
import ShowreelWire
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

// Copies of `configuration.standbyExecutable` started before they are asked for (see
// `HostAPI.Standby`): the next command that runs that executable is handed to one, and is running
// as soon as it has read its request, with the 120 ms of loading FFmpeg's libraries behind it.
// It is a command like any other from then on: its own session, its output drained, its exit
// status reported, signals sent to its group. Up to `configuration.standbys` wait at once (one
// per core by default: tests that start together, in parallel, each find one), made after the
// first command that could have used one, so a host that never runs `showreel` never starts one.
extension CommandTable {
    /// A copy waiting for a command.
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

    /// Runs `launch` in a waiting standby when it can (returns nil when it cannot, and the
    /// caller starts the command afresh), and makes sure standbys wait for the next commands.
    func launchOnStandby(_ launch: CommandLaunch, kind: CommandKind) -> CommandSnapshot? {
        guard let path = standbyPath(for: launch) else { return nil }
        defer { startStandbys(path) }
        // The one waiting longest: the others may still be loading.
        guard
            let index = standbys.firstIndex(where: { $0.executablePath == path && $0.pid != nil && $0.claim != nil }),
            let pid = standbys[index].pid, let claim = standbys[index].claim
        else { return nil }
        let waiting = standbys.remove(at: index)
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

    /// Starts standbys of `path` until `configuration.standbys` are starting or waiting.
    private func startStandbys(_ path: String) {
        while standbys.count < configuration.standbys, !isShuttingDown, startStandby(path) {}
    }

    /// Starts one standby of `path`; false when it cannot.
    private func startStandby(_ path: String) -> Bool {
        guard !isShuttingDown,
            let launch = try? CommandLaunch(
                argv: [path], environment: [HostAPI.Standby.environmentKey: "1"], workingDirectory: nil, configuration: configuration)
        else { return false }
        let ends: (own: UnixSocket, child: Int32)
        do { ends = try UnixSocket.pairForChild() } catch {
            logger.warning("no standby: \(error)")
            return false
        }
        let token = UUID()
        let configuration = launch.configuration(deathSignalLauncher: deathSignalLauncher ?? nil)
        let logger = self.logger
        let input = FileDescriptor(rawValue: ends.child)
        var standby = Standby(token: token, executablePath: path, socket: ends.own)
        // It waits to be claimed, then runs as the command that claimed it.
        standby.task = Task.detached { [self] in
            await Self.run(
                configuration, input: .fileDescriptor(input, closeAfterSpawningProcess: true), table: self, logger: logger
            ) { pid in
                await self.standbyWaits(token, pid: pid)
            } unclaimed: {
                await self.standbyEnded(token)
            }
        }
        standbys.append(standby)
        return true
    }

    /// The standby runs: it is noted for the shutdown and the ledger like a command, and waits
    /// here for the command it is to run (nil: none, it is to end).
    private func standbyWaits(_ token: UUID, pid: Int32) async -> UUID? {
        guard let index = standbys.firstIndex(where: { $0.token == token }), !isShuttingDown else { return nil }
        groups.insert(pid)
        ledger?.record(session: pid)
        logger.debug("standby waiting", metadata: ["pid": "\(pid)"])
        // Nothing suspends before the continuation is kept: the index still holds.
        return await withCheckedContinuation { continuation in
            standbys[index].pid = pid
            standbys[index].claim = continuation
        }
    }

    /// A standby that ended unclaimed (or never started) is forgotten.
    private func standbyEnded(_ token: UUID) {
        guard let index = standbys.firstIndex(where: { $0.token == token }) else { return }
        dismiss(standbys.remove(at: index))
        forgetEndedGroups()
    }

    /// Ends the waiting standbys (at shutdown): their sockets close, so they exit.
    func dismissStandbys() {
        let waiting = standbys
        standbys = []
        waiting.forEach(dismiss)
    }

    private func dismiss(_ standby: Standby) {
        standby.socket.close()
        standby.claim?.resume(returning: nil)
    }
}
