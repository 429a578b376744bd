/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-error-page"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-error.h"
#include "afg-error-page.h"

struct _AfgErrorPage {
  GtkBox    parent_instance;

  /* Template children */
  GtkLabel *title_label;
  GtkLabel *message_label;
  GtkLabel *hint_label;
};

G_DEFINE_FINAL_TYPE (AfgErrorPage, afg_error_page, GTK_TYPE_BOX)

static void
afg_error_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AFG_TYPE_ERROR_PAGE);

  G_OBJECT_CLASS (afg_error_page_parent_class)->dispose (object);
}

static void
afg_error_page_class_init (AfgErrorPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = afg_error_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-error-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgErrorPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, AfgErrorPage, message_label);
  gtk_widget_class_bind_template_child (widget_class, AfgErrorPage, hint_label);
}

static void
afg_error_page_init (AfgErrorPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* @hint may be NULL. */
void
afg_error_page_show (AfgErrorPage *self, const GError *error, const char *hint)
{
  g_return_if_fail (AFG_IS_ERROR_PAGE (self));

  /* A valid profile without a row to draw opened fine: the CLI calls it
   * a warning, so the page does not say the file could not be opened. */
  gtk_label_set_text (self->title_label, g_error_matches (error, AFG_LOAD_ERROR, AFG_LOAD_ERROR_EMPTY)
                                         ? _("Nothing to Draw") : _("Could Not Open the File"));
  gtk_label_set_text (self->message_label, error->message);
  gtk_label_set_text (self->hint_label, hint ? hint : "");
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), hint != NULL);
}

const char *
afg_error_page_get_title (AfgErrorPage *self)
{
  g_return_val_if_fail (AFG_IS_ERROR_PAGE (self), NULL);

  return gtk_label_get_text (self->title_label);
}

const char *
afg_error_page_get_message (AfgErrorPage *self)
{
  g_return_val_if_fail (AFG_IS_ERROR_PAGE (self), NULL);

  return gtk_label_get_text (self->message_label);
}

const char *
afg_error_page_get_hint (AfgErrorPage *self)
{
  g_return_val_if_fail (AFG_IS_ERROR_PAGE (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->hint_label)) ? gtk_label_get_text (self->hint_label) : NULL;
}
