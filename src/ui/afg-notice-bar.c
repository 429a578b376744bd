/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-notice-bar"

#include "config.h"

#include "afg-notice-bar.h"

struct _AfgNoticeBar {
  GtkWidget    parent_instance;

  /* Template children */
  GtkRevealer *revealer;
  GtkLabel    *message_label;
  GtkButton   *open_button;
};

G_DEFINE_FINAL_TYPE (AfgNoticeBar, afg_notice_bar, GTK_TYPE_WIDGET)

static void
afg_notice_bar_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AFG_TYPE_NOTICE_BAR);

  G_OBJECT_CLASS (afg_notice_bar_parent_class)->dispose (object);
}

static void
afg_notice_bar_class_init (AfgNoticeBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = afg_notice_bar_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-notice-bar.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, AfgNoticeBar, revealer);
  gtk_widget_class_bind_template_child (widget_class, AfgNoticeBar, message_label);
  gtk_widget_class_bind_template_child (widget_class, AfgNoticeBar, open_button);
}

static void
afg_notice_bar_init (AfgNoticeBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
afg_notice_bar_show (AfgNoticeBar *self, const char *message, const char *open_label)
{
  g_return_if_fail (AFG_IS_NOTICE_BAR (self));

  gtk_label_set_text (self->message_label, message);
  if (open_label != NULL)
    gtk_button_set_label (self->open_button, open_label);
  gtk_widget_set_visible (GTK_WIDGET (self->open_button), open_label != NULL);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

void
afg_notice_bar_dismiss (AfgNoticeBar *self)
{
  g_return_if_fail (AFG_IS_NOTICE_BAR (self));

  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

const char *
afg_notice_bar_get_message (AfgNoticeBar *self)
{
  g_return_val_if_fail (AFG_IS_NOTICE_BAR (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->revealer))
    return NULL;
  return gtk_label_get_text (self->message_label);
}

const char *
afg_notice_bar_get_open_label (AfgNoticeBar *self)
{
  g_return_val_if_fail (AFG_IS_NOTICE_BAR (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->revealer) || !gtk_widget_get_visible (GTK_WIDGET (self->open_button)))
    return NULL;
  return gtk_button_get_label (self->open_button);
}
