/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-document.h"
#include "afg-spans.h"

G_BEGIN_DECLS

/* What a tree covers: the time range [start_ns, end_ns), or the whole
 * profile when !bounded. A scope made from steps (afg_scope_init_steps)
 * also names them: first_step..last_step, n_steps of the DB's steps in
 * between (0 for a bare time range or the whole profile). The NPU-idle
 * scope (afg_scope_init_npu_idle) covers only the instants of @idle,
 * which the document keeps, within the range of their hull. */
typedef struct {
  gboolean        bounded;
  gint64          start_ns;
  gint64          end_ns;
  gint64          first_step;
  gint64          last_step;
  guint           n_steps;
  gboolean        npu_idle;
  const AfgSpans *idle;
} AfgScope;

#define AFG_SCOPE_ERROR (afg_scope_error_quark ())

typedef enum {
  AFG_SCOPE_ERROR_NO_STEPS,
  AFG_SCOPE_ERROR_UNKNOWN_STEP,
  AFG_SCOPE_ERROR_REVERSED,
  AFG_SCOPE_ERROR_NO_DEVICE,
} AfgScopeError;

GQuark      afg_scope_error_quark    (void);

/* Steps A–B of @document (A <= B, both its steps): [start of A, end of
 * B). The error ("FILE: reason") names the steps the DB has. */
gboolean    afg_scope_init_steps     (AfgScope          *scope,
                                      const AfgDocument *document,
                                      gint64             first,
                                      gint64             last,
                                      GError           **error);
/* The instants of steps A–B (@has_steps), else of all the steps, else of
 * the whole profile's window, when no device task runs. The error says
 * why there is none (no usable TASK rows; or as for steps). */
gboolean    afg_scope_init_npu_idle  (AfgScope          *scope,
                                      const AfgDocument *document,
                                      gboolean           has_steps,
                                      gint64             first,
                                      gint64             last,
                                      GError           **error);
/* What a command asks for: steps A–B (@has_steps), the NPU-idle
 * instants (@npu_idle; of steps A–B when given), or the whole profile. */
gboolean    afg_scope_init_request   (AfgScope          *scope,
                                      const AfgDocument *document,
                                      gboolean           has_steps,
                                      gint64             first,
                                      gint64             last,
                                      gboolean           npu_idle,
                                      GError           **error);
/* Whether @a and @b cover the same instants with the same steps. */
gboolean    afg_scope_equal          (const AfgScope    *a,
                                      const AfgScope    *b);
/* @scope within [@start_ns, @end_ns): a bare time range, which keeps
 * the NPU-idle instants of an NPU-idle scope (the stack chart's Sync
 * range of what the flame graph shows). Empty where they do not meet. */
void        afg_scope_narrow         (AfgScope          *scope,
                                      gint64             start_ns,
                                      gint64             end_ns);
/* "A" or "A-B" (or "A–B" with an en dash, as the messages write ranges),
 * A and B decimal step numbers; FALSE for anything else. */
gboolean    afg_scope_parse_steps    (const char        *text,
                                      gint64            *first,
                                      gint64            *last);
/* The number of steps "per step" divides by: the scope's steps, or all the
 * DB's steps for the whole profile; 0 when there are none. */
guint       afg_scope_count_steps    (const AfgScope    *scope,
                                      const AfgDocument *document);
/* The DB's steps in words, translated: "steps 3–52", "step 50",
 * "steps 1, 4, 9", "no steps". */
char       *afg_scope_describe_steps (const AfgDocument *document);
/* The scope's steps A–B in words, translated: "steps 10–12", "step 11";
 * NULL for a scope of no steps. */
char       *afg_scope_describe_range (const AfgScope    *scope);

/* Whether a row starting at @start_ns is in @scope by its start. NPU
 * tasks count for a scope when the host row that launched them starts
 * inside it, not by overlap as host rows do: a task belongs to the step
 * that launched it, whenever the device ran it. */
static inline gboolean
afg_scope_contains_start (const AfgScope *scope, gint64 start_ns)
{
  /* Nothing runs on the device while it is idle. */
  if (scope->npu_idle)
    return FALSE;
  return !scope->bounded || (start_ns >= scope->start_ns && start_ns < scope->end_ns);
}

/* A row's time in @scope: its overlap with the range (with the idle
 * instants in the NPU-idle scope), 0 when under 1 ns (the whole row
 * without bounds). */
static inline gint64
afg_scope_overlap_ns (const AfgScope *scope, gint64 start_ns, gint64 end_ns)
{
  if (!scope->bounded)
    return afg_span_length (start_ns, end_ns);
  if (start_ns >= scope->end_ns || end_ns <= scope->start_ns)
    return 0;
  if (scope->idle != NULL)
    return afg_spans_overlap (scope->idle, MAX (start_ns, scope->start_ns), MIN (end_ns, scope->end_ns));
  return afg_span_length (MAX (start_ns, scope->start_ns), MIN (end_ns, scope->end_ns));
}

G_END_DECLS
