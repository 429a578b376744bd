/* SPDX-License-Identifier: MIT */
/* libFuzzer harness that loads each input twice, with the direct b-tree
 * reader (afg-table-scan.h) and with SQLite alone (AFG_SQLITE_ONLY), and
 * aborts when the two JSON exports (or error messages) differ by a byte.
 * The input is written as afg-fuzz-input.h says. */
#include "config.h"

#include <glib.h>

#include "afg-fuzz-input.h"
#include "afg-loader.h"
#include "afg-source.h"
#include "afg-table-scan.h"
#include "afg-tree-builder.h"
#include "afg-writers.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *
load_json (const char *path, gboolean sqlite_only)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  GString *json = g_string_new (NULL);

  afg_source_set_sqlite_only (sqlite_only);
  document = afg_document_load (path, NULL, NULL, NULL, &error);
  if (document != NULL)
    tree = afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, NULL, &error);
  if (tree != NULL)
    afg_json_write (tree, json);
  else
    g_string_printf (json, "error: %s", error->message);
  return g_string_free (json, FALSE);
}

/* The first byte where @a and @b part, with some context. */
static void
report (const char *a, const char *b)
{
  gsize at = 0;

  while (a[at] != '\0' && a[at] == b[at])
    at++;
  at = at > 80 ? at - 80 : 0;
  g_printerr ("the direct read and SQLite differ:\n  direct: %.400s\n  sqlite: %.400s\n", a + at, b + at);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  const char *path = afg_fuzz_write_input (data, size);
  g_autofree char *direct = load_json (path, FALSE);
  g_autofree char *sqlite = load_json (path, TRUE);

  if (g_strcmp0 (direct, sqlite) != 0)
    {
      report (direct, sqlite);
      g_error ("differential: the two readers disagree");
    }
  return 0;
}
