/* SPDX-License-Identifier: MIT */
#include "afg-names.h"

#include <string.h>

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
