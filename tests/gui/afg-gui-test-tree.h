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

G_END_DECLS
