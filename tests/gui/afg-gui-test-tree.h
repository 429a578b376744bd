/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-test-db.h"

G_BEGIN_DECLS

/* A known two-thread tree. Thread 1/2 (1000 ns):
 *   main.py(1): run [0,1000)
 *     aten::add [100,400)  > aten::mul [150,250)
 *     torch/nn.py(5): forward [500,900) > aten::mm [600,800)
 * Thread 1/3 (500 ns): acl_op [0,500). */
AfgTestDb *afg_gui_test_tree_new (void);

/* A g_test_add fixture holding that tree, loaded. */
typedef struct {
  AfgTestDb  *db;
  AfgTree *tree;
} AfgGuiTreeFixture;

void       afg_gui_tree_fixture_set_up    (AfgGuiTreeFixture *f,
                                           gconstpointer      data);
void       afg_gui_tree_fixture_tear_down (AfgGuiTreeFixture *f,
                                           gconstpointer      data);
/* The tree of the real sample @name (tests/data/NAME.db), built with
 * @flags; asserts that it loads. */
AfgTree   *afg_gui_test_load_sample       (const char        *name,
                                           AfgTreeFlags       flags);
/* The node at "pid/tid;frame;…", asserted to exist. */
guint32    afg_gui_tree_node              (AfgGuiTreeFixture *f,
                                           const char        *path);

G_END_DECLS
