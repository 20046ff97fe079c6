import Foundation
import ShowreelWire
import Testing

/// Errors as people read them: Foundation's errors with the file and the system's reason, never
/// `Error Domain=NSCocoaErrorDomain Code=4 "..." UserInfo={...}`.
@Suite("Error sentences")
struct ErrorSentenceTests {
    @Test("a folder that cannot be made, a file that cannot be read: the path and the reason, no NSError dump")
    func foundationErrors() throws {
        var thrown: [any Error] = []
        do { try FileManager.default.createDirectory(atPath: "/proc/nope", withIntermediateDirectories: true) } catch {
            thrown.append(error)
        }
        do { _ = try Data(contentsOf: URL(fileURLWithPath: "/nowhere/flow.yaml")) } catch { thrown.append(error) }
        do { _ = try String(contentsOfFile: "/nowhere/flow.yaml", encoding: .utf8) } catch { thrown.append(error) }
        #expect(thrown.count == 3)
        for error in thrown {
            let sentence = ErrorSentence.describe(error)
            #expect(!sentence.contains("Error Domain"), "\(sentence)")
            #expect(!sentence.contains("UserInfo"), "\(sentence)")
            #expect(!sentence.contains("The operation could not be completed"), "\(sentence)")
            #expect(sentence.contains("/proc/nope") || sentence.contains("/nowhere/flow.yaml"), "\(sentence)")
        }
    }

    @Test("the project's own errors keep their descriptions; cancellation is an interruption")
    func ownErrors() {
        struct Problem: Error, CustomStringConvertible { var description: String { "the device is shut down" } }
        #expect(ErrorSentence.describe(Problem()) == "the device is shut down")
        #expect(ErrorSentence.describe(CancellationError()) == "interrupted")
        #expect(ErrorSentence.describe(POSIXError(.EACCES)) == "Permission denied")
    }
}
