/* SPDX-License-Identifier: MIT */
#pragma once

#include <string.h>

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Integers of an untrusted DB, read per row on the hot paths. */
typedef enum { AFG_VALUE_OK, AFG_VALUE_NULL, AFG_VALUE_BAD } AfgValueStatus;

/* Eight ASCII digits at @s? (SWAR: no byte leaves 0x30-0x39.) */
static inline gboolean
afg_eight_digits (const unsigned char *s, guint64 *value)
{
  guint64 v;

  memcpy (&v, s, sizeof v);
  if ((((v & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0))
        | (((v + G_GUINT64_CONSTANT (0x0606060606060606)) & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) >> 4))
       != G_GUINT64_CONSTANT (0x3333333333333333)))
    return FALSE;
  /* Pairs, then fours, then all eight; the first digit is the lowest byte. */
  v = (v & G_GUINT64_CONSTANT (0x0F0F0F0F0F0F0F0F)) * 2561 >> 8;
  v = (v & G_GUINT64_CONSTANT (0x00FF00FF00FF00FF)) * 6553601 >> 16;
  *value = (v & G_GUINT64_CONSTANT (0x0000FFFF0000FFFF)) * G_GUINT64_CONSTANT (42949672960001) >> 32;
  return TRUE;
}

/* A whole decimal int64: optional sign, digits, nothing else. Up to 19
 * significant digits cannot overflow a guint64, so the range is checked
 * once at the end rather than per digit. Timestamps are 19 digits: eight
 * at a time where the bytes allow it. */
static inline gboolean
afg_parse_int64 (const unsigned char *s, int len, gint64 *out)
{
  gboolean negative = FALSE;
  guint64 value = 0, eight;
  int i = 0;

  if (len > 0 && (s[0] == '-' || s[0] == '+'))
    negative = s[i++] == '-';
  if (i == len)
    return FALSE;
  while (i < len - 1 && s[i] == '0')
    i++;
  if (len - i > 19)
    return FALSE;
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  for (; len - i >= 8 && afg_eight_digits (s + i, &eight); i += 8)
    value = value * 100000000 + eight;
#endif
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

/* One value of a row, as SQLite would return it: @type is SQLITE_INTEGER,
 * SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL; @bytes and @len
 * for text and blobs (not NUL-terminated). Filled either from a
 * statement or by the b-tree reader (afg-btree-cursor.h). */
typedef struct {
  int                  type;
  int                  len;
  gint64               i;
  double               d;
  const unsigned char *bytes;
} AfgValue;

#define AFG_ROW_MAX_VALUES 8

typedef struct {
  gint64   rowid;
  AfgValue values[AFG_ROW_MAX_VALUES];
} AfgRow;

static inline AfgValueStatus
afg_value_int64 (const AfgValue *value, gint64 *out)
{
  switch (value->type)
    {
    case SQLITE_INTEGER:
      *out = value->i;
      return AFG_VALUE_OK;
    case SQLITE_TEXT:
      return afg_parse_int64 (value->bytes, value->len, out) ? AFG_VALUE_OK : AFG_VALUE_BAD;
    case SQLITE_NULL:
      return AFG_VALUE_NULL;
    default:
      return AFG_VALUE_BAD;
    }
}

/* sqlite3_value_* skips the per-call checks of sqlite3_column_*: this
 * runs for every value of every row. */
static inline void
afg_value_from_stmt (sqlite3_stmt *stmt, int col, AfgValue *out)
{
  sqlite3_value *value = sqlite3_column_value (stmt, col);

  out->type = sqlite3_value_type (value);
  switch (out->type)
    {
    case SQLITE_INTEGER:
      out->i = sqlite3_value_int64 (value);
      break;
    case SQLITE_FLOAT:
      out->d = sqlite3_value_double (value);
      break;
    case SQLITE_TEXT:
      out->bytes = sqlite3_value_text (value);
      out->len = sqlite3_value_bytes (value);
      break;
    case SQLITE_BLOB:
      out->bytes = sqlite3_value_blob (value);
      out->len = sqlite3_value_bytes (value);
      break;
    default:
      break;
    }
}

/* The first @n columns of the statement's current row. */
static inline void
afg_row_from_stmt (sqlite3_stmt *stmt, int n, AfgRow *row)
{
  for (int i = 0; i < n && i < AFG_ROW_MAX_VALUES; i++)
    afg_value_from_stmt (stmt, i, &row->values[i]);
}

static inline AfgValueStatus
afg_column_int64 (sqlite3_stmt *stmt, int col, gint64 *out)
{
  AfgValue value;

  afg_value_from_stmt (stmt, col, &value);
  return afg_value_int64 (&value, out);
}

G_END_DECLS
