/// Environment variables that make a program load or run code other than its own: the dynamic
/// loader's (`LD_PRELOAD` runs any shared object on disk inside an allowed program), the C
/// library's module paths, and the start-up hooks of shells and interpreters. A host with a
/// program allowlist refuses them: otherwise `--allow echo` would run anything.
enum LoaderEnvironment {
    static let prefixes = ["LD_", "DYLD_", "BASH_FUNC_"]
    static let names: Set<String> = [
        "GCONV_PATH", "GLIBC_TUNABLES", "LOCPATH", "NLSPATH", "HOSTALIASES", "MALLOC_TRACE",
        "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "ZDOTDIR",
        "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE",
        "PERL5LIB", "PERLLIB", "PERL5OPT", "PERL5DB",
        "RUBYLIB", "RUBYOPT", "NODE_OPTIONS", "NODE_PATH",
        "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
        "LUA_INIT", "LUA_PATH", "LUA_CPATH", "TCLLIBPATH", "GIT_EXEC_PATH", "GIT_CONFIG_GLOBAL",
    ]

    /// The variables of `environment` that could load foreign code, sorted.
    static func loaderVariables(in environment: [String: String]) -> [String] {
        environment.keys.filter { key in
            let upper = key.uppercased()
            return names.contains(upper) || prefixes.contains { upper.hasPrefix($0) }
        }.sorted()
    }
}
