#ifndef SHOWREEL_CCAIRO_SHIM_H
#define SHOWREEL_CCAIRO_SHIM_H
#include <cairo/cairo.h>
// Text: Pango lays out and HarfBuzz shapes (Arabic joining, bidi, font fallback to Noto).
#include <pango/pangocairo.h>
#endif
