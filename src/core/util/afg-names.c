/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-names.h"

gboolean
afg_names_find (const char * const *names, guint n, const char *text, guint *index)
{
  if (text == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (strcmp (text, names[i]) == 0)
      {
        *index = i;
        return TRUE;
      }
  return FALSE;
}
