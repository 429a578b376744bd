/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-category.h"

typedef struct {
  AfgCategory  category;
  const char  *needles[10];
} CategoryRule;

/* MindStudio Insight's flamegraph.py (classify_frame) tests CANN, then the
 * framework, then Python, and so do we: PyTorch's own .py files
 * ("torch/nn/modules/module.py(1520): _call_impl") are framework, not the
 * user's Python. The first rule with a matching needle wins. Ours beyond the
 * script's, each last in its rule: "aclop", "acl_", "c10d::", "autograd::",
 * "<built-in", "<module>" (the script leaves these names unknown). Its
 * "torch_npu" is left out because "torch" already matches it. */
static const CategoryRule rules[] = {
  { AFG_CATEGORY_CANN,
    { "cann", "ascendcl", "aclnn", "aclrt", "aclmdl", "aclprof", "hccl",
      "aclop", "acl_", NULL } },
  { AFG_CATEGORY_PYTHON_FRAMEWORK,
    { "torch", "aten::", "c10::", "aten_", "c10d::", "autograd::", NULL } },
  { AFG_CATEGORY_PYTHON, { ".py", "python", "<built-in", "<module>", NULL } },
};

static gboolean
contains_any (const char *haystack, const char * const *needles)
{
  for (guint i = 0; needles[i] != NULL; i++)
    if (strstr (haystack, needles[i]) != NULL)
      return TRUE;
  return FALSE;
}

AfgCategory
afg_category_for_name (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (contains_any (lower, rules[i].needles))
      return rules[i].category;
  return AFG_CATEGORY_UNKNOWN;
}

const char *
afg_category_to_string (AfgCategory category)
{
  static const char * const names[] = {
    [AFG_CATEGORY_PYTHON] = "python",
    [AFG_CATEGORY_PYTHON_FRAMEWORK] = "python_framework",
    [AFG_CATEGORY_CANN] = "cann",
    [AFG_CATEGORY_UNKNOWN] = "unknown",
  };

  g_return_val_if_fail (category < AFG_N_CATEGORIES, "unknown");
  return names[category];
}

const char *
afg_category_to_label (AfgCategory category)
{
  static const char * const labels[] = {
    [AFG_CATEGORY_PYTHON] = N_("Python"),
    [AFG_CATEGORY_PYTHON_FRAMEWORK] = N_("Python framework"),
    [AFG_CATEGORY_CANN] = N_("CANN"),
    [AFG_CATEGORY_UNKNOWN] = N_("Other"),
  };

  g_return_val_if_fail (category < AFG_N_CATEGORIES, _("Other"));
  return _(labels[category]);
}
