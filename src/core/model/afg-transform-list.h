/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-frame-matcher.h"

G_BEGIN_DECLS

/* The ways a call tree is reshaped (afg-tree-transform.h says how). */
typedef enum {
  AFG_TRANSFORM_FOCUS_FUNCTION,
  AFG_TRANSFORM_FOCUS_SUBTREE,
  AFG_TRANSFORM_MERGE_FUNCTION,
  AFG_TRANSFORM_DROP_FUNCTION,
  AFG_TRANSFORM_COLLAPSE_RECURSION,
  AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION,
  AFG_N_TRANSFORM_OPS
} AfgTransformOp;

typedef struct {
  AfgTransformOp op;
  char          *arg;   /* F (a name, /REGEX/ or //NAME), or PATH for focus-subtree */
} AfgTransform;

/* "focus-function", … as the command line's options (without "--") and
 * JSON's "op" spell them. */
const char *afg_transform_op_to_string   (AfgTransformOp  op);
gboolean    afg_transform_op_from_string (const char     *text,
                                          AfgTransformOp *op);

/* A focus-subtree PATH, `a;b;c` from the thread's top, split into its
 * names (`\;` is a ';' in a name, `\\` a '\'); NULL with an error for
 * another escape. A name may be empty, as a frame's may: `a;` is a's
 * child named "", and "" the top frame named "" (the join of any list of
 * names splits back into it). */
char      **afg_transform_path_split     (const char     *path,
                                          GError        **error);
/* The PATH that names @names (NULL-terminated), escaped. */
char       *afg_transform_path_join      (const char * const *names);

/* Transforms in the order they apply; immutable once shared. */
typedef struct _AfgTransformList AfgTransformList;

AfgTransformList   *afg_transform_list_new      (void);
AfgTransformList   *afg_transform_list_ref      (AfgTransformList       *self);
void                afg_transform_list_unref    (AfgTransformList       *self);
/* Checks @arg (F or PATH) before appending: FALSE with
 * AFG_TRANSFORM_ERROR when it cannot be read. */
gboolean            afg_transform_list_append   (AfgTransformList       *self,
                                                 AfgTransformOp          op,
                                                 const char             *arg,
                                                 GError                **error);
/* @a's transforms, then @b's (either may be NULL). */
AfgTransformList   *afg_transform_list_concat   (const AfgTransformList *a,
                                                 const AfgTransformList *b);
/* The first @n transforms: what a breadcrumb's × leaves. */
AfgTransformList   *afg_transform_list_head     (const AfgTransformList *self,
                                                 guint                   n);
guint               afg_transform_list_get_length (const AfgTransformList *self);
const AfgTransform *afg_transform_list_get      (const AfgTransformList *self,
                                                 guint                   index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgTransformList, afg_transform_list_unref)

G_END_DECLS
