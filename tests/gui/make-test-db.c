/* SPDX-License-Identifier: MIT */
/* Writes the known test tree (afg-gui-test-tree.h) and prints its path;
 * the caller removes the directory. */
#include <stdio.h>

#include "afg-gui-test-tree.h"

int
main (void)
{
  AfgTestDb *db = afg_gui_test_tree_new ();

  afg_test_db_close (db);
  printf ("%s\n", db->path);
  return 0;
}
