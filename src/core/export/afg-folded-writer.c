/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-profile-private.h"
#include "afg-writers.h"

/* Collapsed stacks separate frames with ';' and the count with a space:
 * frame names keep their spaces (readers split at the last one), but a
 * newline would break the line format. */
static void
append_frame (GString *out, const char *name)
{
  for (const char *p = name; *p; p++)
    g_string_append_c (out, *p == '\n' || *p == '\r' || *p == ';' ? ' ' : *p);
}

static void
append_stack (GString *out, const AfgProfile *p, guint32 index)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = index; i != AFG_NODE_NONE; i = p->nodes[i].parent)
    g_array_append_val (path, i);
  for (guint k = path->len; k-- > 0;)
    {
      append_frame (out, afg_profile_get_node_name (p, g_array_index (path, guint32, k)));
      g_string_append_c (out, k > 0 ? ';' : ' ');
    }
  g_string_append_printf (out, "%" G_GINT64_FORMAT "\n", p->nodes[index].self_ns);
}

/* Depth-first order, so that the lines of a thread come out sorted by path. */
void
afg_folded_write (const AfgProfile *p, GString *out)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint t = p->n_threads; t-- > 0;)
    g_array_append_val (stack, p->threads[t].root);
  while (stack->len > 0)
    {
      guint32 i = g_array_index (stack, guint32, stack->len - 1);
      const AfgNode *n = &p->nodes[i];

      g_array_set_size (stack, stack->len - 1);
      if (n->self_ns > 0)
        append_stack (out, p, i);
      for (guint32 c = n->n_children; c-- > 0;)
        {
          guint32 child = n->first_child + c;
          g_array_append_val (stack, child);
        }
    }
}
