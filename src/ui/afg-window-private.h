/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-compare-section.h"
#include "afg-diff-function-list.h"
#include "afg-diff-view.h"
#include "afg-error-page.h"
#include "afg-export-section.h"
#include "afg-ranks-section.h"
#include "afg-flame-view.h"
#include "afg-function-panel.h"
#include "afg-step-strip.h"
#include "afg-transforms-section.h"
#include "afg-loader.h"
#include "afg-loading-page.h"
#include "afg-notice-bar.h"
#include "afg-search-section.h"
#include "afg-session.h"
#include "afg-start-page.h"
#include "afg-state-line.h"
#include "afg-window.h"
#include "afg-worker.h"

G_BEGIN_DECLS

struct _AfgWindow {
  GtkApplicationWindow  parent_instance;

  /* Template children */
  GtkDropDown          *thread_dropdown;
  GtkSearchEntry       *search_entry;
  GtkLabel             *match_label;
  AfgNoticeBar         *notice_bar;
  GtkStack             *stack;
  AfgStartPage         *start_page;
  AfgLoadingPage       *loading_page;
  AfgErrorPage         *error_page;
  AfgFlameView         *flame_view;
  GtkLabel             *selection_label;
  GtkLabel             *status_label;
  GtkWidget            *steps_bar;
  AfgStepStrip         *step_strip;
  GtkLabel             *steps_label;
  GtkToggleButton      *per_step_button;
  GtkWidget            *all_steps_button;
  GtkMenuButton        *weight_button;
  GtkBox               *weight_box;

  /* Owned */
  AfgSession           *session;  /* what the window shows: file, tree, weight */
  AfgWorker            *loading;  /* a profile or a comparison */
  GCancellable         *scope_cancellable;  /* the scoped tree being built */
  gint64                scope_clicked;      /* when its steps were picked */
  gulong                scope_paint_handler;
  AfgExportSection     *export;
  AfgSearchSection     *search;
  GtkFileChooserNative *chooser;
  AfgDiffView          *diff_view;
  AfgFunctionPanel     *function_panel;   /* borrowed: inside functions_paned */
  AfgDiffFunctionList  *diff_functions;   /* borrowed: beside function_panel, for a diff */
  GtkPaned             *functions_paned;
  AfgStateLine         *state_line;
  AfgRanksSection      *ranks;         /* a job folder's */
  AfgCompareSection    *compare;       /* two profiles' diff */
  struct _AfgStepCompare *step_compare; /* afg-window-step-compare.c */
  AfgTransformsSection *transforms;
  struct _AfgWindowChart *chart;       /* afg-window-chart.c */

  guint                 flipped : 1;
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
                                        gboolean        can_open);
void _afg_window_show_profile          (AfgWindow      *self,
                                        AfgTree     *profile,
                                        AfgFlameLayout *layout);
void _afg_window_show_error            (AfgWindow      *self,
                                        const GError   *error);
void _afg_window_load                  (AfgWindow      *self,
                                        GFile          *file);
/* Opens @file here, or in a window of its own while a diff is shown. */
void _afg_window_open_beside           (AfgWindow      *self,
                                        GFile          *file);
void _afg_window_fill_threads          (AfgWindow      *self);
void _afg_window_update_status         (AfgWindow      *self);
void _afg_window_add_filter            (GtkFileChooser *chooser,
                                        const char     *name,
                                        const char     *pattern);
void _afg_window_append_state_field    (GString        *line,
                                        const char     *key,
                                        const char     *value);

/* afg-compare-section.c, for the step ranges compared */
void     _afg_window_compare_return_diff   (GTask          *task,
                                            AfgTree        *a,
                                            AfgTree        *b,
                                            const char     *title,
                                            AfgColumn       weight,
                                            GCancellable   *cancellable,
                                            AfgDiffShape  **shape,
                                            AfgFlameLayout **layout);
void     _afg_window_compare_show_diff     (AfgWindow      *self,
                                            AfgDiffShape   *shape,
                                            AfgFlameLayout *layout);
/* A comparison of two files or ranks ends on A alone; FALSE when none is
 * shown. */
gboolean _afg_window_compare_stop          (AfgWindow      *self);

/* afg-window-merge.c */
void         _afg_window_merge_init  (AfgWindow *self);

