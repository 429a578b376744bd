/* SPDX-License-Identifier: MIT */
/* Writes the known test tree (afg-gui-test-tree.h) and prints its path;
 * the caller removes the directory. */
#include <stdio.h>

#include "afg-gui-test-tree.h"

int
main (void)
{
  g_autofree char *path = afg_test_db_keep (afg_gui_test_tree_new ());

  printf ("%s\n", path);
  return 0;
}
