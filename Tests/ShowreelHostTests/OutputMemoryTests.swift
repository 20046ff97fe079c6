import Foundation
import NIOCore
import ShowreelTestSupport
import ShowreelWire
import Testing

@testable import ShowreelHost

/// Output memory stays bounded: each command keeps its newest bytes (and the legacy text says
/// what was cut), and finished commands beyond the memory budget move to files yet still answer.
@Suite("Output memory", .timeLimit(.minutes(10)))
struct OutputMemoryTests {
    @Test("an output log survives the spool file byte for byte")
    func spoolRoundTrip() throws {
        var log = OutputLog(limit: 12)
        log.append(.stdout, Array("hello ".utf8))
        log.append(.stderr, Array("oops ".utf8))
        log.append(.stdout, Array("world".utf8))
        let back = try #require(OutputLog.decoded(log.encoded(), limit: 12))
        #expect(back.text(of: nil) == log.text(of: nil))
        #expect(back.text(of: .stdout) == log.text(of: .stdout))
        #expect(back.text(of: .stderr) == "oops ")
        #expect(back.droppedBytes == 4 && back.endOffset == 16)
        #expect(OutputLog.decoded(Array(log.encoded().dropLast()), limit: 12) == nil)
    }

    @Test("finished commands beyond the memory budget go to disk and still answer whole")
    func finishedOutputSpills() async throws {
        let configuration = TunnelHostConfiguration(outputLimit: 4096, retainedOutputMemory: 10_000)
        let table = CommandTable(configuration: configuration, logger: testLogger)
        var ids: [UUID] = []
        for index in 0..<12 {
            // 1893 bytes each: 12 of them are more than twice the budget.
            let started = try await table.launch(argv: ["seq", "\(index * 1000)", "\(index * 1000 + 399)"], kind: .launch)
            ids.append(started.id)
            _ = await table.waitForExit(started.id, output: .none)
        }
        let inMemory = await table.finishedOutputInMemory
        #expect(inMemory <= 10_000, "\(inMemory) bytes of finished output in memory")
        for (index, id) in ids.enumerated() {
            let snapshot = try #require(await table.snapshot(id, output: .streams))
            let expected = (index * 1000...(index * 1000 + 399)).map { "\($0)\n" }.joined()
            #expect(snapshot.stdout == expected, "command \(index)")
            let followed = try #require(await table.output(id, from: 0, of: nil))
            #expect(String(decoding: followed.chunks.joined(), as: UTF8.self) == expected)
        }
        for id in ids { await table.remove(id) }
        await table.shutdown()
    }

    @Test("legacy answers say when output was truncated")
    func truncationMarker() async throws {
        try await withHost(TunnelHostConfiguration(outputLimit: 1000)) { base in
            let exec = try await legacyJSON(base, "exec", command: base64("seq 1 1000"))
            let text = try #require(exec["result"] as? String)
            #expect(text.hasPrefix("[showreel host: output truncated, the first 2893 bytes were dropped"), "\(text.prefix(120))")
            #expect(text.hasSuffix("999\n1000\n"))

            let id = try #require(try await legacyJSON(base, "launch", command: base64("seq 1 1000"))["result"] as? String)
            let finished = try await legacyWaitFinished(base, id)
            #expect((finished["stdOut"] as? String)?.hasPrefix("[showreel host: output truncated") == true)

            let short = try await legacyJSON(base, "exec", command: base64("seq 1 3"))
            #expect(short["result"] as? String == "1\n2\n3\n")
        }
    }
}

@Suite("Legacy JSON written by hand")
struct LegacyJSONTests {
    @Test("the /exec answer is byte for byte what the JSON encoder writes")
    func matchesEncoder() {
        let text = "plain \"quoted\" back\\slash /slash\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F} é 日本 🎬 \u{2028}"
        let expected = WireJSON.encode(HostAPI.LegacyResultResponse(result: "[note]\n" + text, status: 1))
        let written = WireJSON.legacyResult(prefix: "[note]\n", text: text, status: 1)
        #expect(Array(written.readableBytesView) == Array(expected))
        #expect(Array(WireJSON.legacyResult(prefix: "", text: "", status: 1).readableBytesView) == Array(#"{"result":"","status":1}"#.utf8))
    }
}