/* afg-window-steps.c */
void     _afg_window_steps_show          (AfgWindow       *self);
void     _afg_window_steps_hide          (AfgWindow       *self);
gboolean _afg_window_steps_escape        (AfgWindow       *self);
guint    _afg_window_steps_divisor       (AfgWindow       *self);
/* The status line's device time when the tree is scoped or divided. */
char    *_afg_window_steps_describe_npu  (AfgWindow       *self);
char    *_afg_window_steps_format_ns     (AfgWindow       *self,
                                          gint64           ns);
char    *_afg_window_steps_describe      (AfgWindow       *self);
char    *_afg_window_steps_scope_field   (AfgWindow       *self);
void     _afg_window_steps_append_state  (AfgWindow       *self,
                                          GString         *hover,
                                          GString         *slow);
void     _afg_window_steps_class_init    (GtkWidgetClass  *widget_class);
void     _afg_window_steps_init          (AfgWindow       *self);

/* The shown profile's tree again, same steps, as the window's flags say. */
void     _afg_window_steps_rebuild       (AfgWindow       *self);
void     _afg_window_steps_dispose       (AfgWindow       *self);
/* Shows @tree, a scope of the document on screen, as a pick does. */
void     _afg_window_steps_show_tree     (AfgWindow       *self,
                                          AfgTree         *tree);

/* The name a window's title gives what it shows: the job's folder, or
 * else @name (the DB's). */
char    *_afg_window_title_name          (AfgWindow       *self,
                                          const char      *name);

/* afg-window-step-compare.c */
typedef struct _AfgStepCompare AfgStepCompare;
void     _afg_window_step_compare_init         (AfgWindow      *self);
void     _afg_window_step_compare_class_init   (GtkWidgetClass *widget_class);
void     _afg_window_step_compare_dispose      (AfgWindow      *self);
gboolean _afg_window_step_compare_take         (AfgWindow      *self,
                                                AfgDocument    *document,
                                                const AfgScope *scope);
gboolean _afg_window_step_compare_escape       (AfgWindow      *self);
void     _afg_window_step_compare_reset        (AfgWindow      *self);
char    *_afg_window_step_compare_title        (AfgWindow      *self);
/* The document of the two step ranges compared, or NULL. */
AfgDocument *_afg_window_step_compare_get_document (AfgWindow  *self);
void     _afg_window_step_compare_append_state (AfgWindow      *self,
                                                GString        *line);

/* afg-window-functions.c */
void     _afg_window_functions_init         (AfgWindow      *self);
void     _afg_window_functions_class_init   (GtkWidgetClass *widget_class);
void     _afg_window_functions_dispose      (AfgWindow      *self);
/* The panel follows what is on screen (a profile's tree or a diff). */
void     _afg_window_functions_sync         (AfgWindow      *self);
/* The panel's values follow Per step. */
void     _afg_window_functions_sync_divisor (AfgWindow      *self);
void     _afg_window_functions_append_state (AfgWindow      *self,
                                             GString        *line,
                                             gboolean        graph);

/* afg-window-chart.c */
typedef struct _AfgWindowChart AfgWindowChart;
void     _afg_window_chart_init         (AfgWindow      *self);
void     _afg_window_chart_dispose      (AfgWindow      *self);
/* F3 without a search: the chart's next (or previous) row of the node
 * selected in the flame graph. */
void     _afg_window_chart_step         (AfgWindow      *self,
                                         gboolean        forward);
void     _afg_window_chart_append_state (AfgWindow      *self,
                                         GString        *line);

/* afg-window-weight.c */
void            _afg_window_weight_class_init   (GtkWidgetClass  *widget_class);
void            _afg_window_weight_init         (AfgWindow       *self);
AfgColumn       _afg_window_weight_column       (AfgWindow       *self);
AfgColumn       _afg_window_weight_chosen       (AfgWindow       *self);
AfgWeight       _afg_window_weight_shown        (AfgWindow       *self);
const char     *_afg_window_weight_label        (AfgWeight        weight);
AfgFlameLayout *_afg_window_weight_prepare      (AfgWindow       *self,
                                                 AfgTree         *tree,
                                                 AfgFlameLayout  *layout);
void            _afg_window_weight_update       (AfgWindow       *self);
char           *_afg_window_weight_describe_npu (AfgWindow       *self);
void            _afg_window_weight_append_state (AfgWindow       *self,
                                                 GString         *line,
                                                 gboolean         graph);

G_END_DECLS
