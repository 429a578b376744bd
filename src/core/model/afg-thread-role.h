/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-event-store.h"

G_BEGIN_DECLS

/* What a thread does in a torch_npu profile, told by its rows: the
 * training loop (its ProfilerStep# rows), the backward pass
 * ("autograd::engine…" rows) or the task queue's consumer ("Dequeue…"). */
typedef enum {
  AFG_THREAD_ROLE_NONE,
  AFG_THREAD_ROLE_MAIN,
  AFG_THREAD_ROLE_AUTOGRAD,
  AFG_THREAD_ROLE_DEQUEUE,
  AFG_N_THREAD_ROLES
} AfgThreadRole;

/* "main", "autograd", "dequeue" (JSON and the page); NULL for none. */
const char    *afg_thread_role_to_key   (AfgThreadRole  role);
/* "main · pid/tid" or @label alone when the thread has no role. */
char          *afg_thread_role_describe (AfgThreadRole  role,
                                         const char    *label);
/* The role a row named @name speaks for (AUTOGRAD or DEQUEUE), or NONE. */
AfgThreadRole  afg_thread_role_of_name  (const char    *name);

/* Fills @roles (one per thread of @events) in this order: main, autograd,
 * dequeue, each to the one thread, among those without a role yet, with
 * the most rows for it (ties: the lowest global tid), none when no thread
 * has any. A thread's rows for main are its ProfilerStep# rows (the
 * global tids in @step_tids, one per row: they are not events); for the
 * others its events whose names @name_roles (per string index, of
 * afg_thread_role_of_name) gives that role. */
void           afg_thread_roles_assign  (const AfgEventStore *events,
                                         const guint8        *name_roles,
                                         const gint64        *step_tids,
                                         guint                n_step_tids,
                                         guint8              *roles);

G_END_DECLS
