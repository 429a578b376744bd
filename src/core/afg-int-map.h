/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Open-addressing map from 64-bit keys to 32-bit values: no allocation
 * per entry, one multiplicative hash per lookup. */
typedef struct {
  guint64 *keys;
  guint32 *values;
  guint8  *used;
  gsize    mask;
  gsize    n_items;
} AfgIntMap;

void     afg_int_map_init    (AfgIntMap *map,
                              gsize      expected);
void     afg_int_map_clear   (AfgIntMap *map);
gboolean afg_int_map_lookup  (const AfgIntMap *map,
                              guint64    key,
                              guint32   *value);
/* Returns the existing value for @key, or inserts @value and returns it. */
guint32  afg_int_map_insert  (AfgIntMap *map,
                              guint64    key,
                              guint32    value);

G_END_DECLS
