/* SPDX-License-Identifier: MIT */
/* AfgWorker, the slot every worker request of the window runs in: the
 * result reaches the current request only, on the main loop; a request
 * started in the same slot cancels the one before; a cancelled request,
 * or one whose worker is gone, is dropped silently; errors are
 * delivered, also a result returned after the request's own
 * cancellable fired; the poll runs on the main loop while the request
 * runs; done keeps its result when the funcs say it takes it. */
#include "config.h"

#include "afg-worker.h"

typedef struct {
  gint      release;    /* atomic: the thread may return */
  gint      progress;   /* atomic: what the thread has done */
  gboolean  fail;
  gboolean  wait_cancel;
  gboolean  ignore_cancel;
} Work;

typedef struct {
  GMainLoop *loop;
  guint      n_done;
  guint      n_polls;
  int        last_progress;
  char      *result;
  char      *error;
  Work      *done_work;
} Owner;

/* Waits for the test's word, or for a cancel with wait_cancel. */
static gpointer
run_work (gpointer data, GCancellable *cancellable, GError **error)
{
  Work *work = data;

  g_atomic_int_set (&work->progress, 1);
  while (!g_atomic_int_get (&work->release) && !(work->wait_cancel && g_cancellable_is_cancelled (cancellable)))
    g_usleep (1000);
  if (!work->ignore_cancel && g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (work->fail)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "failed on purpose");
      return NULL;
    }
  return g_strdup ("result");
}

static void
poll_work (gpointer owner, gpointer data)
{
  Owner *o = owner;
  Work *work = data;

  o->n_polls++;
  o->last_progress = g_atomic_int_get (&work->progress);
}

static void
work_done (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  Owner *o = owner;

  o->n_done++;
  o->done_work = data;
  g_free (o->result);
  g_free (o->error);
  o->result = g_strdup (result);
  o->error = error ? g_strdup (error->message) : NULL;
  g_main_loop_quit (o->loop);
}

static const AfgWorkerFuncs work_funcs = {
  .name = "test-work",
  .run = run_work,
  .poll = poll_work,
  .done = work_done,
  .free_result = g_free,
};

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until done is called, or for @ms at most. */
static void
run_loop (Owner *o, guint ms)
{
  GSource *timeout = g_timeout_source_new (ms);

  g_source_set_callback (timeout, quit_loop, o->loop, NULL);
  g_source_attach (timeout, NULL);
  g_main_loop_run (o->loop);
  g_source_destroy (timeout);
  g_source_unref (timeout);
}

static gboolean
release_after_polls (gpointer data)
{
  Work *work = data;

  g_atomic_int_set (&work->release, 1);
  return G_SOURCE_REMOVE;
}

static void
owner_clear (Owner *o)
{
  g_main_loop_unref (o->loop);
  g_free (o->result);
  g_free (o->error);
}

static void
test_result_and_poll (void)
{
  Owner o = { g_main_loop_new (NULL, FALSE) };
  g_autoptr(AfgWorker) worker = afg_worker_new (&o);
  Work *work = g_new0 (Work, 1);

  afg_worker_start (worker, &work_funcs, work, g_free);
  g_assert_true (afg_worker_is_running (worker));
  g_assert_true (afg_worker_get_data (worker) == work);
  /* Released after the third poll's time: the poll saw the thread's work. */
  g_timeout_add (3 * AFG_WORKER_POLL_MS + AFG_WORKER_POLL_MS / 2, release_after_polls, work);
  run_loop (&o, 30000);
  g_assert_cmpuint (o.n_done, ==, 1);
  g_assert_cmpstr (o.result, ==, "result");
  g_assert_null (o.error);
  g_assert_true (o.done_work == work);
  g_assert_cmpuint (o.n_polls, >=, 1);
  g_assert_cmpint (o.last_progress, ==, 1);
  g_assert_false (afg_worker_is_running (worker));
  g_assert_null (afg_worker_get_data (worker));
  owner_clear (&o);
}

static void
test_error (void)
{
  Owner o = { g_main_loop_new (NULL, FALSE) };
  g_autoptr(AfgWorker) worker = afg_worker_new (&o);
  Work *work = g_new0 (Work, 1);

  work->fail = TRUE;
  work->release = 1;
  afg_worker_start (worker, &work_funcs, work, g_free);
  run_loop (&o, 30000);
  g_assert_cmpuint (o.n_done, ==, 1);
  g_assert_null (o.result);
  g_assert_cmpstr (o.error, ==, "failed on purpose");
  owner_clear (&o);
}

