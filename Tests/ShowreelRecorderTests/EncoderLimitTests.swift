import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// The bench's limit (the encoder alone, on pictures converted before) encodes what a recording
/// would: every picture, at the recording's settings.
@Suite("Encoder limit")
struct EncoderLimitTests {
    @Test("every picture kept is encoded into a packet, and each conversion is timed")
    func encodesEveryPicture() throws {
        let limit = try EncoderLimit(width: 320, height: 240)
        for index in 0..<12 {
            let took = try #require(try limit.add(makePixels(index: index), at: .milliseconds(40 * index)))
            #expect(took > .zero)
        }
        let made = try limit.encodeAll()
        #expect(made.packets == 12)
        #expect(made.bytes > 0)
    }
}
