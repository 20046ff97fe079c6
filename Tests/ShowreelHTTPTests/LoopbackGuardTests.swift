import ShowreelHTTP
import Testing

@Suite("Loopback guard")
struct LoopbackGuardTests {
    @Test("loopback Host names: literals and localhost only, with an optional port")
    func loopbackAuthority() {
        for ok in ["localhost", "localhost:8667", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:8667", "127.255.1.0:65535", "[::1]", "[::1]:8667"]
        {
            #expect(LoopbackGuard.isLoopbackAuthority(ok), "\(ok)")
        }
        for bad in [
            "evil.example", "evil.example:8667", "10.0.0.2:8667", "[fe80::1]:80", "127.evil.example", "127.evil.example:8667",
            "evil.localhost", "app.localhost:8667", "localhost.evil.example", "127.0.0.1.evil.example", "0177.0.0.1",
            "127.1", "127.0.0.01", "127.0.0.256", "::1", "[::1].evil.example", "[::1]:", "localhost:", "localhost:99999",
            "localhost:80:80", "localhost:8a", "",
        ] {
            #expect(!LoopbackGuard.isLoopbackAuthority(bad), "\(bad)")
        }
    }
}