/* The second request cancels the first: only the second's result comes. */
static void
test_replaced (void)
{
  Owner o = { g_main_loop_new (NULL, FALSE) };
  g_autoptr(AfgWorker) worker = afg_worker_new (&o);
  Work *first = g_new0 (Work, 1);
  Work *second = g_new0 (Work, 1);
  GCancellable *cancellable;

  first->wait_cancel = TRUE;
  cancellable = afg_worker_start (worker, &work_funcs, first, g_free);
  g_object_ref (cancellable);
  afg_worker_start (worker, &work_funcs, second, g_free);
  g_assert_true (g_cancellable_is_cancelled (cancellable));
  g_atomic_int_set (&second->release, 1);
  run_loop (&o, 30000);
  g_assert_cmpuint (o.n_done, ==, 1);
  g_assert_true (o.done_work == second);
  /* Nothing more arrives from the first. */
  run_loop (&o, 3 * AFG_WORKER_POLL_MS);
  g_assert_cmpuint (o.n_done, ==, 1);
  g_object_unref (cancellable);
  owner_clear (&o);
}

/* A cancelled request, and one whose worker went away with its owner,
 * even when their threads still return a result, are dropped. */
static void
test_dropped (void)
{
  Owner o = { g_main_loop_new (NULL, FALSE) };
  AfgWorker *worker = afg_worker_new (&o);
  Work *work = g_new0 (Work, 1);

  afg_worker_start (worker, &work_funcs, work, g_free);
  g_assert_true (afg_worker_cancel (worker));
  g_assert_false (afg_worker_cancel (worker));
  g_assert_false (afg_worker_is_running (worker));
  g_atomic_int_set (&work->release, 1);
  run_loop (&o, 5 * AFG_WORKER_POLL_MS);
  g_assert_cmpuint (o.n_done, ==, 0);

  work = g_new0 (Work, 1);
  work->release = 1;
  afg_worker_start (worker, &work_funcs, work, g_free);
  g_object_unref (worker);
  run_loop (&o, 5 * AFG_WORKER_POLL_MS);
  g_assert_cmpuint (o.n_done, ==, 0);
  g_assert_cmpuint (o.n_polls, ==, 0);
  owner_clear (&o);
}

/* Cancelled through its own cancellable, not the worker: the result it
 * still returns is delivered (a job's Cancel keeps the ranks read). */
static void
test_kept_after_own_cancel (void)
{
  Owner o = { g_main_loop_new (NULL, FALSE) };
  g_autoptr(AfgWorker) worker = afg_worker_new (&o);
  Work *work = g_new0 (Work, 1);
  GCancellable *cancellable;

  work->release = 1;
  work->ignore_cancel = TRUE;
  cancellable = afg_worker_start (worker, &work_funcs, work, g_free);
  g_cancellable_cancel (cancellable);
  run_loop (&o, 30000);
  g_assert_cmpuint (o.n_done, ==, 1);
  g_assert_cmpstr (o.result, ==, "result");
  owner_clear (&o);
}

static gint n_freed;  /* atomic: results the worker freed */

static void
count_free (gpointer result)
{
  g_atomic_int_inc (&n_freed);
  g_free (result);
}

static void
keep_result (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  Owner *o = owner;

  o->n_done++;
  o->done_work = data;
  g_free (o->result);
  o->result = result;  /* kept: takes_result */
  g_main_loop_quit (o->loop);
}

static const AfgWorkerFuncs keep_funcs = {
  .name = "test-keep",
  .run = run_work,
  .done = keep_result,
  .free_result = count_free,
  .takes_result = TRUE,
};

/* With takes_result, done keeps its result and the worker frees only the
 * one done never gets: a replaced request's, returned all the same. */
static void
test_takes_result (void)
{
  Owner o = { g_main_loop_new (NULL, FALSE) };
  g_autoptr(AfgWorker) worker = afg_worker_new (&o);
  Work *first = g_new0 (Work, 1);
  Work *second = g_new0 (Work, 1);

  g_atomic_int_set (&n_freed, 0);
  first->wait_cancel = TRUE;
  first->ignore_cancel = TRUE;
  afg_worker_start (worker, &keep_funcs, first, g_free);
  afg_worker_start (worker, &keep_funcs, second, g_free);
  g_atomic_int_set (&second->release, 1);
  run_loop (&o, 30000);
  g_assert_cmpuint (o.n_done, ==, 1);
  g_assert_true (o.done_work == second);
  g_assert_cmpstr (o.result, ==, "result");
  /* The first's thread returns a result too; only that one is freed. */
  while (g_atomic_int_get (&n_freed) == 0)
    g_main_context_iteration (NULL, TRUE);
  run_loop (&o, 3 * AFG_WORKER_POLL_MS);
  g_assert_cmpint (g_atomic_int_get (&n_freed), ==, 1);
  g_assert_cmpuint (o.n_done, ==, 1);
  owner_clear (&o);  /* frees the kept result */
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/worker/result-and-poll", test_result_and_poll);
  g_test_add_func ("/worker/error", test_error);
  g_test_add_func ("/worker/replaced", test_replaced);
  g_test_add_func ("/worker/dropped", test_dropped);
  g_test_add_func ("/worker/kept-after-own-cancel", test_kept_after_own_cancel);
  g_test_add_func ("/worker/takes-result", test_takes_result);

  return g_test_run ();
}
