import Foundation
import ShowreelWire
import Testing

@Suite("Parent paths")
struct ParentPathTests {
    @Test(
        "the same as NSString's deletingLastPathComponent, where that does not trap",
        arguments: [
            "a/b/c", "a/b/", "a//b", "/a", "/a/b", "/", "ab", "abc.yaml", "Flows/hello.yaml", "S/t()", "a/b//", "./x", "../x/y",
            "flows/*.yaml", "",
        ])
    func likeFoundation(_ path: String) {
        #expect(path.parentPath == (path as NSString).deletingLastPathComponent, "\(path)")
    }

    @Test("a path of one character has no parent: Foundation's traps on it on Linux")
    func oneCharacter() {
        #expect("a".parentPath == "")
        #expect("/".parentPath == "/")
        #expect("a/b".parentPath == "a")
    }
}
