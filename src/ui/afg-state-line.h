/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib-object.h>

#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_STATE_LINE (afg_state_line_get_type ())
G_DECLARE_FINAL_TYPE (AfgStateLine, afg_state_line, AFG, STATE_LINE, GObject)

/* The test state line of a window (docs/test-state-line.md): with
 * AFG_TEST_STATE set, one line on stderr whenever what the window shows
 * changes. It follows the window's session, and the sections report
 * what the session does not hold. */
AfgStateLine *afg_state_line_new    (AfgWindow    *window);
void          afg_state_line_report (AfgStateLine *self);

G_END_DECLS
