import Foundation

/// Splits a legacy command line into argv the way a POSIX shell would split words, without a
/// shell: single quotes, double quotes and backslash escapes are honoured; nothing is expanded.
///
/// Characters that a shell would treat as syntax (pipes, redirections, `;`, `&`, command
/// substitution, variables, globs, `~`, comments) are rejected with an error instead of being
/// passed on literally, because silently running `echo hi > file` as `echo "hi" ">" "file"`
/// would do something other than what the caller meant. The host splits with it; clients
/// of the legacy protocol join argv with it, so both sides agree on every quote.
package enum ShellWords {
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    private static let noShell =
        "The tunnel host runs programs directly, without a shell: the command line is split into arguments like a POSIX shell (quotes and backslashes) but nothing is expanded."

    package static func split(_ line: String) throws(ParseError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        let chars = Array(line)
        var i = 0

        func position(_ index: Int) -> String { "character \(index + 1)" }

        func reject(_ what: String, at index: Int, hint: String) -> ParseError {
            ParseError(message: "unsupported \(what) at \(position(index)) of the command line: \(hint) \(noShell)")
        }

        func isNameStart(_ c: Character) -> Bool { c == "_" || c == "{" || c == "(" || (c.isASCII && c.isLetter) }

        if let nul = chars.firstIndex(of: "\0") {
            throw ParseError(
                message:
                    "the command line holds a NUL character at \(position(nul)): no program argument can contain one (it would cut the argument short); remove it. \(noShell)"
            )
        }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\n", "\r", "\r\n":
                // A shell would start a new command here; quote the line break to pass it as text.
                throw reject(
                    "line break", at: i,
                    hint:
                        "a command line is one command: send each command in a request of its own, or quote the line break to pass it inside an argument."
                )
            case " ", "\t":
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
                i += 1
            case "'":
                inWord = true
                let start = i
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "'" { closed = true; break }
                    current.append(chars[i])
                    i += 1
                }
                guard closed else {
                    throw ParseError(
                        message:
                            "unbalanced single quote: the quote opened at \(position(start)) is never closed; add a closing ' (inside single quotes every character is literal). \(noShell)"
                    )
                }
                i += 1
            case "\"":
                inWord = true
                let start = i
                i += 1
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == "\"" { closed = true; break }
                    if d == "\\", i + 1 < chars.count {
                        let n = chars[i + 1]
                        switch n {
                        case "\"", "\\", "$", "`":
                            current.append(n)
                            i += 2
                            continue
                        case "\n":
                            i += 2
                            continue
                        default:
                            current.append(d)
                            i += 1
                            continue
                        }
                    }
                    if d == "`" {
                        throw reject("command substitution (`)", at: i, hint: "run the inner command separately, or escape it as \\`.")
                    }
                    if d == "$", i + 1 < chars.count, isNameStart(chars[i + 1]) {
                        throw reject(
                            "expansion ($\(chars[i + 1]))", at: i, hint: "pass the value literally, or escape the dollar sign as \\$.")
                    }
                    current.append(d)
                    i += 1
                }
                guard closed else {
                    throw ParseError(
                        message:
                            "unbalanced double quote: the quote opened at \(position(start)) is never closed; add a closing \". \(noShell)")
                }
                i += 1
            case "\\":
                inWord = true
                guard i + 1 < chars.count else {
                    throw ParseError(message: "the command line ends with a lone backslash; remove it or escape it as \\\\. \(noShell)")
                }
                let n = chars[i + 1]
                if n == "\n" {
                    // Line continuation.
                    if current.isEmpty { inWord = false }
                } else {
                    current.append(n)
                }
                i += 2
            case "|", "&", ";", "<", ">", "(", ")":
                throw reject(
                    "shell operator '\(c)'", at: i,
                    hint:
                        "quote it ('\(c)') to pass it as an argument; pipes, redirections and command lists need a shell, so run a script instead."
                )
            case "`":
                throw reject("command substitution (`)", at: i, hint: "run the inner command separately, or quote it.")
            case "$" where i + 1 < chars.count && isNameStart(chars[i + 1]):
                throw reject("expansion ($\(chars[i + 1]))", at: i, hint: "pass the value literally, or quote it with single quotes.")
            case "*", "?", "[":
                throw reject("glob character '\(c)'", at: i, hint: "list the files explicitly, or quote it to pass it literally.")
            case "~" where !inWord:
                throw reject("tilde expansion (~)", at: i, hint: "write the absolute path, or quote it to pass it literally.")
            case "#" where !inWord:
                throw reject("comment (#)", at: i, hint: "quote it to pass it literally.")
            default:
                inWord = true
                current.append(c)
                i += 1
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Quotes argv back into a command line that `split` turns into the same argv.
    package static func join(_ argv: [String]) -> String {
        argv.map(quote).joined(separator: " ")
    }

    package static func quote(_ word: String) -> String {
        if word.isEmpty { return "''" }
        let safe = word.allSatisfy { c in
            c.isASCII && (c.isLetter || c.isNumber || "-_./:=,+@%^".contains(c))
        }
        if safe { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
