/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-diff-shape.h"
#include "afg-flame-layout.h"
#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_COMPARE_SECTION (afg_compare_section_get_type ())
G_DECLARE_FINAL_TYPE (AfgCompareSection, afg_compare_section, AFG, COMPARE_SECTION, GObject)

/* Two profiles compared in a window: both loaded in its loading slot,
 * their diff on its flame graph through the diff view, the status line
 * and title saying A → B. The window keeps it; win.compare is its. */
AfgCompareSection *afg_compare_section_new             (AfgWindow         *window);
void               afg_compare_section_install_actions (GtkWidgetClass    *widget_class);
/* Like opening a DB, the load can be cancelled, and a failure on either
 * side is the window's error page. */
void               afg_compare_section_compare         (AfgCompareSection *self,
                                                        GFile             *a,
                                                        GFile             *b);
/* The two files of the diff on screen compared again, in the session's
 * NPU-idle scope or out of it (not a comparison of two step ranges). */
void               afg_compare_section_recompare       (AfgCompareSection *self);
/* The title of the diff on screen: also after a cancelled load. */
void               afg_compare_section_show_title      (AfgCompareSection *self);
/* In a worker: the diff of @a and @b and its first layout; FALSE when
 * cancelled. Its frames weigh @weight (a total column) where both sides
 * have it, as `--diff --weight` does, else host time. Two files' diff
 * and two step ranges' alike. */
gboolean           afg_compare_section_make_diff       (AfgTree           *a,
                                                        AfgTree           *b,
                                                        const char        *title,
                                                        AfgColumn          weight,
                                                        GCancellable      *cancellable,
                                                        AfgDiffShape     **shape,
                                                        AfgFlameLayout   **layout);
/* The status line of a diff: "A: @a (1.2 s) → B: @b (0.9 s), host time
 * on all threads · 310 frames, threads merged", the measure the weight's. */
char              *afg_compare_section_describe        (AfgDiffShape      *shape,
                                                        const char        *a,
                                                        const char        *b);
/* Shows a diff made so on the window's flame graph. */
void               afg_compare_section_show_diff       (AfgCompareSection *self,
                                                        AfgDiffShape      *shape,
                                                        AfgFlameLayout    *layout);
/* A comparison of two files or ranks ends on A alone; FALSE when none is
 * shown. */
gboolean           afg_compare_section_stop            (AfgCompareSection *self);
/* The state line's diff fields (docs/test-state-line.md). */
void               afg_compare_section_append_state    (AfgCompareSection *self,
                                                        GString           *line,
                                                        gboolean           graph);

G_END_DECLS
