/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* Pieces of the exported pages (afg-html-writer.c) that the diff page
 * shares. */

/* Appends the piece for @marker ("@AFG_NAME@", @len bytes) to @out. */
typedef gboolean (*AfgHtmlMarkerFunc) (GString     *out,
                                       const char  *marker,
                                       gsize        len,
                                       gpointer     data,
                                       GError     **error);

/* A file of data/html, compiled in as a resource. */
gboolean  afg_html_append_file   (GString           *out,
                                  const char        *name,
                                  GError           **error);
/* Copies the template @template_name with each @AFG_…@ marker replaced
 * by what @marker_func appends. */
gboolean  afg_html_expand        (const char        *template_name,
                                  AfgHtmlMarkerFunc  marker_func,
                                  gpointer           data,
                                  GString           *out,
                                  GError           **error);
/* The data block's base-64 varints (data/html/README.md). */
void      afg_html_append_varint (GString           *out,
                                  guint64            value);
/* ,"categories":…,"names":…,"name_prefix":…,"name_categories":… for the
 * distinct names of @tree's frames (the nodes after its threads), front-
 * coded in byte order. Returns, per string of the tree's document, its
 * index among those names (G_MAXUINT32 for none); g_free() it. */
guint32  *afg_html_append_names  (GString           *out,
                                  const AfgTree     *tree);

/* ,"kernels":…,"kernel_names":… with NPU data (the kernel leaves, from
 * which the page derives the device time by kind; data/html/README.md);
 * nothing without. */
void      afg_html_append_kinds  (GString           *out,
                                  const AfgTree     *tree);

G_END_DECLS
