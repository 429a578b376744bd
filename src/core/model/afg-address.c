/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-address.h"

#define MARK " at 0x"
#define ELLIPSIS "\xe2\x80\xa6"

static gsize
hex_run (const char *p)
{
  gsize n = 0;

  while (g_ascii_isxdigit (p[n]))
    n++;
  return n;
}

char *
afg_address_merge (const char *name)
{
  const char *p = strstr (name, MARK);
  GString *out;

  if (p == NULL)
    return NULL;
  out = g_string_new (NULL);
  for (; p != NULL; p = strstr (p, MARK))
    {
      gsize digits = hex_run (p + strlen (MARK));

      g_string_append_len (out, name, p + strlen (MARK) - name);
      name = p + strlen (MARK) + digits;
      if (digits > 0)
        g_string_append (out, ELLIPSIS);
      p = name;
    }
  g_string_append (out, name);
  return g_string_free (out, FALSE);
}
