import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A command the host was asked to start, checked before anything runs (argv, NUL bytes, the
/// working directory, the program found on PATH, the allowlist, the environment) and turned
/// into swift-subprocess's configuration: its own session, so signals reach its whole process
/// group, started through `setpriv` when there is one, so it dies with the host.
struct CommandLaunch {
    let program: String
    /// The program as found on PATH (or as given, with a slash).
    let executablePath: String
    let argv: [String]
    /// The variables the request sets over the host's environment.
    let overrides: [String: String]
    let workingDirectory: String?
    private let environment: Environment
    private let gracePeriod: Duration

    /// Checks a request; throws the `CommandTableError` that says what to fix.
    init(argv: [String], environment: [String: String]?, workingDirectory: String?, configuration: TunnelHostConfiguration) throws {
        guard let program = argv.first, !program.isEmpty else {
            throw CommandTableError(
                .invalidArguments, "nothing to run: argv is empty; send the program and its arguments, e.g. [\"echo\", \"hello\"]")
        }
        try Self.checkNoNUL(argv: argv, environment: environment ?? [:], workingDirectory: workingDirectory)
        if let cwd = workingDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: cwd, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandTableError(
                    .invalidArguments,
                    "working directory '\(cwd)' does not exist or is not a directory; send an existing absolute path as cwd, or leave it out to use the host's"
                )
            }
        }
        let searchPath = environment?["PATH"] ?? ExecutableResolver.hostSearchPath
        guard let path = Self.locate(program, searchPath: searchPath, workingDirectory: workingDirectory, configuration: configuration)
        else {
            if program.contains("/") {
                throw CommandTableError(.failedToStart, "program '\(program)' not found or not executable: no executable file at that path")
            }
            throw CommandTableError(
                .failedToStart,
                "program '\(program)' not found on PATH (\(searchPath)); install it, fix the spelling, or pass an absolute path")
        }
        try Self.checkAllowed(program: program, resolvedPath: path, configuration: configuration)
        try Self.checkEnvironmentAllowed(environment ?? [:], configuration: configuration)

        var env = Environment.inherit
        if let environment, !environment.isEmpty {
            var changes: [Environment.Key: String?] = [:]
            for (key, value) in environment {
                guard let k = Environment.Key(rawValue: key) else {
                    throw CommandTableError(.invalidArguments, "invalid environment variable name '\(key)'")
                }
                changes[k] = value
            }
            env = env.updating(changes)
        }
        self.program = program
        executablePath = path
        self.argv = argv
        overrides = environment ?? [:]
        self.environment = env
        self.workingDirectory = workingDirectory
        gracePeriod = configuration.gracePeriod
    }

    /// How swift-subprocess starts it; through `deathSignalLauncher` (`setpriv`) when there is one.
    func configuration(deathSignalLauncher: String?) -> Configuration {
        var platformOptions = PlatformOptions()
        platformOptions.createSession = true
        // Backstop only: the host ends children itself with signals to the whole group.
        platformOptions.teardownSequence = [
            .send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: gracePeriod)
        ]
        let executable: Executable
        let arguments: Arguments
        if let launcher = deathSignalLauncher {
            executable = .path(FilePath(launcher))
            arguments = Arguments(ParentDeathSignal.launcherArguments(executablePath: executablePath, arguments: Array(argv.dropFirst())))
        } else {
            executable = .path(FilePath(executablePath))
            arguments = Arguments(executablePathOverride: program, remainingValues: Array(argv.dropFirst()))
        }
        return Configuration(
            executable: executable,
            arguments: arguments,
            environment: environment,
            workingDirectory: workingDirectory.map { FilePath($0) },
            platformOptions: platformOptions
        )
    }

    /// The program found on `searchPath`, else, for a bare name the configuration runs as the
    /// host's own executable (`showreel`), that executable.
    static func locate(_ program: String, searchPath: String, workingDirectory: String?, configuration: TunnelHostConfiguration) -> String?
    {
        if let path = ExecutableResolver.resolve(program, searchPath: searchPath, workingDirectory: workingDirectory) { return path }
        guard !program.contains("/"), let own = configuration.programsRunAsHost[program], FileManager.default.isExecutableFile(atPath: own)
        else { return nil }
        return own
    }

    private static func checkAllowed(program: String, resolvedPath: String, configuration: TunnelHostConfiguration) throws {
        guard let allowed = configuration.allowedPrograms, !allowed.isEmpty else { return }
        let canonicalPath = ExecutableResolver.canonical(resolvedPath)
        let name = (resolvedPath as NSString).lastPathComponent
        for entry in allowed {
            guard
                let entryPath = locate(
                    entry, searchPath: ExecutableResolver.hostSearchPath, workingDirectory: nil, configuration: configuration)
            else { continue }
            if entryPath == resolvedPath { return }
            if ExecutableResolver.canonical(entryPath) == canonicalPath, (entryPath as NSString).lastPathComponent == name { return }
        }
        throw CommandTableError(
            .programNotAllowed,
            "program '\(program)' (\(resolvedPath)) is not allowed on this host: it only runs \(allowed.joined(separator: ", ")); restart it with --allow \(program) to permit it"
        )
    }

    /// A C string ends at its first NUL, so an argument holding one would reach the program cut
    /// short, not as sent.
    private static func checkNoNUL(argv: [String], environment: [String: String], workingDirectory: String?) throws {
        let fields =
            argv.enumerated().map { ("argv[\($0.offset)]", $0.element) }
            + environment.sorted { $0.key < $1.key }.flatMap { [("env name '\($0.key)'", $0.key), ("env['\($0.key)']", $0.value)] }
            + (workingDirectory.map { [("cwd", $0)] } ?? [])
        if let (field, _) = fields.first(where: { $0.1.utf8.contains(0) }) {
            throw CommandTableError(
                .invalidArguments,
                "\(field) holds a NUL character (\\u0000), which no program argument, environment variable or path can contain: it would be cut short there; remove it"
            )
        }
    }

    /// With an allowlist, the environment must not bring code of its own into an allowed program.
    private static func checkEnvironmentAllowed(_ environment: [String: String], configuration: TunnelHostConfiguration) throws {
        guard let allowed = configuration.allowedPrograms, !allowed.isEmpty else { return }
        let refused = LoaderEnvironment.loaderVariables(in: environment)
        guard !refused.isEmpty else { return }
        throw CommandTableError(
            .programNotAllowed,
            "environment variable\(refused.count == 1 ? "" : "s") \(refused.joined(separator: ", ")) \(refused.count == 1 ? "is" : "are") not allowed on this host: with --allow it refuses loader and interpreter variables (LD_*, PYTHONPATH, BASH_ENV, ...), which would make an allowed program run other code; leave \(refused.count == 1 ? "it" : "them") out of env"
        )
    }

    /// An error of swift-subprocess, said with its code and cause.
    static func describe(_ error: any Error) -> String {
        if let error = error as? SubprocessError {
            if let underlying = error.underlyingError {
                return "\(error.code) (\(underlying))"
            }
            return "\(error)"
        }
        return "\(error)"
    }
}
