import Foundation

/// Paths to what `swift build` produced: the test bundle sits beside the `showreel` binary.
public enum BuildProducts {
    /// The folder of the running test bundle (and of every product built with it).
    public static var directory: URL {
        URL(fileURLWithPath: testBundle).deletingLastPathComponent()
    }

    /// The running test bundle's executable, to run some of its own tests in a child process.
    public static var testBundle: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    public static var showreel: URL {
        get throws {
            let url = directory.appendingPathComponent("showreel")
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw TestFailure("no showreel binary at \(url.path): run `swift build --build-tests` (make test does) first")
            }
            return url
        }
    }
}
