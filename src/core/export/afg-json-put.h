/* SPDX-License-Identifier: MIT */
#pragma once

/* Writing JSON text straight into room reserved at the end of a GString:
 * for the parts of an export written once per node or function, where
 * appending field by field took twice as long. */

#include <string.h>

#include <glib.h>

#include "afg-json-writer.h"

#define MAX_INT_TEXT 20  /* -9223372036854775808 */

static inline char *
put (char *p, const char *text, gsize len)
{
  memcpy (p, text, len);
  return p + len;
}

#define PUT_LITERAL(p, text) put ((p), (text), sizeof (text) - 1)

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* Two digits a step: half the chain of dependent multiplications. */
static inline char *
put_int (char *p, gint64 value)
{
  char buf[MAX_INT_TEXT];
  char *q = buf + sizeof buf;
  guint64 v = value < 0 ? 0 - (guint64) value : (guint64) value;

  while (v >= 100)
    {
      guint64 pair = v % 100;

      v /= 100;
      q -= 2;
      memcpy (q, digit_pairs + 2 * pair, 2);
    }
  if (v >= 10)
    {
      q -= 2;
      memcpy (q, digit_pairs + 2 * v, 2);
    }
  else
    *--q = (char) ('0' + v);
  if (value < 0)
    *--q = '-';
  return put (p, q, buf + sizeof buf - q);
}

/* Room for @n more bytes at the end of @out, returned; the caller ends
 * the text with end_room(). */
static inline char *
room (GString *out, gsize n)
{
  gsize len = out->len;

  if (len + n >= out->allocated_len)
    {
      g_string_set_size (out, len + n);
      out->len = len;
    }
  return out->str + len;
}

static inline void
end_room (GString *out, char *end)
{
  *end = '\0';
  out->len = end - out->str;
}

/* The length of @text when it needs no escaping, else -1. */
static inline gssize
plain_length (const char *text)
{
  const guchar *c;

  for (c = (const guchar *) text; *c && !afg_json_needs_escape (*c); c++)
    ;
  return *c ? -1 : (gssize) (c - (const guchar *) text);
}
