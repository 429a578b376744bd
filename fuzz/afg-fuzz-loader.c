/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the loader: bytes -> SQLite file -> load -> JSON.
 * The input is written as afg-fuzz-input.h says. */
#include "config.h"

#include <glib.h>

#include "afg-fuzz-input.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-writers.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  const char *db_path = afg_fuzz_write_input (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) profile = NULL;

  document = afg_document_load (db_path, NULL, NULL, NULL, &error);
  if (document != NULL)
    profile = afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, NULL, &error);
  if (profile != NULL)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_assert_null (error);
      afg_json_write (profile, json);
      g_assert (json->len > 0);
    }
  else
    {
      g_assert (error != NULL);
      g_assert (error->message != NULL);
    }
  return 0;
}
