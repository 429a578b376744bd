/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-bisect.h"
#include "afg-thread-role.h"

const char *
afg_thread_role_to_key (AfgThreadRole role)
{
  static const char * const keys[] = {
    [AFG_THREAD_ROLE_NONE] = NULL,
    [AFG_THREAD_ROLE_MAIN] = "main",
    [AFG_THREAD_ROLE_AUTOGRAD] = "autograd",
    [AFG_THREAD_ROLE_DEQUEUE] = "dequeue",
  };

  g_return_val_if_fail (role < AFG_N_THREAD_ROLES, NULL);
  return keys[role];
}

/* The key, translated; NULL for none. */
static const char *
role_label (AfgThreadRole role)
{
  static const char * const labels[] = {
    [AFG_THREAD_ROLE_NONE] = NULL,
    [AFG_THREAD_ROLE_MAIN] = NC_("thread role", "main"),
    [AFG_THREAD_ROLE_AUTOGRAD] = NC_("thread role", "autograd"),
    [AFG_THREAD_ROLE_DEQUEUE] = NC_("thread role", "dequeue"),
  };

  g_return_val_if_fail (role < AFG_N_THREAD_ROLES, NULL);
  return labels[role] != NULL ? g_dpgettext2 (GETTEXT_PACKAGE, "thread role", labels[role]) : NULL;
}

char *
afg_thread_role_describe (AfgThreadRole role, const char *label)
{
  if (role == AFG_THREAD_ROLE_NONE)
    return g_strdup (label);
  /* TRANSLATORS: a thread's role, then its pid/tid: "main · 3136493/3136493" */
  return g_strdup_printf (_("%s · %s"), role_label (role), label);
}

AfgThreadRole
afg_thread_role_of_name (const char *name)
{
  if (g_str_has_prefix (name, "autograd::engine"))
    return AFG_THREAD_ROLE_AUTOGRAD;
  if (g_str_has_prefix (name, "Dequeue"))
    return AFG_THREAD_ROLE_DEQUEUE;
  return AFG_THREAD_ROLE_NONE;
}

static guint
thread_of (const AfgEventStore *events, gint64 global_tid)
{
  guint n = afg_event_store_get_n_threads (events), lo = 0, hi = n;

  AFG_BISECT (guint, lo, hi, mid, afg_event_store_get_thread (events, mid)->global_tid < global_tid);
  return lo < n && afg_event_store_get_thread (events, lo)->global_tid == global_tid ? lo : G_MAXUINT;
}

/* counts[thread * AFG_N_THREAD_ROLES + role] */
static void
count_rows (const AfgEventStore *events, const guint8 *name_roles, const gint64 *step_tids, guint n_step_tids,
            guint64 *counts)
{
  guint n = afg_event_store_get_n_threads (events);

  for (guint i = 0; i < n_step_tids; i++)
    {
      guint t = thread_of (events, step_tids[i]);

      if (t != G_MAXUINT)
        counts[t * AFG_N_THREAD_ROLES + AFG_THREAD_ROLE_MAIN]++;
    }
  for (guint t = 0; t < n; t++)
    {
      const AfgEventThread *thread = afg_event_store_get_thread (events, t);

      for (guint64 e = 0; e < thread->n_events; e++)
        counts[t * AFG_N_THREAD_ROLES + name_roles[thread->events[e].name]]++;
    }
}

void
afg_thread_roles_assign (const AfgEventStore *events, const guint8 *name_roles, const gint64 *step_tids,
                         guint n_step_tids, guint8 *roles)
{
  guint n = afg_event_store_get_n_threads (events);
  g_autofree guint64 *counts = g_new0 (guint64, (gsize) MAX (n, 1) * AFG_N_THREAD_ROLES);

  count_rows (events, name_roles, step_tids, n_step_tids, counts);
  memset (roles, AFG_THREAD_ROLE_NONE, n);
  for (guint role = AFG_THREAD_ROLE_MAIN; role < AFG_N_THREAD_ROLES; role++)
    {
      guint best = G_MAXUINT;

      /* Threads are in ascending global tid: a strict > keeps the lowest. */
      for (guint t = 0; t < n; t++)
        if (roles[t] == AFG_THREAD_ROLE_NONE && counts[t * AFG_N_THREAD_ROLES + role] > 0
            && (best == G_MAXUINT || counts[t * AFG_N_THREAD_ROLES + role] > counts[best * AFG_N_THREAD_ROLES + role]))
          best = t;
      if (best != G_MAXUINT)
        roles[best] = (guint8) role;
    }
}
