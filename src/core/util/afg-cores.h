/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How many cores a parallel phase (the loader's readers, the tree's
 * durations, a writer) may use when run from this thread:
 * g_get_num_processors(), unless the thread was limited. */
guint afg_cores_get           (void);
/* Limits the calling thread's phases to @n cores (0: no limit). A job's
 * worker reads one rank on one core, so that two workers do not each
 * spread helper threads over the cores the other one uses. */
void  afg_cores_limit_thread  (guint n);

G_END_DECLS
