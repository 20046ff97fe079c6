import Foundation

/// What a flow's context holds before its first script, in JavaScript: Maestro's globals
/// (`output`, `maestro`, `json`, `relativePoint`, `console.log`), undeclared names reading as
/// undefined (Maestro's `${MY_VAR || 'default'}`), and the two sources of difference between
/// runs made deterministic: `Math.random` (mulberry32, seeded per flow) and `Date` (the device's
/// clock). The native hooks are taken out of sight once captured.
enum ScriptPrelude {
    static func source(seed: UInt64, platform: String) -> String {
        let escapedPlatform = platform.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return """
            (function (now, log, seed) {
                'use strict';
                globalThis.output = {};
                globalThis.maestro = { platform: "\(escapedPlatform)", copiedText: null };
                globalThis.json = function (text) { return JSON.parse(text); };
                globalThis.relativePoint = function (x, y) {
                    return Math.ceil(x * 100) + '%,' + Math.ceil(y * 100) + '%';
                };
                const write = function (...values) { log(...values); };
                globalThis.console = { log: write, info: write, warn: write, error: write, debug: write };
                let state = seed >>> 0;
                Math.random = function () {
                    state = (state + 0x6D2B79F5) >>> 0;
                    let t = state;
                    t = Math.imul(t ^ (t >>> 15), t | 1);
                    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
                    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
                };
                const SystemDate = Date;
                function DeviceDate(...values) {
                    if (!new.target) { return new SystemDate(now()).toString(); }
                    return Reflect.construct(SystemDate, values.length ? values : [now()], new.target);
                }
                DeviceDate.prototype = SystemDate.prototype;
                Object.defineProperty(SystemDate.prototype, 'constructor', { value: DeviceDate, writable: true, configurable: true });
                DeviceDate.now = function () { return now(); };
                DeviceDate.parse = SystemDate.parse;
                DeviceDate.UTC = SystemDate.UTC;
                globalThis.Date = DeviceDate;
                // JavaScriptCore does not consult a proxy in the global object's prototype chain
                // for unresolved names, so scripts run inside `with` over this one instead.
                Object.defineProperty(globalThis, '__showreelScope', {
                    value: new Proxy(globalThis, {
                        has(target, key) { return key !== Symbol.unscopables; },
                        get(target, key) { return key === Symbol.unscopables ? undefined : target[key]; }
                    })
                });
            })(__showreelNow, __showreelLog, \(seed & 0xFFFF_FFFF));
            delete globalThis.__showreelNow;
            delete globalThis.__showreelLog;
            """
    }
}
