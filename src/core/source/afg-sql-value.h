/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Integers of an untrusted DB, read per row on the hot paths. */
typedef enum { AFG_VALUE_OK, AFG_VALUE_NULL, AFG_VALUE_BAD } AfgValueStatus;

/* A whole decimal int64: optional sign, digits, nothing else. Up to 19
 * significant digits cannot overflow a guint64, so the range is checked
 * once at the end rather than per digit. */
static inline gboolean
afg_parse_int64 (const unsigned char *s, int len, gint64 *out)
{
  gboolean negative = FALSE;
  guint64 value = 0;
  int i = 0;

  if (len > 0 && (s[0] == '-' || s[0] == '+'))
    negative = s[i++] == '-';
  if (i == len)
    return FALSE;
  while (i < len - 1 && s[i] == '0')
    i++;
  if (len - i > 19)
    return FALSE;
  for (; i < len; i++)
    {
      guint digit = s[i] - '0';

      if (digit > 9)
        return FALSE;
      value = value * 10 + digit;
    }
  if (value > (guint64) G_MAXINT64 + negative)
    return FALSE;
  *out = negative ? (gint64) (0 - value) : (gint64) value;
  return TRUE;
}

/* sqlite3_value_* skips the per-call checks of sqlite3_column_*: this
 * runs five times per row. */
static inline AfgValueStatus
afg_column_int64 (sqlite3_stmt *stmt, int col, gint64 *out)
{
  sqlite3_value *value = sqlite3_column_value (stmt, col);

  switch (sqlite3_value_type (value))
    {
    case SQLITE_INTEGER:
      *out = sqlite3_value_int64 (value);
      return AFG_VALUE_OK;
    case SQLITE_TEXT:
      {
        const unsigned char *text = sqlite3_value_text (value);
        return afg_parse_int64 (text, sqlite3_value_bytes (value), out) ? AFG_VALUE_OK : AFG_VALUE_BAD;
      }
    case SQLITE_NULL:
      return AFG_VALUE_NULL;
    default:
      return AFG_VALUE_BAD;
    }
}

G_END_DECLS
