/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-cores.h"

static GPrivate limit;  /* GUINT_TO_POINTER (cores), NULL: no limit */

guint
afg_cores_get (void)
{
  guint n = GPOINTER_TO_UINT (g_private_get (&limit));
  guint available = MAX (1, g_get_num_processors ());

  return n == 0 ? available : MIN (n, available);
}

void
afg_cores_limit_thread (guint n)
{
  g_private_set (&limit, GUINT_TO_POINTER (n));
}
