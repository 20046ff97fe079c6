#ifndef SHOWREEL_CXCB_SHIM_H
#define SHOWREEL_CXCB_SHIM_H
// The X client libraries ShowreelX11 captures a display with: xcb and its shm (shared-memory
// images), damage (what changed), xfixes (the pointer's image) and xinput (the pointer's moves)
// extensions.
#include <xcb/xcb.h>
#include <xcb/shm.h>
#include <xcb/damage.h>
#include <xcb/xfixes.h>
#include <xcb/xinput.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// Helpers for what Swift cannot call or name directly (macros, variadic or awkward pointers).

/// The event's type without the "sent by SendEvent" bit.
static inline uint8_t showreel_xcb_event_type(const xcb_generic_event_t *event) {
    return event->response_type & 0x7f;
}

/// A private System V segment of `size` bytes, removed once the last attachment goes
/// (IPC_RMID right after attaching: a killed recorder leaks nothing).
/// Each extension's presence and first event code (the extension ids are incomplete types Swift cannot take the address of).
static inline const xcb_query_extension_reply_t *showreel_shm_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_shm_id);
}
static inline const xcb_query_extension_reply_t *showreel_damage_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_damage_id);
}
static inline const xcb_query_extension_reply_t *showreel_xfixes_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_xfixes_id);
}

static inline const xcb_query_extension_reply_t *showreel_input_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_input_id);
}

/// The extension (major opcode) and XI2 event type of a GenericEvent.
static inline uint8_t showreel_xcb_generic_extension(const xcb_generic_event_t *event) {
    return ((const xcb_ge_generic_event_t *)event)->extension;
}
static inline uint16_t showreel_xcb_generic_type(const xcb_generic_event_t *event) {
    return ((const xcb_ge_generic_event_t *)event)->event_type;
}

/// Asks for every move of the pointer on `window` (the root): raw motion, which real devices and
/// XTest (xdotool, PyAutoGUI) make whichever window the pointer is over, and motion, which a
/// warp makes. The mask follows its header in one request: a layout Swift cannot build.
static inline xcb_void_cookie_t showreel_select_pointer_motion(xcb_connection_t *c, xcb_window_t window) {
    struct {
        xcb_input_event_mask_t head;
        uint32_t mask;
    } selection = {
        {XCB_INPUT_DEVICE_ALL_MASTER, 1},
        XCB_INPUT_XI_EVENT_MASK_RAW_MOTION | XCB_INPUT_XI_EVENT_MASK_MOTION,
    };
    return xcb_input_xi_select_events_checked(c, window, 1, &selection.head);
}

static inline int showreel_shm_create(size_t size) {
    return shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
}

static inline void *showreel_shm_attach(int segment) {
    void *address = shmat(segment, NULL, 0);
    return address == (void *)-1 ? NULL : address;
}

static inline void showreel_shm_remove(int segment) {
    shmctl(segment, IPC_RMID, NULL);
}

#endif
