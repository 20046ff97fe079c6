import Foundation
import ShowreelTestSupport
import Testing

@testable import ShowreelHost

@Suite("JSON API /v1", .timeLimit(.minutes(10)))
struct V1APITests {
    @Test("health")
    func health() async throws {
        try await withHost { base in
            let result = try await v1("GET", base, "/v1/health")
            #expect(result.status == 200)
            let object = try result.jsonObject()
            #expect(object["status"] as? String == "ok")
            #expect(object["version"] as? String == TunnelHost.version)
        }
    }

    @Test("run and wait: exit code, separate stdout and stderr, env and cwd")
    func runWait() async throws {
        try await withHost { base in
            let result = try await v1(
                "POST", base, "/v1/commands",
                json: [
                    "argv": ["sh", "-c", #"echo "$GREETING from $(pwd)"; echo oops >&2; exit 4"#],
                    "env": ["GREETING": "hello"],
                    "cwd": "/tmp",
                    "wait": true,
                ])
            #expect(result.status == 200)
            let object = try result.jsonObject()
            #expect(object["state"] as? String == "finished")
            #expect(object["terminationReason"] as? String == "exit")
            #expect(object["exitCode"] as? Int == 4)
            #expect(object["stdout"] as? String == "hello from /tmp\n")
            #expect(object["stderr"] as? String == "oops\n")
            #expect((object["pid"] as? Int ?? 0) > 0)
        }
    }

    @Test("run without waiting: 201 running, then state, list, follow")
    func runFollow() async throws {
        try await withHost { base in
            let created = try await v1(
                "POST", base, "/v1/commands",
                json: [
                    "argv": ["sh", "-c", "echo one; sleep 0.4; echo two >&2; sleep 0.4; echo three"]
                ])
            #expect(created.status == 201)
            let object = try created.jsonObject()
            #expect(object["state"] as? String == "running")
            let id = try #require(object["id"] as? String)
            let pid = try #require(object["pid"] as? Int)
            #expect(pid > 0)
            #expect(created.header("Location") == "/v1/commands/\(id)")

            let listed = try await v1("GET", base, "/v1/commands").jsonObject()
            let ids = (listed["commands"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.contains(id))

            let followed = try await v1("GET", base, "/v1/commands/\(id)/output?follow=true")
            #expect(followed.status == 200)
            #expect(followed.header("Content-Type")?.hasPrefix("text/plain") == true)
            // Both streams, each in order; across the two pipes the order is arrival order, which
            // a loaded machine may swap (stdout-only and stderr-only order is checked below).
            #expect(followed.text.split(separator: "\n").sorted() == ["one", "three", "two"])
            // It followed until the end: the command had finished when the response completed.

            let state = try await v1("GET", base, "/v1/commands/\(id)").jsonObject()
            #expect(state["state"] as? String == "finished")
            #expect(state["exitCode"] as? Int == 0)
            #expect(state["stdout"] as? String == "one\nthree\n")
            #expect(state["stderr"] as? String == "two\n")

            let stdoutOnly = try await v1("GET", base, "/v1/commands/\(id)/output?stream=stdout")
            #expect(stdoutOnly.text == "one\nthree\n")

            #expect(try await v1("DELETE", base, "/v1/commands/\(id)").status == 204)
            #expect(try await v1("GET", base, "/v1/commands/\(id)").status == 404)
        }
    }

    @Test("follow streams output while the command runs")
    func followStreams() async throws {
        try await withHost { base in
            let created = try await v1("POST", base, "/v1/commands", json: ["argv": ["sh", "-c", "echo first; sleep 30"]]).jsonObject()
            let id = try #require(created["id"] as? String)
            // Follow in the background; the first line must arrive long before the command ends.
            let follower = Task { try await v1("GET", base, "/v1/commands/\(id)/output?follow=true") }
            #expect(
                await eventually {
                    (try? await v1("GET", base, "/v1/commands/\(id)/output").text) == "first\n"
                })
            let stopped = try await v1("POST", base, "/v1/commands/\(id)/terminate?wait=true").jsonObject()
            #expect(stopped["signal"] as? Int == 15)
            let followed = try await follower.value
            #expect(followed.text == "first\n")
        }
    }

    @Test(
        "output?until= answers once the text is in the output (the command runs on), once the command ended without it, or at the timeout; bad uses are 400"
    )
    func outputUntil() async throws {
        try await withHost { base in
            // The text comes split over two writes, in the middle of a line; what comes 20 s
            // later is only in the answer when the split went unseen until the timeout.
            let created = try await v1(
                "POST", base, "/v1/commands",
                json: ["argv": ["sh", "-c", "printf 'Recording sta'; sleep 0.3; echo 'rted'; sleep 20; echo later; sleep 30"]]
            ).jsonObject()
            let id = try #require(created["id"] as? String)
            let ready = try await v1("GET", base, "/v1/commands/\(id)/output?until=Recording%20started&timeout=60")
            #expect(ready.status == 200 && ready.text == "Recording started\n", "\(ready.text)")
            #expect(try await v1("GET", base, "/v1/commands/\(id)").jsonObject()["state"] as? String == "running")
            // Not there (yet): the answer comes at the timeout, with the output so far.
            let waited = try await v1("GET", base, "/v1/commands/\(id)/output?until=never&timeout=0.2")
            #expect(waited.status == 200 && waited.text == "Recording started\n")
            _ = try await v1("POST", base, "/v1/commands/\(id)/terminate?wait=true")

            // A command that ends without printing it: the answer comes at its end.
            let quiet = try await v1("POST", base, "/v1/commands", json: ["argv": ["sh", "-c", "sleep 0.2; echo bye; exit 3"]]).jsonObject()
            let quietID = try #require(quiet["id"] as? String)
            let ended = try await v1("GET", base, "/v1/commands/\(quietID)/output?until=Recording%20started&timeout=60")
            #expect(ended.status == 200 && ended.text == "bye\n")
            #expect(try await v1("GET", base, "/v1/commands/\(quietID)").jsonObject()["state"] as? String == "finished")

            for (query, problem) in [
                ("until=", "'until' is the text to wait for"), ("until=x&follow=true", "cannot go together"),
                ("until=x&timeout=soon", "'timeout' must be a number of seconds"),
            ] {
                let refused = try await v1("GET", base, "/v1/commands/\(quietID)/output?\(query)")
                #expect(refused.status == 400, "\(query)")
                #expect((try refused.jsonObject()["error"] as? String)?.contains(problem) == true, "\(query): \(refused.text)")
            }
            let unknown = try await v1("GET", base, "/v1/commands/\(UUID().uuidString)/output?until=x")
            #expect(unknown.status == 404)
        }
    }

    @Test("interrupt with wait returns the final status")
    func interruptWait() async throws {
        try await withHost { base in
            let created = try await v1("POST", base, "/v1/commands", json: ["argv": ["sleep", "30"]]).jsonObject()
            let id = try #require(created["id"] as? String)
            let pid = try #require(created["pid"] as? Int)
            let result = try await v1("POST", base, "/v1/commands/\(id)/interrupt?wait=true&timeout=10")
            #expect(result.status == 200)
            let object = try result.jsonObject()
            #expect(object["state"] as? String == "finished")
            #expect(object["terminationReason"] as? String == "signal")
            #expect(object["signal"] as? Int == 2)
            #expect(object["signalName"] as? String == "SIGINT")
            #expect(object["killedAfterTimeout"] == nil)
            #expect(!isAlive(Int32(pid)))

            let again = try await v1("POST", base, "/v1/commands/\(id)/interrupt")
            #expect(again.status == 409)
            #expect((try again.jsonObject()["error"] as? String)?.contains("already") == true)
        }
    }

    @Test("a process that ignores the signal gets SIGKILL after the timeout, and that is reported")
    func interruptTimeoutKills() async throws {
        try await withHost { base in
            // `trap '' INT` makes the shell and its child ignore SIGINT.
            let created = try await v1("POST", base, "/v1/commands", json: ["argv": ["sh", "-c", "trap '' INT; sleep 30"]]).jsonObject()
            let id = try #require(created["id"] as? String)
            let result = try await v1("POST", base, "/v1/commands/\(id)/interrupt?wait=true&timeout=0.5").jsonObject()
            #expect(result["state"] as? String == "finished")
            #expect(result["killedAfterTimeout"] as? Bool == true)
            #expect(result["signal"] as? Int == 9)
            #expect(result["signalsSent"] as? [String] == ["SIGINT", "SIGKILL"])
        }
    }

    @Test("run with wait and a timeout terminates a command that runs too long")
    func runTimeout() async throws {
        try await withHost { base in
            let result = try await v1("POST", base, "/v1/commands", json: ["argv": ["sleep", "30"], "wait": true, "timeout": 0.3])
                .jsonObject()
            #expect(result["timedOut"] as? Bool == true)
            #expect(result["signal"] as? Int == 15)
        }
    }

    @Test("errors are JSON with a status that fits")
    func errors() async throws {
        try await withHost(TunnelHostConfiguration(allowedPrograms: ["echo"])) { base in
            func error(_ result: HTTPResult) throws -> String { try result.jsonObject()["error"] as? String ?? "" }

            let badJSON = try await http("POST", base.appendingPathComponent("v1/commands"), body: Data("{argv".utf8))
            #expect(badJSON.status == 400)
            #expect(try error(badJSON).contains(#""argv""#))

            let missing = try await v1("POST", base, "/v1/commands", json: ["args": ["echo"]])
            #expect(missing.status == 400)
            // One decode-error wording for both APIs (ShowreelHTTP): a misspelt field is named with
            // the spelling meant, a field left out is named as missing.
            #expect(try error(missing).contains("unknown field 'args'. Did you mean 'argv'?"))
            let absent = try await v1("POST", base, "/v1/commands", json: ["cwd": "/tmp"])
            #expect(absent.status == 400)
            #expect(try error(absent).contains("invalid JSON body: missing field 'argv'"))

            let empty = try await v1("POST", base, "/v1/commands", json: ["argv": [String]()])
            #expect(empty.status == 400)

            let notFound = try await v1("POST", base, "/v1/commands", json: ["argv": ["no-such-program-7f3a"]])
            #expect(notFound.status == 400)
            #expect(try error(notFound).contains("no-such-program-7f3a"))

            let forbidden = try await v1("POST", base, "/v1/commands", json: ["argv": ["sleep", "1"]])
            #expect(forbidden.status == 403)
            #expect(try error(forbidden).contains("--allow sleep"))

            let badCwd = try await v1("POST", base, "/v1/commands", json: ["argv": ["echo"], "cwd": "/no/such/dir"])
            #expect(badCwd.status == 400)

            #expect(try await v1("GET", base, "/v1/commands/\(UUID().uuidString)").status == 404)
            #expect(try await v1("POST", base, "/v1/commands/\(UUID().uuidString)/terminate").status == 404)
            #expect(try await v1("GET", base, "/v1/commands/nope").status == 400)

            let route = try await v1("GET", base, "/v2/anything")
            #expect(route.status == 404)
            #expect(try error(route).contains("/v1/health"))
        }
    }

    @Test("a configured token is required on /v1 (401), health stays open")
    func token() async throws {
        try await withHost(TunnelHostConfiguration(token: "s3cret")) { base in
            let none = try await v1("GET", base, "/v1/commands")
            #expect(none.status == 401)
            #expect((try none.jsonObject()["error"] as? String)?.contains("Authorization: Bearer") == true)
            #expect(try await v1("GET", base, "/v1/commands", headers: ["Authorization": "Bearer wrong"]).status == 401)
            #expect(try await v1("POST", base, "/v1/commands", json: ["argv": ["echo"]]).status == 401)
            #expect(try await v1("GET", base, "/v1/commands", headers: ["Authorization": "Bearer s3cret"]).status == 200)
            #expect(try await v1("GET", base, "/v1/commands", headers: ["X-Showreel-Token": "s3cret"]).status == 200)
            #expect(try await v1("GET", base, "/v1/health").status == 200)
            #expect(try await v1("GET", base, "/v1/health", headers: ["Origin": "https://evil.example"]).status == 403)
        }
    }
}
