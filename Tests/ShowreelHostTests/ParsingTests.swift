import Foundation
import ShowreelWire
import Testing

@testable import ShowreelHost

@Suite("Form bodies, output buffer, address ranges")
struct ParsingTests {
    @Test("form bodies as the iOS client sends them")
    func legacyForm() {
        let encoded = base64("echo hi+there/ok?")  // contains + / = in base64
        let escaped = encoded.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(
            of: "=", with: "%3D")
        let form = LegacyForm(
            body: Array("command=\(escaped)&app_frame={{0, 0}, {1, 2}}&token=lkju32yt$£bmnA&simulator_device_name=iPhone 15".utf8))
        #expect(form["app_frame"] == "{{0, 0}, {1, 2}}")
        #expect(form["simulator_device_name"] == "iPhone 15")
        #expect(form["token"] == "lkju32yt$£bmnA")
        #expect(form["command"].flatMap(LegacyForm.decodeBase64Command) == "echo hi+there/ok?")
        // A '+' a form decoder turned into ' ', line wrapping, missing padding, URL-safe alphabet.
        #expect(LegacyForm.decodeBase64Command(encoded.replacingOccurrences(of: "+", with: " ")) == "echo hi+there/ok?")
        #expect(LegacyForm.decodeBase64Command(String(encoded.prefix(8)) + "\n" + encoded.dropFirst(8)) == "echo hi+there/ok?")
        #expect(LegacyForm.decodeBase64Command(base64("ab").replacingOccurrences(of: "=", with: "")) == "ab")
        #expect(LegacyForm.decodeBase64Command("!!!") == nil)
        #expect(LegacyForm.decodeBase64Command("") == "")
        #expect(LegacyForm(body: Array("a=%zz%4&b".utf8))["a"] == "%zz%4")
    }

    @Test("output log stays bounded and keeps the newest bytes")
    func outputLog() {
        var log = OutputLog(limit: 10)
        log.append(.stdout, Array("hello ".utf8))
        log.append(.stderr, Array("err ".utf8))
        log.append(.stdout, Array("world".utf8))
        #expect(log.endOffset == 15)
        #expect(log.droppedBytes == 5)
        #expect(log.text(of: nil) == " err world")
        #expect(log.text(of: .stdout) == " world")
        #expect(log.text(of: .stderr) == "err ")
        let (chunks, next) = log.chunks(from: 12, of: nil)
        #expect(String(decoding: chunks.flatMap(\.bytes), as: UTF8.self) == "rld")
        #expect(next == 15)
        // A reader that fell behind continues from the oldest byte still held.
        #expect(String(decoding: log.chunks(from: 0, of: nil).chunks.flatMap(\.bytes), as: UTF8.self) == " err world")
    }

    @Test("a command escaped twice, as the iOS client and URLComponents send it, decodes")
    func doubleEscapedCommand() {
        let form = LegacyForm(body: Array("command=ZWNobyBoaQ%253D%253D&token=lkju32yt%24%C2%A3bmnA".utf8))
        #expect(form["command"] == "ZWNobyBoaQ%3D%3D")
        #expect(form["command"].flatMap(LegacyForm.decodeBase64Command) == "echo hi")
        #expect(form["token"] == "lkju32yt$£bmnA")
    }

    @Test("client address ranges")
    func addressRanges() throws {
        let block = try #require(AddressRange(parsing: "10.1.0.0/16"))
        #expect(block.contains(ipAddress: "10.1.200.3"))
        #expect(!block.contains(ipAddress: "10.2.0.1"))
        #expect(block.contains(ipAddress: "::ffff:10.1.0.9"))
        let one = try #require(AddressRange(parsing: "fd00::7"))
        #expect(one.contains(ipAddress: "fd00::7"))
        #expect(!one.contains(ipAddress: "fd00::8"))
        for bad in ["10.0.0.0/33", "example.com", "10.0.0.0/", "10.0.0.0/x", "::/129"] {
            #expect(AddressRange(parsing: bad) == nil, "\(bad)")
        }
    }
}
