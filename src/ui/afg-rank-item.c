/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-ranks"

#include "config.h"

#include <string.h>

#include "afg-rank-item.h"

struct _AfgRankItem {
  GObject               parent_instance;
  guint                 index;
  const AfgRankSummary *summary;
  AfgRankView           view;
};

G_DEFINE_FINAL_TYPE (AfgRankItem, afg_rank_item, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
afg_rank_item_class_init (AfgRankItemClass *klass)
{
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
afg_rank_item_init (AfgRankItem *self)
{
}

AfgRankItem *
afg_rank_item_new (guint index, const AfgRankSummary *summary)
{
  AfgRankItem *self = g_object_new (AFG_TYPE_RANK_ITEM, NULL);

  self->index = index;
  self->summary = summary;
  return self;
}

gboolean
afg_rank_item_is_all (AfgRankItem *self)
{
  g_return_val_if_fail (AFG_IS_RANK_ITEM (self), FALSE);

  return self->summary == NULL;
}

guint
afg_rank_item_get_index (AfgRankItem *self)
{
  g_return_val_if_fail (AFG_IS_RANK_ITEM (self), 0);

  return self->index;
}

const AfgRankSummary *
afg_rank_item_get_summary (AfgRankItem *self)
{
  g_return_val_if_fail (AFG_IS_RANK_ITEM (self), NULL);

  return self->summary;
}

const AfgRankView *
afg_rank_item_get_view (AfgRankItem *self)
{
  g_return_val_if_fail (AFG_IS_RANK_ITEM (self), NULL);

  return &self->view;
}

void
afg_rank_item_set_view (AfgRankItem *self, const AfgRankView *view)
{
  g_return_if_fail (AFG_IS_RANK_ITEM (self));

  if (memcmp (&self->view, view, sizeof *view) == 0)
    return;
  self->view = *view;
  g_signal_emit (self, signals[CHANGED], 0);
}
