/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-flame-view.h"
#include "afg-window.h"

G_BEGIN_DECLS

struct _AfgWindow {
  GtkApplicationWindow  parent_instance;

  AfgDocument          *document;
  AfgTree              *tree;
  GFile                *file;  /* loading, failed or shown; NULL when empty */
  GCancellable         *load_cancellable;
  GCancellable         *export_cancellable;
  GFile                *exported;
  GtkFileChooserNative *chooser;

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
  GtkLabel             *status_label;

  guint                 flame : 1;
};

void afg_window_update_actions (AfgWindow    *self);
void afg_window_show_notice    (AfgWindow    *self,
                                const char   *message,
                                gboolean      can_open);
void afg_window_show_profile   (AfgWindow      *self,
                                AfgDocument    *document,
                                AfgTree        *tree,
                                AfgFlameLayout *layout);
void afg_window_show_error     (AfgWindow    *self,
                                const GError *error);
void afg_window_load           (AfgWindow    *self,
                                GFile        *file);
void afg_window_export         (AfgWindow    *self);

G_END_DECLS
