/* SPDX-License-Identifier: MIT */
/* libFuzzer harness that loads each input twice, with the direct b-tree
 * reader (afg-table-scan.h) and with SQLite alone (AFG_SQLITE_ONLY), and
 * aborts when the two JSON exports (or error messages) differ by a byte.
 * The input is written as afg-fuzz-input.h says.
 *
 * SQLite itself may answer differently from one load to the next on a
 * damaged page: it can read a few bytes past the page's end, into memory
 * whose content varies (addresses). Where the direct read gave a table to
 * SQLite, the two loads then differ without any reader being wrong. A
 * difference is therefore loaded again both ways: when some load of one
 * way gives an answer some load of the other way gave, SQLite's own
 * variation explains it; only answers that never meet are a failure.
 * Nor is a difference the direct reader's when it read no table at all
 * (a file it refuses, such as one whose size is no whole number of
 * pages): both loads then ran the same SQLite path. */
#include "config.h"

#include <stdlib.h>

#include <glib.h>

#include "afg-fuzz-input.h"
#include "afg-loader.h"
#include "afg-source.h"
#include "afg-table-scan.h"
#include "afg-tree-builder.h"
#include "afg-writers.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* @direct_tables: set to the tables the direct reader read whole, or NULL. */
static char *
load_json (const char *path, gboolean sqlite_only, guint *direct_tables)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  GString *json = g_string_new (NULL);
  guint fast0, fast, fallbacks;

  afg_source_set_sqlite_only (sqlite_only);
  afg_table_scan_get_counts (&fast0, &fallbacks);
  document = afg_document_load (path, NULL, NULL, NULL, &error);
  afg_table_scan_get_counts (&fast, &fallbacks);
  if (direct_tables != NULL)
    *direct_tables = fast - fast0;
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

#define RELOADS 12

/* TRUE when some reload of either way gives an answer the other way gave. */
static gboolean
answers_meet (const char *path, const char *direct, const char *sqlite)
{
  g_autoptr(GHashTable) by_direct = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) by_sqlite = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *seen[2] = { by_direct, by_sqlite };

  g_hash_table_add (seen[0], g_strdup (direct));
  g_hash_table_add (seen[1], g_strdup (sqlite));
  for (guint i = 0; i < 2 * RELOADS; i++)
    {
      gboolean sqlite_only = i % 2;
      char *json = load_json (path, sqlite_only, NULL);

      if (g_hash_table_contains (seen[!sqlite_only], json))
        {
          g_free (json);
          return TRUE;
        }
      g_hash_table_add (seen[sqlite_only], json);
    }
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static guint unstable;
  const char *path = afg_fuzz_write_input (data, size);
  guint direct_tables;
  g_autofree char *direct = load_json (path, FALSE, &direct_tables);
  g_autofree char *sqlite = load_json (path, TRUE, NULL);

  if (g_strcmp0 (direct, sqlite) == 0)
    return 0;
  if (direct_tables == 0 || answers_meet (path, direct, sqlite))
    {
      if (unstable++ % 100 == 0)
        g_printerr ("differential: %u inputs SQLite reads differently from load to load\n", unstable);
      return 0;
    }
  report (direct, sqlite);
  g_printerr ("differential: the two readers disagree\n");
  abort ();  /* libFuzzer keeps the input on SIGABRT */
}
