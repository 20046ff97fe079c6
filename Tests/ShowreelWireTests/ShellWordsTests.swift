import ShowreelWire
import Testing

/// Command lines split into words as a shell would, but without one (the tunnel host's legacy commands).
@Suite("Command line splitting")
struct ShellWordsTests {
    @Test("shell words: quotes and escapes, no expansion")
    func shellWords() throws {
        #expect(try ShellWords.split(#"printf '%s\n' "a b" c"#) == ["printf", #"%s\n"#, "a b", "c"])
        #expect(try ShellWords.split("  echo   hello\tworld  ") == ["echo", "hello", "world"])
        #expect(try ShellWords.split(#"echo a\ b "x\"y" 'it'\''s'"#) == ["echo", "a b", #"x"y"#, "it's"])
        #expect(try ShellWords.split(#"echo "" ''"#) == ["echo", "", ""])
        #expect(try ShellWords.split(#"echo "\$HOME" '$HOME' \$x"#) == ["echo", "$HOME", "$HOME", "$x"])
        #expect(
            try ShellWords.split(#"xcrun simctl io booted recordVideo --codec=h264 "/tmp/my video.mov""#)
                == ["xcrun", "simctl", "io", "booted", "recordVideo", "--codec=h264", "/tmp/my video.mov"])
        #expect(try ShellWords.split("a=b c~d 100%") == ["a=b", "c~d", "100%"])
        #expect(try ShellWords.split("") == [])
    }

    @Test(
        "shell words: clear errors for what needs a shell",
        arguments: [
            (#"echo 'abc"#, "unbalanced single quote"),
            (#"echo "abc"#, "unbalanced double quote"),
            (#"echo abc\"#, "lone backslash"),
            ("echo a | wc", "shell operator '|'"),
            ("echo a > /tmp/x", "shell operator '>'"),
            ("echo a; rm x", "shell operator ';'"),
            ("sleep 1 &", "shell operator '&'"),
            ("echo $HOME", "expansion"),
            (#"echo "$(id)""#, "expansion"),
            ("echo `id`", "command substitution"),
            ("ls *.mov", "glob"),
            ("ls ~/x", "tilde"),
        ])
    func shellWordsErrors(line: String, expected: String) {
        #expect {
            try ShellWords.split(line)
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".contains("without a shell")
        }
    }

    @Test("shell words: join round-trips")
    func join() throws {
        let argv = ["printf", "%s\n", "a b", "it's", "", "$HOME", "*"]
        #expect(try ShellWords.split(ShellWords.join(argv)) == argv)
    }
}
