// JavaScriptCore's C API: Debian's libjavascriptcoregtk-4.1 on Linux (pkg-config adds its
// include folder), the system framework on macOS. Both export the execution time limit but
// declare it only in the private JSContextRefPrivate.h, so it is declared here.
#include <JavaScriptCore/JavaScript.h>

typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback,
                                         void *context);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);
