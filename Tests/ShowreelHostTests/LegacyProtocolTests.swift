import Foundation
import ShowreelTestSupport
import Testing

@testable import ShowreelHost

/// The SBTUITestTunnelHost wire protocol, byte for byte as the iOS client speaks it.
@Suite("Legacy SBTUITestTunnelHost protocol", .timeLimit(.minutes(10)))
struct LegacyProtocolTests {
    @Test("/exec runs a command and answers {result, status: 1}")
    func exec() async throws {
        try await withHost { base in
            let object = try await legacyJSON(base, "exec", command: base64("echo hello world"))
            #expect(Set(object.keys) == ["result", "status"])
            #expect(object["result"] as? String == "hello world\n")
            #expect(object["status"] as? Int == 1)
        }
    }

    @Test("/exec with an empty command answers an empty result (the client's connect check)")
    func execEmpty() async throws {
        try await withHost { base in
            let object = try await legacyJSON(base, "exec", command: "")
            #expect(object["result"] as? String == "")
            #expect(object["status"] as? Int == 1)
        }
    }

    @Test("/exec splits quotes like a shell, without one")
    func execQuoting() async throws {
        try await withHost { base in
            let object = try await legacyJSON(base, "exec", command: base64(#"printf '%s\n' "a b" c"#))
            #expect(object["result"] as? String == "a b\nc\n")
            let literal = try await legacyJSON(base, "exec", command: base64(#"echo '$HOME' "it's""#))
            #expect(literal["result"] as? String == "$HOME it's\n")
        }
    }

    @Test("/exec returns stdout and stderr")
    func execStderr() async throws {
        try await withHost { base in
            let object = try await legacyJSON(base, "exec", command: base64(#"sh -c 'echo out; echo err >&2; exit 3'"#))
            let result = try #require(object["result"] as? String)
            #expect(result.contains("out\n") && result.contains("err\n"))
            #expect(object["status"] as? Int == 1)
        }
    }

    @Test("/exec of a program that does not exist answers status -1 naming it")
    func execMissingProgram() async throws {
        try await withHost { base in
            let object = try await legacyJSON(base, "exec", command: base64("no-such-program-7f3a --flag"))
            #expect(Set(object.keys) == ["result", "status"])
            #expect(object["status"] as? Int == -1)
            let message = try #require(object["result"] as? String)
            #expect(message.contains("no-such-program-7f3a"))
            #expect(message.contains("not found on PATH"))
        }
    }

    @Test("a chatty command never blocks on a full pipe and its output is complete")
    func chatty() async throws {
        try await withHost { base in
            let object = try await legacyJSON(base, "exec", command: base64("seq 1 200000"))
            let result = try #require(object["result"] as? String)
            let lines = result.split(separator: "\n")
            #expect(lines.count == 200000)
            #expect(lines.first == "1" && lines.last == "200000")

            // The same through /launch: drained while it runs, complete in stdOut.
            let launched = try await legacyJSON(base, "launch", command: base64("seq 1 200000"))
            let id = try #require(launched["result"] as? String)
            let finished = try await legacyWaitFinished(base, id)
            let stdOut = try #require(finished["stdOut"] as? String)
            #expect(stdOut.utf8.count == result.utf8.count)
            #expect(stdOut.hasSuffix("199999\n200000\n"))
        }
    }

    @Test("/launch, /status running and finished")
    func launchAndStatus() async throws {
        try await withHost { base in
            let launched = try await legacyJSON(base, "launch", command: base64(#"sh -c 'echo out; echo err >&2; read line; exit 3'"#))
            #expect(Set(launched.keys) == ["result", "status"])
            #expect(launched["status"] as? Int == 1)
            let id = try #require(launched["result"] as? String)
            #expect(UUID(uuidString: id) != nil)

            // stdin is /dev/null, so `read` returns at once; launch a sleeper to see "running".
            let sleeper = try #require(try await legacyJSON(base, "launch", command: base64("sleep 30"))["result"] as? String)
            let running = try await legacyJSON(base, "status", command: sleeper)
            #expect(Set(running.keys) == ["result"])
            let result = try #require(running["result"] as? [String: Any])
            #expect(Set(result.keys) == ["pid"])
            let pid = try #require(result["pid"] as? Int)
            #expect(pid > 0 && isAlive(Int32(pid)))

            let finished = try await legacyWaitFinished(base, id)
            #expect(Set(finished.keys) == ["terminationStatus", "terminationReason", "stdOut", "stdErr"])
            #expect(finished["terminationStatus"] as? Int == 3)
            #expect(finished["terminationReason"] as? Int == 1)
            #expect(finished["stdOut"] as? String == "out\n")
            #expect(finished["stdErr"] as? String == "err\n")
        }
    }

    @Test("/interrupt sends SIGINT and answers the final status")
    func interrupt() async throws {
        try await withHost { base in
            let id = try #require(try await legacyJSON(base, "launch", command: base64("sleep 30"))["result"] as? String)
            let pid = try #require(((try await legacyJSON(base, "status", command: id))["result"] as? [String: Any])?["pid"] as? Int)
            // Answered once the command ended: the final status, not the running form ({"pid": N})
            // that an answer after the host's 10 s wait would be. (A command younger than 3 s that
            // catches no SIGINT, like sleep, gets it when it is 3 s old.)
            let object = try await legacyJSON(base, "interrupt", command: id)
            let result = try #require(object["result"] as? [String: Any])
            #expect(Set(result.keys) == ["terminationStatus", "terminationReason", "stdOut", "stdErr"])
            #expect(result["terminationReason"] as? Int == 2)
            #expect(result["terminationStatus"] as? Int == 2)
            #expect(result["stdOut"] as? String == "")
            #expect(result["stdErr"] as? String == "")
            #expect(!isAlive(Int32(pid)))

            // Interrupting again answers the same final status.
            let again = try await legacyJSON(base, "interrupt", command: id)
            #expect((again["result"] as? [String: Any])?["terminationStatus"] as? Int == 2)
        }
    }

    @Test("/terminate sends SIGTERM to the whole process group")
    func terminateGroup() async throws {
        try await withHost { base in
            // The shell prints its background child's pid, then waits on it.
            let id = try #require(
                try await legacyJSON(base, "launch", command: base64(#"sh -c 'sleep 30 & echo $!; wait'"#))["result"] as? String)
            var grandchild: Int32 = 0
            let printed = try await eventually {
                let info = try await v1("GET", base, "/v1/commands/\(id)").jsonObject()
                grandchild = Int32((info["stdout"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                return grandchild > 0
            }
            #expect(printed)
            #expect(isAlive(grandchild))
            let object = try await legacyJSON(base, "terminate", command: id)
            let result = try #require(object["result"] as? [String: Any])
            #expect(result["terminationReason"] as? Int == 2)
            #expect(result["terminationStatus"] as? Int == 15)
            #expect(await eventually { !isAlive(grandchild) })
        }
    }

    @Test("unknown ids are 404 with a JSON error; a non-UUID is 400")
    func unknownID() async throws {
        try await withHost { base in
            for action in ["status", "interrupt", "terminate"] {
                let result = try await legacy(base, action, command: UUID().uuidString)
                #expect(result.status == 404)
                #expect((try result.jsonObject()["error"] as? String)?.contains("no command with id") == true)
            }
            let bad = try await legacy(base, "status", command: "not-a-uuid")
            #expect(bad.status == 400)
            #expect((try bad.jsonObject()["error"] as? String)?.contains("UUID returned by /launch") == true)
        }
    }

    @Test("malformed requests are 400 with what to send instead")
    func malformed() async throws {
        try await withHost { base in
            let empty = try await http("POST", base.appendingPathComponent("exec"), body: Data())
            #expect(empty.status == 400)
            #expect((try empty.jsonObject()["error"] as? String)?.contains("command=") == true)

            let noCommand = try await http("POST", base.appendingPathComponent("launch"), body: Data("app_frame=x".utf8))
            #expect(noCommand.status == 400)
            #expect((try noCommand.jsonObject()["error"] as? String)?.contains("no 'command' field") == true)

            let badBase64 = try await http("POST", base.appendingPathComponent("exec"), body: Data("command=%%%not*base64".utf8))
            #expect(badBase64.status == 400)
            #expect((try badBase64.jsonObject()["error"] as? String)?.contains("base64") == true)

            let unbalanced = try await legacy(base, "exec", command: base64("echo 'oops"))
            #expect(unbalanced.status == 400)
            #expect((try unbalanced.jsonObject()["error"] as? String)?.contains("unbalanced single quote") == true)

            let pipe = try await legacy(base, "exec", command: base64("echo a | wc -l"))
            #expect(pipe.status == 400)
            #expect((try pipe.jsonObject()["error"] as? String)?.contains("'|'") == true)

            let json = try await http(
                "POST", base.appendingPathComponent("exec"), body: Data(#"{"command":"x"}"#.utf8),
                headers: ["Content-Type": "application/json"])
            #expect(json.status == 400)
            #expect((try json.jsonObject()["error"] as? String)?.contains("/v1/commands") == true)
        }
    }

    @Test("requests from web pages (Origin header) are refused")
    func originRefused() async throws {
        try await withHost { base in
            var headers = ["Content-Type": "application/x-www-form-urlencoded"]
            headers["Origin"] = "https://evil.example"
            let result = try await legacy(base, "exec", command: base64("echo pwned"), headers: headers)
            #expect(result.status == 403)
            #expect((try result.jsonObject()["error"] as? String)?.contains("Origin") == true)

            let rebinding = try await legacy(base, "exec", command: base64("echo pwned"), headers: ["Host": "evil.example:8667"])
            #expect(rebinding.status == 403)
        }
    }

    @Test("--allow refuses other programs")
    func programAllowlist() async throws {
        try await withHost(TunnelHostConfiguration(allowedPrograms: ["echo", "sleep"])) { base in
            let ok = try await legacyJSON(base, "exec", command: base64("echo allowed"))
            #expect(ok["result"] as? String == "allowed\n")
            let refused = try await legacyJSON(base, "exec", command: base64("seq 1 3"))
            #expect(refused["status"] as? Int == -1)
            #expect((refused["result"] as? String)?.contains("not allowed") == true)
            let launchRefused = try await legacyJSON(base, "launch", command: base64("/bin/sh -c true"))
            #expect(launchRefused["status"] as? Int == -1)
        }
    }
}
