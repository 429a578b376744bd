/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the rank summary reader: --merge-summaries reads
 * files made elsewhere, on other machines, by other versions. Any bytes
 * are refused with G_IO_ERROR_INVALID_DATA or read; what is read is
 * written in the one form the writer has, and that form reads back to
 * the same summary and options (written again byte for byte). Read
 * through a frame reducer the same bytes give the same answer. The input
 * is one summary, or two split at the first NUL byte; as --merge-summaries
 * does, the job of the two (or of the one and a copy of it), their
 * collectives matched, is written as ranks.json and index.html without a
 * fault. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "afg-frame-reducer.h"
#include "afg-ranks-writer.h"
#include "afg-summary-file.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static AfgRankSummary *
read_or_refuse (const char *text, gsize length, AfgFrameReducer *reducer, AfgSummaryOptions *options)
{
  g_autoptr(GError) error = NULL;
  AfgRankSummary *rank = afg_summary_file_read (text, length, reducer, options, &error);

  if (rank == NULL)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert (error->message[0] != '\0');
    }
  else
    g_assert_no_error (error);
  return rank;
}

/* The writer's form of @rank reads back to itself. */
static void
assert_round_trip (const AfgRankSummary *rank, const AfgSummaryOptions *options)
{
  g_autofree char *text = afg_summary_file_write (rank, options);
  AfgSummaryOptions back_options;
  g_autoptr(AfgRankSummary) back = read_or_refuse (text, strlen (text), NULL, &back_options);
  g_autofree char *again = NULL;

  g_assert (back != NULL);
  g_assert (afg_summary_options_equal (options, &back_options));
  again = afg_summary_file_write (back, &back_options);
  g_assert_cmpstr (again, ==, text);
}

/* Two ranks read through one reducer, as --merge-summaries reads them,
 * merged and written; a second of the same rank number is taken as the
 * next rank (--merge-summaries would keep only the later file). */
static void
merge_two (const char *a_text, gsize a_size, const char *b_text, gsize b_size)
{
  g_autoptr(AfgFrameReducer) reducer = afg_frame_reducer_new ();
  AfgSummaryOptions a_options, b_options;
  g_autoptr(AfgRankSummary) a = read_or_refuse (a_text, a_size, reducer, &a_options);
  g_autoptr(AfgRankSummary) b = read_or_refuse (b_text, b_size, reducer, &b_options);
  g_autoptr(AfgJobFigures) figures = NULL;
  g_autofree char *json = NULL;
  g_autofree char *index = NULL;
  AfgRankSummary *ranks[2];

  if (a == NULL || b == NULL || !afg_summary_options_equal (&a_options, &b_options))
    return;
  if (a->rank == b->rank)
    {
      if (b->rank == G_MAXINT)
        return;
      b->rank++;
    }
  ranks[0] = a->rank < b->rank ? a : b;
  ranks[1] = a->rank < b->rank ? b : a;
  afg_frame_reducer_finish (reducer, ranks, 2);
  figures = afg_job_figures_new (ranks, 2);
  json = afg_ranks_json_write (ranks, 2, figures);
  index = afg_ranks_index_write (ranks, 2, figures, &a_options);
  g_assert (json[0] == '{' && index[0] == '<');
}

/* Refused, or read, written back and read again to the same bytes. */
static void
check_one (const char *text, gsize size)
{
  AfgSummaryOptions options;
  g_autoptr(AfgRankSummary) rank = read_or_refuse (text, size, NULL, &options);
  g_autoptr(AfgFrameReducer) reducer = afg_frame_reducer_new ();
  AfgSummaryOptions reduced_options;
  g_autoptr(AfgRankSummary) reduced = read_or_refuse (text, size, reducer, &reduced_options);

  g_assert ((rank == NULL) == (reduced == NULL));
  if (rank == NULL)
    return;
  g_assert (afg_summary_options_equal (&options, &reduced_options));
  assert_round_trip (rank, &options);
  afg_frame_reducer_finish (reducer, (AfgRankSummary * const *) &reduced, 1);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  /* A copy of exactly @size bytes (the reader must not look past them),
   * never NULL: a file read is "" when empty. */
  g_autofree char *text = memcpy (g_malloc (MAX (size, 1)), data, size);
  const char *nul = memchr (text, '\0', size);
  gsize a_size = nul ? (gsize) (nul - text) : size;
  const char *b = nul ? nul + 1 : text;
  gsize b_size = nul ? size - a_size - 1 : size;

  check_one (text, a_size);
  if (nul != NULL)
    check_one (b, b_size);
  merge_two (text, a_size, b, b_size);
  return 0;
}
