/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-diff-view.h"
#include "afg-flame-view.h"
#include "afg-loader.h"
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
  AfgDiffView          *diff_view;
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
void _afg_window_show_progress         (AfgWindow      *self,
                                        AfgLoadPhase    phase,
                                        guint64         rows,
                                        guint64         total);
void _afg_window_append_state_field    (GString        *line,
                                        const char     *key,
                                        const char     *value);

/* afg-window-compare.c */
void     _afg_window_class_install_compare (GtkWidgetClass *widget_class);
void     _afg_window_compare_init          (AfgWindow      *self);
void     _afg_window_compare               (AfgWindow      *self,
                                            GFile          *a,
                                            GFile          *b);
gboolean _afg_window_is_comparing          (AfgWindow      *self);
void     _afg_window_compare_show_title    (AfgWindow      *self);
void     _afg_window_compare_append_state  (AfgWindow      *self,
                                            GString        *line,
                                            gboolean        graph);

G_END_DECLS
