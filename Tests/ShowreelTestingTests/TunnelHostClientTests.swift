import Foundation
import ShowreelHost
import ShowreelTestSupport
import ShowreelTesting
import Testing

@Suite("TunnelHostClient against a running host", .timeLimit(.minutes(10)))
struct TunnelHostClientTests {
    @Test("legacy calls")
    func legacyCalls() async throws {
        try await withHost { base in
            let client = TunnelHostClient(baseURL: base)
            #expect(try await client.exec(#"printf '%s\n' "a b" c"#) == "a b\nc\n")
            #expect(try await client.exec("") == "")
            await #expect(throws: TunnelHostClient.HostError.self) { try await client.exec("no-such-program-7f3a") }

            let id = try await client.launch("sleep 30")
            guard case .running(let pid) = try await client.status(id) else {
                Issue.record("expected running")
                return
            }
            #expect(isAlive(pid))
            let interrupted = try await client.interrupt(id)
            #expect(interrupted == .finished(status: 2, reason: .uncaughtSignal, stdout: "", stderr: ""))

            let echo = try await client.launch(#"sh -c 'echo out; echo err >&2'"#)
            #expect(
                try await client.waitUntilFinished(echo, timeout: .seconds(10))
                    == .finished(status: 0, reason: .exit, stdout: "out\n", stderr: "err\n"))

            let sleeper = try await client.launch("sleep 30")
            #expect(try await client.terminate(sleeper) == .finished(status: 15, reason: .uncaughtSignal, stdout: "", stderr: ""))

            await #expect(throws: TunnelHostClient.HostError.self) { try await client.status(UUID()) }
        }
    }

    @Test("v1 calls")
    func v1Calls() async throws {
        try await withHost(TunnelHostConfiguration(token: "t0ken")) { base in
            var client = TunnelHostClient(baseURL: base, token: "t0ken")
            #expect(try await client.health().status == "ok")
            #expect(try await client.exec("echo legacy") == "legacy\n")
            let done = try await client.run(argv: ["echo", "hi"], wait: true)
            #expect(done.exitCode == 0 && done.stdout == "hi\n")

            let running = try await client.run(argv: ["sleep", "30"])
            #expect(running.isRunning)
            #expect(try await client.commands().contains { $0.id == running.id })
            let stopped = try await client.interrupt(running.id, wait: true)
            #expect(stopped.state == "finished" && stopped.signal == 2)

            let chatty = try await client.run(argv: ["seq", "1", "50000"])
            let all = try await client.output(chatty.id, follow: true)
            #expect(all.split(separator: "\n").count == 50000)

            client.token = nil
            await #expect(throws: TunnelHostClient.HostError.self) { try await client.commands() }
            await #expect(throws: TunnelHostClient.HostError.self) { try await client.exec("echo legacy") }
        }
    }
}
