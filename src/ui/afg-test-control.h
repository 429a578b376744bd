/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* With AFG_TEST_STATE and AFG_TEST_CONTROL set, reads test commands from
 * stdin (docs/test-state-line.md); otherwise does nothing. */
void  afg_test_control_start   (GtkApplication *app);
/* The number of the last barrier passed, 0 before the first. */
guint afg_test_control_get_seq (void);

G_END_DECLS
