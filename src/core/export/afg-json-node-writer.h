/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-category.h"
#include "afg-tree.h"

G_BEGIN_DECLS

/* The nodes of a JSON export, most of its text, each written straight
 * into room reserved for it: appending field by field took twice as long.
 * What a node writes is resolved once per tree. */
typedef struct {
  const gint64 *values;
  const char   *key;     /* ,"key": */
  gsize         key_len;
} AfgJsonNodeField;

typedef struct {
  const AfgTree    *tree;
  AfgJsonNodeField  fields[AFG_N_COLUMNS];
  guint             n_fields;
  const gint64     *durations[AFG_N_DURATION_COLUMNS];  /* NULL without them */
  gboolean          kernels;   /* "kernels" on each node: with NPU data */
  const char       *categories[AFG_N_CATEGORIES];
  gsize             category_lens[AFG_N_CATEGORIES];
  char             *keys;
} AfgJsonNodeWriter;

void afg_json_node_writer_init  (AfgJsonNodeWriter *writer,
                                 const AfgTree     *tree);
void afg_json_node_writer_clear (AfgJsonNodeWriter *writer);
/* An AfgJsonNodeFunc: {"name",…,"children":[ of node @i, @data the writer. */
void afg_json_node_writer_open  (GString           *out,
                                 guint32            i,
                                 gpointer           data);

G_END_DECLS
