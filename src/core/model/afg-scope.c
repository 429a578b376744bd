/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>

#include "afg-document-timeline.h"
#include "afg-error.h"
#include "afg-scope.h"

/* Beyond this many, scattered step numbers are summarised, not listed. */
#define MAX_LISTED_STEPS 8

G_DEFINE_QUARK (afg-scope-error-quark, afg_scope_error)

static gboolean
parse_step_number (const char *text, const char *end, gint64 *value)
{
  g_autofree char *digits = g_strndup (text, end - text);
  char *stop = NULL;

  if (*digits == '\0' || !g_ascii_isdigit (*digits))
    return FALSE;
  errno = 0;
  *value = g_ascii_strtoll (digits, &stop, 10);
  return errno == 0 && *stop == '\0';
}

#define EN_DASH "\xe2\x80\x93"

gboolean
afg_scope_parse_steps (const char *text, gint64 *first, gint64 *last)
{
  const char *dash;
  gsize width;

  g_return_val_if_fail (text != NULL, FALSE);

  /* The en dash too: the messages write ranges with it ("steps 3–5"),
   * and a range copied from one must work. */
  dash = strchr (text, '-');
  width = 1;
  if (dash == NULL && (dash = strstr (text, EN_DASH)) != NULL)
    width = strlen (EN_DASH);
  if (dash == NULL)
    {
      if (!parse_step_number (text, text + strlen (text), first))
        return FALSE;
      *last = *first;
      return TRUE;
    }
  return parse_step_number (text, dash, first)
         && parse_step_number (dash + width, dash + width + strlen (dash + width), last);
}

static gboolean
steps_are_contiguous (const AfgStep *steps, guint n)
{
  /* Unsigned: STEP_TIME's ids may be any two gint64, sorted. */
  return n > 0 && (guint64) steps[n - 1].id - (guint64) steps[0].id == n - 1;
}

