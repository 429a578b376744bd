/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-tree.h"
#include "afg-writers.h"

G_BEGIN_DECLS

#define AFG_TYPE_KERNEL_LIST (afg_kernel_list_get_type ())

G_DECLARE_FINAL_TYPE (AfgKernelList, afg_kernel_list, AFG, KERNEL_LIST, GtkWidget)

/* The Functions panel's Kernels tab: the kernel leaves of every frame
 * summed by kind and name (afg_kernel_rows_new()), as `--top N --weight W
 * --kernels` lists them: name, kind, count, time, exposed time, sorted by
 * the weight (in host and npu weights by time). */
GtkWidget *afg_kernel_list_new        (void);
/* @tree may be NULL. */
void       afg_kernel_list_set_tree   (AfgKernelList *self,
                                       AfgTree       *tree);
void       afg_kernel_list_set_weight (AfgKernelList *self,
                                       AfgWeight      weight);
/* "COUNT [KIND] NAME" of the first row, NULL when there is none. */
char      *afg_kernel_list_get_top    (AfgKernelList *self);

G_END_DECLS
