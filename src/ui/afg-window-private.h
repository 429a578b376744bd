/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-flame-view.h"
#include "afg-window.h"

G_BEGIN_DECLS

struct _AfgWindow {
  GtkApplicationWindow  parent_instance;

  /* Template children */
  GtkDropDown          *thread_dropdown;
  GtkSearchEntry       *search_entry;
  GtkLabel             *match_label;
  GtkRevealer          *notice_revealer;
  GtkLabel             *notice_label;
  GtkWidget            *notice_button;
  GtkStack             *stack;
  GtkWidget            *recent_heading;
  GtkListBox           *recent_list;
  GtkLabel             *loading_title;
  GtkProgressBar       *loading_bar;
  GtkLabel             *loading_label;
  GtkLabel             *error_label;
  GtkLabel             *hint_label;
  AfgFlameView         *flame_view;
  GtkLabel             *selection_label;
  GtkLabel             *status_label;

  /* Owned */
  AfgTree           *tree;
  GFile                *file;  /* loading, failed or shown; NULL when empty */
  GCancellable         *load_cancellable;
  GCancellable         *export_cancellable;
  GFile                *exported;
  GtkFileChooserNative *chooser;
  char                 *state_line;  /* the last one printed for AFG_TEST_STATE */
  guint                 n_recent;

  guint                 flipped : 1;
};

void _afg_window_class_install_actions (GtkWidgetClass *widget_class);
void _afg_window_update_actions        (AfgWindow      *self);
void _afg_window_report_state          (AfgWindow      *self);
void _afg_window_escape                (AfgWindow      *self);
void _afg_window_show_notice           (AfgWindow      *self,
                                        const char     *message,
                                        gboolean        can_open);
void _afg_window_show_profile          (AfgWindow      *self,
                                        AfgTree     *profile,
                                        AfgFlameLayout *layout);
void _afg_window_show_error            (AfgWindow      *self,
                                        const GError   *error);
void _afg_window_load                  (AfgWindow      *self,
                                        GFile          *file);
void _afg_window_export                (AfgWindow      *self);
void _afg_window_add_filter            (GtkFileChooser *chooser,
                                        const char     *name,
                                        const char     *pattern);

G_END_DECLS
