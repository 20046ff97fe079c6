import Foundation
import ShowreelHost
import ShowreelTestSupport
import ShowreelTesting
import Testing

/// A program name the host runs as a given executable when the search path has none of that
/// name: the CLI maps `showreel` to itself, so a recorder launched through the host needs no
/// install. Here `/bin/echo` stands in for the host's own executable.
@Suite("Programs the host runs as itself", .timeLimit(.minutes(10)))
struct ProgramsRunAsHostTests {
    static let configuration = TunnelHostConfiguration(programsRunAsHost: ["showreel-self": "/bin/echo"])

    @Test("a name missing from PATH runs as the configured executable, with its arguments")
    func missingNameRunsAsHost() async throws {
        try await withHost(Self.configuration) { base in
            let host = TunnelHostClient(baseURL: base)
            let done = try await host.run(argv: ["showreel-self", "io", "booted"], environment: ["PATH": "/usr/bin:/bin"], wait: true)
            #expect(done.exitCode == 0)
            #expect(done.executable == "/bin/echo")
            #expect(try await host.output(done.id) == "io booted\n")
            // The legacy protocol, as an iOS suite sends it, finds it too.
            #expect(try await host.exec("showreel-self legacy") == "legacy\n")
        }
    }

    @Test("a program of that name on PATH wins; without the mapping the name is not found")
    func pathWins() async throws {
        let folder = try Workspace()
        let script = folder.file("showreel-self")
        try Data("#!/bin/sh\necho from-path\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try await withHost(Self.configuration) { base in
            let host = TunnelHostClient(baseURL: base)
            let done = try await host.run(argv: ["showreel-self"], environment: ["PATH": folder.url.path + ":/usr/bin:/bin"], wait: true)
            #expect(try await host.output(done.id) == "from-path\n")
        }
        try await withHost { base in
            let refused = await #expect(throws: TunnelHostClient.HostError.self) {
                _ = try await TunnelHostClient(baseURL: base).run(
                    argv: ["showreel-self"], environment: ["PATH": "/usr/bin:/bin"], wait: true)
            }
            #expect(refused?.message.contains("program 'showreel-self' not found on PATH") == true, "\(String(describing: refused))")
        }
    }

    @Test("an allowlist naming it allows it, though it is on no PATH")
    func allowlist() async throws {
        var configuration = Self.configuration
        configuration.allowedPrograms = ["showreel-self"]
        try await withHost(configuration) { base in
            let done = try await TunnelHostClient(baseURL: base).run(argv: ["showreel-self", "allowed"], wait: true)
            #expect(done.exitCode == 0)
        }
    }
}
