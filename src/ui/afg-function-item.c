/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions"

#include "config.h"

#include "afg-category.h"
#include "afg-function-item.h"
#include "afg-writers.h"

struct _AfgFunctionItem {
  GObject           parent_instance;

  AfgFunctionTable *table;
  guint             index;
  gint64            self_ns;
  gint64            total_ns;
  gint64            all_ns;
};

G_DEFINE_FINAL_TYPE (AfgFunctionItem, afg_function_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_CATEGORY,
  PROP_CALLS,
  PROP_SELF_NS,
  PROP_TOTAL_NS,
  PROP_PERCENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static double
self_share (AfgFunctionItem *self)
{
  return self->all_ns > 0 ? 100.0 * self->self_ns / self->all_ns : 0;
}

static void
afg_function_item_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgFunctionItem *self = AFG_FUNCTION_ITEM (object);
  const AfgFunction *f = afg_function_table_get (self->table, self->index);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, afg_function_item_get_name (self));
      break;
    case PROP_CATEGORY:
      g_value_set_string (value, afg_category_to_label (f->category));
      break;
    case PROP_CALLS:
      g_value_set_int64 (value, f->calls);
      break;
    case PROP_SELF_NS:
      g_value_set_int64 (value, self->self_ns);
      break;
    case PROP_TOTAL_NS:
      g_value_set_int64 (value, self->total_ns);
      break;
    case PROP_PERCENT:
      g_value_set_double (value, self_share (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_function_item_finalize (GObject *object)
{
  AfgFunctionItem *self = AFG_FUNCTION_ITEM (object);

  g_clear_pointer (&self->table, afg_function_table_unref);
  G_OBJECT_CLASS (afg_function_item_parent_class)->finalize (object);
}

static void
afg_function_item_class_init (AfgFunctionItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = afg_function_item_get_property;
  object_class->finalize = afg_function_item_finalize;
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_CATEGORY] = g_param_spec_string ("category", NULL, NULL, NULL, flags);
  properties[PROP_CALLS] = g_param_spec_int64 ("calls", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_SELF_NS] = g_param_spec_int64 ("self-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_TOTAL_NS] = g_param_spec_int64 ("total-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_PERCENT] = g_param_spec_double ("percent", NULL, NULL, 0, 100, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
afg_function_item_init (AfgFunctionItem *self)
{
}

AfgFunctionItem *
afg_function_item_new (AfgFunctionTable *table, guint index, gint64 self_ns, gint64 total_ns, gint64 all_ns)
{
  AfgFunctionItem *self;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (index < afg_function_table_get_n_functions (table), NULL);

  self = g_object_new (AFG_TYPE_FUNCTION_ITEM, NULL);
  self->table = afg_function_table_ref (table);
  self->index = index;
  self->self_ns = self_ns;
  self->total_ns = total_ns;
  self->all_ns = all_ns;
  return self;
}

guint
afg_function_item_get_index (AfgFunctionItem *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_ITEM (self), 0);
  return self->index;
}

const char *
afg_function_item_get_name (AfgFunctionItem *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_ITEM (self), NULL);
  return afg_function_table_get_name (self->table, self->index);
}

GListModel *
afg_function_item_list_new (AfgFunctionTable *table, AfgColumn weight)
{
  GListStore *store = g_list_store_new (AFG_TYPE_FUNCTION_ITEM);
  guint n = afg_function_table_get_n_functions (table);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);
  AfgWeight w = AFG_WEIGHT_HOST;
  g_autofree gint64 *self_sums = NULL;
  g_autofree gint64 *total_sums = NULL;
  gint64 all;

  if (!afg_tree_has_column (afg_function_table_get_tree (table), weight)
      || !afg_weight_from_total_column (weight, &w))
    w = AFG_WEIGHT_HOST;
  afg_function_table_sum_columns (table, afg_weight_get_self_column (w), afg_weight_get_total_column (w),
                                  &self_sums, &total_sums);
  all = afg_function_table_get_all (table, afg_weight_get_total_column (w));
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (items, afg_function_item_new (table, k, self_sums[k], total_sums[k], all));
  g_list_store_splice (store, 0, 0, items->pdata, n);
  return G_LIST_MODEL (store);
}
