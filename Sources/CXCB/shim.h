#ifndef SHOWREEL_CXCB_SHIM_H
#define SHOWREEL_CXCB_SHIM_H
// The X client libraries ShowreelX11 captures a display with: xcb and its shm (shared-memory
// images), damage (what changed) and xfixes (the pointer's image) extensions.
#include <xcb/xcb.h>
#include <xcb/shm.h>
#include <xcb/damage.h>
#include <xcb/xfixes.h>
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
