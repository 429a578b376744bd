/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-category.h"

typedef struct {
  AfgCategory  category;
  const char  *needles[10];
} CategoryRule;

/* Order matters: the first rule with a matching needle wins. */
static const CategoryRule rules[] = {
  { AFG_CATEGORY_PYTHON, { ".py", "python", "<built-in", "<module>", NULL } },
  { AFG_CATEGORY_PYTHON_FRAMEWORK,
    { "torch", "aten::", "aten_", "c10::", "c10d::", "autograd::", NULL } },
  { AFG_CATEGORY_CANN,
    { "cann", "ascendcl", "aclnn", "aclrt", "aclmdl", "aclprof", "aclop",
      "acl_", "hccl", NULL } },
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
