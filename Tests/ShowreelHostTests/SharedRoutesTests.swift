import Foundation
import HTTPTypes
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

@testable import ShowreelHost

/// The host serves exactly the routes ShowreelWire defines for it, and its replies read back
/// through the same body types the client uses.
@Suite("Shared routes and bodies", .timeLimit(.minutes(10)))
struct SharedRoutesTests {
    @Test("the 405/404 endpoint table is the shared route list, grouped by path")
    func endpointTableIsTheRoutes() {
        let listed = Endpoint.all.flatMap { endpoint in endpoint.methods.map { "\($0.rawValue) \(endpoint.path)" } }
        #expect(listed.sorted() == HostAPI.Routes.all.map(\.description).sorted())
        #expect(Endpoint.legacyPaths == Set(["/exec", "/launch", "/status", "/interrupt", "/terminate"]))
        #expect(Endpoint.summary.contains("GET|POST /v1/commands") && Endpoint.summary.contains("POST /v1/commands/{id}/interrupt"))
    }

    @Test("every shared host route is served by the running host")
    func everyRouteServed() async throws {
        try await withHost { base in
            for route in HostAPI.Routes.all {
                let path = route.path(route.parameters.map { _ in UUID().uuidString })
                let result = try await rawHTTP("127.0.0.1", base.port!, method: route.method.rawValue, path: path, host: "localhost")
                #expect(result.status != 405 && !result.text.contains("no endpoint"), "\(route): \(result.status) \(result.text)")
                #expect(result.header("Content-Type")?.hasPrefix("application/json") == true || result.status == 204, "\(route)")
            }
        }
    }

    @Test("a real host's legacy replies decode into the shared types, running then finished")
    func legacyRepliesDecode() async throws {
        try await withHost { base in
            let client = TunnelHostClient(baseURL: base)
            let id = try await client.launch("sleep 30")

            let running = try await legacy(base, "status", command: id.uuidString)
            let runningReply = try WireJSON.decoder.decode(HostAPI.LegacyStatusResponse.self, from: running.body)
            guard case .running(let pid) = runningReply.result else {
                Issue.record("expected a running reply, got \(running.text)")
                return
            }
            #expect(try await client.status(id) == .running(pid: pid))

            let terminated = try await legacy(base, "terminate", command: id.uuidString)
            let finishedReply = try WireJSON.decoder.decode(HostAPI.LegacyStatusResponse.self, from: terminated.body)
            #expect(finishedReply.result == .finished(terminationStatus: 15, terminationReason: 2, stdOut: "", stdErr: ""))
            #expect(try await client.status(id) == .finished(status: 15, reason: .uncaughtSignal, stdout: "", stderr: ""))
            // The bytes the host wrote are what the shared type writes back.
            #expect(WireJSON.encode(finishedReply) == terminated.body)

            let launched = try await legacy(base, "launch", command: base64("echo hi"))
            let launchReply = try WireJSON.decoder.decode(HostAPI.LegacyResultResponse.self, from: launched.body)
            #expect(launchReply.status == 1 && UUID(uuidString: launchReply.result) != nil)
        }
    }

    @Test("a v1 command round-trips through the shared CommandInfo byte for byte")
    func commandInfoRoundTrip() async throws {
        try await withHost { base in
            let created = try await v1("POST", base, "/v1/commands", json: ["argv": ["echo", "hi"], "wait": true])
            #expect(created.status == 200)
            let info = try WireJSON.decoder.decode(HostAPI.CommandInfo.self, from: created.body)
            #expect(info.stdout == "hi\n" && info.exitCode == 0 && info.finishedAt != nil)
            #expect(WireJSON.encode(info) == created.body)
        }
    }
}
