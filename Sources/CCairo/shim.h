#ifndef SHOWREEL_CCAIRO_SHIM_H
#define SHOWREEL_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#endif
