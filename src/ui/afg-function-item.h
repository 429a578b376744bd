/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-function-table.h"

G_BEGIN_DECLS

#define AFG_TYPE_FUNCTION_ITEM (afg_function_item_get_type ())

G_DECLARE_FINAL_TYPE (AfgFunctionItem, afg_function_item, AFG, FUNCTION_ITEM, GObject)

/* One row of a function table as an object for list models: its values
 * are read-only properties (name, category, calls, self-ns, total-ns,
 * percent: self time as a share of all) that sorters and filters take
 * by name. The times are those of a weight: @self_ns and @total_ns its
 * sums for the function, @all_ns its whole (the root's total). */
AfgFunctionItem *afg_function_item_new       (AfgFunctionTable *table,
                                              guint             index,
                                              gint64            self_ns,
                                              gint64            total_ns,
                                              gint64            all_ns);
guint            afg_function_item_get_index (AfgFunctionItem  *self);
const char      *afg_function_item_get_name  (AfgFunctionItem  *self);
/* A GListStore of AfgFunctionItem, one per function, in the table's
 * order, in the weight whose total column is @weight (host time when the
 * table's tree lacks it). */
GListModel      *afg_function_item_list_new  (AfgFunctionTable *table,
                                              AfgColumn         weight);

G_END_DECLS
