/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-compare-section.h"
#include "afg-diff-view.h"
#include "afg-error-page.h"
#include "afg-export-section.h"
#include "afg-ranks-section.h"
#include "afg-flame-view.h"
#include "afg-functions-pane.h"
#include "afg-step-compare.h"
#include "afg-steps-bar.h"
#include "afg-transforms-section.h"
#include "afg-weight-menu.h"
#include "afg-loader.h"
#include "afg-loading-page.h"
#include "afg-notice-bar.h"
#include "afg-search-section.h"
#include "afg-session.h"
#include "afg-start-page.h"
#include "afg-state-line.h"
#include "afg-status-bar.h"
#include "afg-window.h"
#include "afg-worker.h"

G_BEGIN_DECLS

struct _AfgWindow {
  GtkApplicationWindow  parent_instance;

  /* Template children */
  GtkDropDown          *thread_dropdown;
  GtkSearchEntry       *search_entry;
  AfgNoticeBar         *notice_bar;
  GtkStack             *stack;
  AfgStartPage         *start_page;
  AfgLoadingPage       *loading_page;
  AfgErrorPage         *error_page;
  AfgFlameView         *flame_view;
  AfgStatusBar         *status_bar;
  AfgStepsBar          *steps_bar;
  AfgWeightMenu        *weight_menu;
  AfgFunctionsPane     *functions_pane;

  /* Owned */
  AfgSession           *session;  /* what the window shows: file, tree, weight */
  AfgExportSection     *export;
  AfgSearchSection     *search;
  GtkFileChooserNative *chooser;
  AfgDiffView          *diff_view;
  AfgStateLine         *state_line;
  AfgRanksSection      *ranks;         /* a job folder's */
  AfgCompareSection    *compare;       /* two profiles' diff */
  AfgStepCompare       *step_compare;
  AfgTransformsSection *transforms;
  struct _AfgWindowChart *chart;       /* afg-window-chart.c */
};

/* NULL-safe while the window is disposed. */
static inline AfgTree *
_afg_window_get_tree (AfgWindow *self)
{
  return self->session ? afg_session_get_tree (self->session) : NULL;
}

static inline GFile *
_afg_window_get_file (AfgWindow *self)
{
  return self->session ? afg_session_get_file (self->session) : NULL;
}

/* A no-op once the window is disposed. */
static inline void
_afg_window_report_state (AfgWindow *self)
{
  if (self->state_line != NULL)
    afg_state_line_report (self->state_line);
}

/* AFG_TREE_MERGE_ADDRESSES while "Merge Address Variants" is on. */
static inline AfgTreeFlags
_afg_window_tree_flags (AfgWindow *self)
{
  return self->session ? afg_session_get_tree_flags (self->session) : AFG_TREE_MERGE_ADDRESSES;
}

static inline gboolean
_afg_window_is_comparing (AfgWindow *self)
{
  return self->session != NULL && afg_session_get_comparing (self->session);
}

void _afg_window_class_install_actions (GtkWidgetClass *widget_class);
void _afg_window_update_actions        (AfgWindow      *self);
void _afg_window_escape                (AfgWindow      *self);
void _afg_window_show_notice           (AfgWindow      *self,
                                        const char     *message,
                                        const char     *open_label);
void _afg_window_show_profile          (AfgWindow      *self,
                                        AfgTree     *tree,
                                        AfgFlameLayout *layout);
void _afg_window_show_error            (AfgWindow      *self,
                                        const GError   *error);
void _afg_window_load                  (AfgWindow      *self,
                                        GFile          *file);
/* Opens @file here, or in a window of its own while a diff is shown. */
void _afg_window_open_beside           (AfgWindow      *self,
                                        GFile          *file);
void _afg_window_fill_threads          (AfgWindow      *self);
void _afg_window_add_filter            (GtkFileChooser *chooser,
                                        const char     *name,
                                        const char     *pattern);
void _afg_window_append_state_field    (GString        *line,
                                        const char     *key,
                                        const char     *value);

/* The weight of the widths on screen; a comparison's is the one it was
 * made in. */
AfgWeight _afg_window_weight_shown (AfgWindow *self);

/* afg-window-steps.c */
void     _afg_window_steps_init          (AfgWindow       *self);
/* A new profile on screen: its steps on the strip. */
void     _afg_window_steps_show          (AfgWindow       *self);
void     _afg_window_steps_hide          (AfgWindow       *self);

/* Shows @tree, a scope of the document on screen, as a pick does. */
void     _afg_window_steps_show_tree     (AfgWindow       *self,
                                          AfgTree         *tree);

/* The name a window's title gives what it shows: the job's folder, or
 * else @name (the DB's). */
char    *_afg_window_title_name          (AfgWindow       *self,
                                          const char      *name);

/* afg-window-chart.c */
typedef struct _AfgWindowChart AfgWindowChart;
/* Binds the template's stack chart widgets, which afg-window-chart.c
 * fetches by name. */
void     _afg_window_chart_class_init   (GtkWidgetClass *widget_class);
void     _afg_window_chart_init         (AfgWindow      *self);
void     _afg_window_chart_dispose      (AfgWindow      *self);
/* F3 without a search: the chart's next (or previous) row of the node
 * selected in the flame graph. */
void     _afg_window_chart_step         (AfgWindow      *self,
                                         gboolean        forward);
void     _afg_window_chart_append_state (AfgWindow      *self,
                                         GString        *line);

G_END_DECLS
