import Foundation
import HTTPTypes
import ShowreelTestSupport
import ShowreelTesting
import Testing

@testable import ShowreelHost

#if canImport(Glibc)
import Glibc
#endif

/// The fixes from an adversarial pass (issue 12): who may connect, what the real iOS client
/// sends, and children that never outlive their request or the host.
@Suite("Tunnel host hardening", .timeLimit(.minutes(10)))
struct HostHardeningTests {
    /// A fresh path that a refused command would have created.
    private func marker() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("showreel-host-\(UUID().uuidString)").path
    }

    @Test("Host must be a loopback literal or localhost: rebinding names are 403 and run nothing")
    func hostHeader() async throws {
        try await withHost { base in
            let port = base.port!
            for host in [
                "127.evil.example", "127.evil.example:\(port)", "evil.localhost", "evil.localhost:\(port)", "localhost.evil.example",
                "0177.0.0.1",
            ] {
                let path = marker()
                let result = try await rawHTTP("127.0.0.1", port, path: "/exec", host: host, body: "command=\(base64("touch \(path)"))")
                #expect(result.status == 403, "Host: \(host)")
                #expect((try result.jsonObject()["error"] as? String)?.contains("is not a loopback address") == true)
                #expect(!FileManager.default.fileExists(atPath: path), "Host: \(host) ran the command")
            }
            for host in ["localhost", "localhost:\(port)", "127.0.0.1:\(port)", "127.3.2.1", "[::1]:\(port)"] {
                let result = try await rawHTTP("127.0.0.1", port, path: "/exec", host: host, body: "command=\(base64("echo ok"))")
                #expect(result.status == 200, "Host: \(host)")
            }
        }
    }

    @Test("with a token, legacy endpoints need it too: header or showreel_token form field, not the client's token field")
    func legacyToken() async throws {
        try await withHost(TunnelHostConfiguration(token: "s3cret")) { base in
            let port = base.port!
            let path = marker()
            let command = "command=\(base64("touch \(path)"))"
            for (headers, body) in [
                ([String](), command), ([], command + "&token=lkju32yt$£bmnA"), (["Authorization: Bearer wrong"], command),
                ([], command + "&showreel_token=wrong"),
            ] {
                let refused = try await rawHTTP("127.0.0.1", port, path: "/exec", host: "localhost", body: body, headers: headers)
                #expect(refused.status == 401, "\(headers) \(body)")
                #expect((try refused.jsonObject()["error"] as? String)?.contains("token") == true)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            let launched = try await rawHTTP("127.0.0.1", port, path: "/launch", host: "localhost", body: "command=\(base64("sleep 30"))")
            #expect(launched.status == 401)
            #expect(
                try await rawHTTP("127.0.0.1", port, path: "/status", host: "localhost", body: "command=\(UUID().uuidString)").status == 401
            )

            let echo = "command=\(base64("echo in"))"
            for (headers, body) in [
                (["Authorization: Bearer s3cret"], echo), (["X-Showreel-Token: s3cret"], echo),
                ([], echo + "&token=lkju32yt$£bmnA&showreel_token=s3cret"),
            ] {
                let ok = try await rawHTTP("127.0.0.1", port, path: "/exec", host: "localhost", body: body, headers: headers)
                #expect(ok.status == 200, "\(headers) \(body)")
                #expect(try ok.jsonObject()["result"] as? String == "in\n")
            }
            #expect(try await rawHTTP("127.0.0.1", port, method: "GET", path: "/v1/health", host: "localhost").status == 200)
        }
    }

    @Test("a non-loopback bind refuses to start without a token and a client allowlist")
    func nonLoopbackBind() async throws {
        for arguments in [
            ["--bind", "0.0.0.0"], ["--bind", "0.0.0.0", "--token", "t"], ["--bind", "0.0.0.0", "--allow-from", "10.0.0.0/8"],
        ] {
            let (status, stderr) = try await HostProcess.runToExit(arguments)
            #expect(status != 0, "\(arguments)")
            #expect(stderr.contains("refusing to listen on 0.0.0.0"), "\(arguments): \(stderr)")
        }
        let (status, stderr) = try await HostProcess.runToExit(["--bind", "0.0.0.0", "--token", "t", "--allow-from", "10.0.0.0/33"])
        #expect(status != 0 && stderr.contains("not an IP address or CIDR block"))

        // With both it starts; a client outside the allowlist (here: this machine) is 403.
        try await withHost(TunnelHostConfiguration(bindAddress: "0.0.0.0", token: "t", allowedClients: ["10.255.255.0/24"])) { base in
            let result = try await rawHTTP(
                "127.0.0.1", base.port!, path: "/exec", host: "localhost", body: "command=\(base64("echo x"))",
                headers: ["X-Showreel-Token: t"])
            #expect(result.status == 403)
            #expect((try result.jsonObject()["error"] as? String)?.contains("127.0.0.1 is not allowed") == true)
        }
        try await withHost(TunnelHostConfiguration(bindAddress: "0.0.0.0", token: "t", allowedClients: ["10.255.255.0/24", "127.0.0.1"])) {
            base in
            let result = try await rawHTTP(
                "127.0.0.1", base.port!, path: "/exec", host: "anything.example", body: "command=\(base64("echo x"))",
                headers: ["X-Showreel-Token: t"])
            #expect(result.status == 200)
        }
    }

    @Test("a wrong method is 405 with Allow, on every endpoint")
    func wrongMethod() async throws {
        try await withHost { base in
            let port = base.port!
            for endpoint in Endpoint.all {
                let path = endpoint.path.replacingOccurrences(of: ":id", with: UUID().uuidString)
                let wrong = endpoint.methods.contains(.get) ? "PUT" : "GET"
                let result = try await rawHTTP("127.0.0.1", port, method: wrong, path: path, host: "localhost")
                #expect(result.status == 405, "\(wrong) \(path)")
                #expect(result.header("Allow") == endpoint.methods.map(\.rawValue).joined(separator: ", "), "\(wrong) \(path)")
                #expect((try result.jsonObject()["error"] as? String)?.contains("does not answer \(wrong)") == true)
                // Every method the table lists is routed (whatever the answer, it is not "no such endpoint").
                for method in endpoint.methods {
                    let routed = try await rawHTTP("127.0.0.1", port, method: method.rawValue, path: path, host: "localhost")
                    #expect(routed.status != 405 && !routed.text.contains("no endpoint"), "\(method) \(path): \(routed.text)")
                }
            }
            #expect(try await rawHTTP("127.0.0.1", port, method: "GET", path: "/nope", host: "localhost").status == 404)
        }
    }

    @Test("the iOS client's bytes: escaped twice, token and app_frame fields, empty connect, localhost on ::1")
    func realClientBytes() async throws {
        try await withHost { base in
            let port = base.port!
            // What SBTUITestTunnelHost's client sends for `echo hi`: its own escaping, then URLComponents'.
            let exact =
                "command=ZWNobyBoaQ%253D%253D&token=lkju32yt$%C2%A3bmnA&app_frame=%7B%7B0,%200%7D,%20%7B390,%20844%7D%7D&simulator_device_name=iPhone%2015&simulator_device_runtime=17.5"
            for address in ["127.0.0.1", "::1"] {
                let result = try await rawHTTP(address, port, path: "/exec", host: "localhost:\(port)", body: exact)
                #expect(result.status == 200, "\(address): \(result.text)")
                #expect(try result.jsonObject()["result"] as? String == "hi\n")
            }
            // `+` and `/` in the base64, escaped once and escaped twice; app_frame raw.
            let line = "echo ÿþÿÿ"
            let once = base64(line).replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "+", with: "%2B")
                .replacingOccurrences(of: "=", with: "%3D")
            #expect(once.contains("%2B") && once.contains("%2F"))
            for value in [once, once.replacingOccurrences(of: "%", with: "%25")] {
                let result = try await rawHTTP(
                    "::1", port, path: "/exec", host: "localhost",
                    body: "command=\(value)&token=lkju32yt$£bmnA&app_frame={{0, 0}, {390, 844}}")
                #expect(try result.jsonObject()["result"] as? String == "ÿþÿÿ\n", "\(value)")
            }
            // connect(): an empty command.
            for body in ["command=&token=lkju32yt$%C2%A3bmnA&app_frame=%7B%7B0,%200%7D,%20%7B390,%20844%7D%7D", "command="] {
                let connect = try await rawHTTP("::1", port, path: "/exec", host: "localhost:\(port)", body: body)
                #expect(connect.status == 200)
                #expect(connect.text == #"{"result":"","status":1}"#)
            }
            // launch and status over ::1 too.
            let launched = try await rawHTTP(
                "::1", port, path: "/launch", host: "localhost",
                body: "command=\(base64("sleep 30").replacingOccurrences(of: "=", with: "%253D"))&token=x")
            let id = try #require(try launched.jsonObject()["result"] as? String)
            #expect(UUID(uuidString: id) != nil, "\(launched.text)")
            let stopped = try await rawHTTP("::1", port, path: "/terminate", host: "localhost", body: "command=\(id)&token=x")
            #expect((try stopped.jsonObject()["result"] as? [String: Any])?["terminationStatus"] as? Int == 15)
        }
    }

    @Test("a sync /exec whose client disconnects ends its command")
    func execClientDisconnects() async throws {
        try await withHost { base in
            let port = base.port!
            let connection = try RawHTTPConnection.connect("127.0.0.1", port)
            let body = "command=\(base64("sleep 300"))"
            try connection.send(
                Array(
                    "POST /exec HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        .utf8))
            var pid: Int32 = 0
            // Generous: the whole suite runs in parallel on two cores.
            let running = try await eventually(timeout: .seconds(60)) {
                let list = try await v1("GET", base, "/v1/commands").jsonObject()
                let commands = list["commands"] as? [[String: Any]] ?? []
                pid = Int32(commands.first { ($0["argv"] as? [String]) == ["sleep", "300"] }?["pid"] as? Int ?? 0)
                return pid > 0
            }
            #expect(running)
            #expect(isAlive(pid))
            try await Task.sleep(for: .milliseconds(500))
            connection.close()
            #expect(await eventually(timeout: .seconds(120)) { !isAlive(pid) }, "sleep 300 (pid \(pid)) outlived its client")
            #expect(await eventually { (try? await v1("GET", base, "/v1/commands").jsonObject()["commands"] as? [Any])?.isEmpty == true })

            // The same for POST /v1/commands with wait: true.
            let waiting = try RawHTTPConnection.connect("127.0.0.1", port)
            let json = #"{"argv": ["sleep", "301"], "wait": true}"#
            try waiting.send(
                Array(
                    "POST /v1/commands HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
                        .utf8))
            var waitedPID: Int32 = 0
            #expect(
                try await eventually {
                    let commands = try await v1("GET", base, "/v1/commands").jsonObject()["commands"] as? [[String: Any]] ?? []
                    waitedPID = Int32(commands.first { ($0["argv"] as? [String]) == ["sleep", "301"] }?["pid"] as? Int ?? 0)
                    return waitedPID > 0
                })
            try await Task.sleep(for: .milliseconds(500))
            waiting.close()
            #expect(await eventually(timeout: .seconds(120)) { !isAlive(waitedPID) }, "sleep 301 (pid \(waitedPID)) outlived its client")
        }
    }

    @Test("kill -9 of the host takes its children with it")
    func hostKilled() async throws {
        let host = try await HostProcess.start([])
        defer { if host.process.isRunning { kill(host.process.processIdentifier, SIGKILL) } }
        let client = TunnelHostClient(baseURL: host.baseURL)
        var pids: [Int32] = []
        for _ in 0..<20 {
            let id = try await client.launch("sleep 300")
            guard case .running(let pid) = try await client.status(id) else {
                Issue.record("sleep 300 is not running")
                return
            }
            pids.append(pid)
        }
        #expect(pids.allSatisfy(isAlive))
        kill(host.process.processIdentifier, SIGKILL)
        _ = try await host.process.exitStatus()
        let gone = await eventually(timeout: .seconds(120)) { pids.allSatisfy { !isAlive($0) } }
        let left = pids.filter(isAlive)
        for pid in left { kill(pid, SIGKILL) }
        #expect(gone, "\(left.count) of 20 children outlived the host: \(left)")
    }

    @Test("what a killed host's commands started themselves is ended by the next host")
    func nextHostReapsLeftovers() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-home-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let first = try await HostProcess.start([], home: home)
        defer { if first.process.isRunning { kill(first.process.processIdentifier, SIGKILL) } }
        let client = TunnelHostClient(baseURL: first.baseURL)
        let shell = try await client.run(argv: ["sh", "-c", "sleep 302 & echo $!; wait"])
        #expect(await eventually { ((try? await client.output(shell.id)) ?? "").hasSuffix("\n") })
        let grandchild = try #require(Int32(try await client.output(shell.id).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { if isAlive(grandchild) { kill(grandchild, SIGKILL) } }

        kill(first.process.processIdentifier, SIGKILL)
        _ = try await first.process.exitStatus()
        // The shell got the parent-death signal; its background job is not the host's child.
        #expect(await eventually { !isAlive(shell.pid!) })
        #expect(isAlive(grandchild))

        let second = try await HostProcess.start([], home: home)
        defer { if second.process.isRunning { kill(second.process.processIdentifier, SIGKILL) } }
        let ended = await eventually(timeout: .seconds(120)) { !isAlive(grandchild) }
        #expect(ended, "sleep 302 (pid \(grandchild)) survived the next host's start")
        kill(second.process.processIdentifier, SIGTERM)
        _ = try await second.process.exitStatus()
        let left = (try? FileManager.default.contentsOfDirectory(atPath: home + "/host")) ?? []
        #expect(left.isEmpty, "a cleanly stopped host leaves no ledger: \(left)")
    }
}