char *
afg_scope_describe_steps (const AfgDocument *document)
{
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  g_autoptr(GString) list = NULL;

  if (n == 0)
    return g_strdup (_("no steps"));
  if (n == 1)
    return g_strdup_printf (_("step %" PRId64), steps[0].id);
  if (steps_are_contiguous (steps, n))
    return g_strdup_printf (_("steps %" PRId64 "–%" PRId64), steps[0].id, steps[n - 1].id);
  if (n > MAX_LISTED_STEPS)
    return g_strdup_printf (_("%u steps from %" PRId64 " to %" PRId64),
                            n, steps[0].id, steps[n - 1].id);
  list = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (list, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", steps[i].id);
  return g_strdup_printf (_("steps %s"), list->str);
}

char *
afg_scope_describe_range (const AfgScope *scope)
{
  if (scope->n_steps == 0)
    return NULL;
  if (scope->first_step == scope->last_step)
    return g_strdup_printf (_("step %" PRId64), scope->first_step);
  return g_strdup_printf (_("steps %" PRId64 "–%" PRId64), scope->first_step, scope->last_step);
}

static gboolean
fail (GError **error, const AfgDocument *document, AfgScopeError code, const char *what)
{
  g_autofree char *has = afg_scope_describe_steps (document);
  /* TRANSLATORS: "no step 7; the profile has steps 3–52" */
  g_autofree char *reason = g_strdup_printf (_("%s; the profile has %s"), what, has);

  return afg_error_set_path (error, AFG_SCOPE_ERROR, code, afg_document_get_source_path (document), reason);
}

static gboolean
fail_unknown (GError **error, const AfgDocument *document, gint64 id)
{
  g_autofree char *what = g_strdup_printf (_("no step %" PRId64), id);

  return fail (error, document, AFG_SCOPE_ERROR_UNKNOWN_STEP, what);
}

gboolean
afg_scope_init_steps (AfgScope *scope, const AfgDocument *document, gint64 first, gint64 last,
                      GError **error)
{
  const AfgStep *a, *b;
  guint n;

  g_return_val_if_fail (scope != NULL && document != NULL, FALSE);

  afg_document_get_steps (document, &n);
  if (n == 0)
    return afg_error_set_path (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_STEPS,
                               afg_document_get_source_path (document),
                               _("the profile has no steps (no ProfilerStep#N rows, no STEP_TIME table)"));
  if (first > last)
    {
      g_autofree char *what = g_strdup_printf (_("steps %" PRId64 "–%" PRId64 " are reversed"),
                                               first, last);
      return fail (error, document, AFG_SCOPE_ERROR_REVERSED, what);
    }
  if ((a = afg_document_find_step (document, first)) == NULL)
    return fail_unknown (error, document, first);
  if ((b = afg_document_find_step (document, last)) == NULL)
    return fail_unknown (error, document, last);
  *scope = (AfgScope) { TRUE, a->start_ns, b->end_ns, first, last, b - a + 1 };
  return TRUE;
}

/* The hull of @idle, so that rows outside it are passed over at once. */
static void
set_idle (AfgScope *scope, const AfgSpans *idle)
{
  gsize n;
  const AfgSpan *spans = afg_spans_get (idle, &n);

  scope->bounded = TRUE;
  scope->npu_idle = TRUE;
  scope->idle = idle;
  scope->start_ns = n > 0 ? spans[0].start : 0;
  scope->end_ns = n > 0 ? spans[n - 1].end : 0;
}

gboolean
afg_scope_init_npu_idle (AfgScope *scope, const AfgDocument *document, gboolean has_steps,
                         gint64 first, gint64 last, GError **error)
{
  const AfgStep *steps;
  const AfgSpans *idle;
  guint n;

  g_return_val_if_fail (scope != NULL && document != NULL, FALSE);

  if (afg_document_get_timeline (document) == NULL)
    return afg_error_set_path (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_DEVICE,
                               afg_document_get_source_path (document),
                               _("no NPU-idle time: the profile has no usable TASK rows"));
  steps = afg_document_get_steps (document, &n);
  *scope = (AfgScope) { 0 };
  if (n > 0)
    {
      if (!has_steps)
        first = steps[0].id, last = steps[n - 1].id;
      if (!afg_scope_init_steps (scope, document, first, last, error))
        return FALSE;
      first = afg_document_find_step (document, first) - steps;
      last = afg_document_find_step (document, last) - steps;
    }
  else if (has_steps)
    return afg_scope_init_steps (scope, document, first, last, error);
  idle = afg_document_get_idle_spans (document, (guint) first, (guint) last);
  if (idle == NULL)
    return afg_error_set_path (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_DEVICE,
                               afg_document_get_source_path (document),
                               _("no NPU-idle time: the profile has no device interval to measure it in"));
  set_idle (scope, idle);
  return TRUE;
}

gboolean
afg_scope_init_request (AfgScope *scope, const AfgDocument *document, gboolean has_steps, gint64 first,
                        gint64 last, gboolean npu_idle, GError **error)
{
  *scope = (AfgScope) { 0 };
  if (npu_idle)
    return afg_scope_init_npu_idle (scope, document, has_steps, first, last, error);
  return !has_steps || afg_scope_init_steps (scope, document, first, last, error);
}

gboolean
afg_scope_equal (const AfgScope *a, const AfgScope *b)
{
  return a->bounded == b->bounded && a->start_ns == b->start_ns && a->end_ns == b->end_ns
         && a->first_step == b->first_step && a->last_step == b->last_step && a->n_steps == b->n_steps
         && a->npu_idle == b->npu_idle && a->idle == b->idle;
}

void
afg_scope_narrow (AfgScope *scope, gint64 start_ns, gint64 end_ns)
{
  g_return_if_fail (scope != NULL);

  if (scope->bounded)
    {
      start_ns = MAX (start_ns, scope->start_ns);
      end_ns = MIN (end_ns, scope->end_ns);
    }
  scope->bounded = TRUE;
  scope->start_ns = start_ns;
  scope->end_ns = MAX (start_ns, end_ns);
  scope->first_step = scope->last_step = 0;
  scope->n_steps = 0;
}

guint
afg_scope_count_steps (const AfgScope *scope, const AfgDocument *document)
{
  guint n;

  afg_document_get_steps (document, &n);
  return scope == NULL || !scope->bounded ? n : scope->n_steps;
}
