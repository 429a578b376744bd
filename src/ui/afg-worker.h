/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How often a running request's poll function is called. */
#define AFG_WORKER_POLL_MS 100

/* In the request's thread: its result, or NULL with @error set. */
typedef gpointer (*AfgWorkerRunFunc)  (gpointer      data,
                                       GCancellable *cancellable,
                                       GError      **error);
/* On the main loop, every AFG_WORKER_POLL_MS while the request runs: reads
 * the counters the request's thread keeps in @data (atomics). */
typedef void     (*AfgWorkerPollFunc) (gpointer      owner,
                                       gpointer      data);
/* On the main loop, once, for the current request only: @result or
 * @error. @result is the worker's, freed with free_result after, unless
 * the funcs say done takes it. A request
 * cancelled by afg_worker_cancel() or replaced, one whose worker is gone,
 * or one that failed with G_IO_ERROR_CANCELLED never gets here; one whose
 * cancellable was cancelled otherwise and that still returned a result
 * does. */
typedef void     (*AfgWorkerDoneFunc) (gpointer      owner,
                                       gpointer      result,
                                       const GError *error,
                                       gpointer      data);

/* What a kind of request does; static, shared by its requests. */
typedef struct {
  const char        *name;         /* the thread's */
  AfgWorkerRunFunc   run;
  AfgWorkerPollFunc  poll;         /* or NULL */
  AfgWorkerDoneFunc  done;
  GDestroyNotify     free_result;  /* or NULL */
  gboolean           takes_result; /* done keeps @result: free_result frees
                                    * only the results done never gets */
  int                nice;         /* added to the thread's niceness */
} AfgWorkerFuncs;

#define AFG_TYPE_WORKER (afg_worker_get_type ())
G_DECLARE_FINAL_TYPE (AfgWorker, afg_worker, AFG, WORKER, GObject)

/* One slot for a worker request of @owner, who keeps the worker (and
 * drops it when it goes away, which cancels the request running). */
AfgWorker    *afg_worker_new             (gpointer              owner);
/* Cancels the request before, then runs @funcs->run (@data) in a thread
 * of its own; @free_data frees @data once the request is over. Returns
 * the request's cancellable. */
GCancellable *afg_worker_start           (AfgWorker            *self,
                                          const AfgWorkerFuncs *funcs,
                                          gpointer              data,
                                          GDestroyNotify        free_data);
/* Its result is dropped; FALSE when none was running. */
gboolean      afg_worker_cancel          (AfgWorker            *self);
gboolean      afg_worker_is_running      (AfgWorker            *self);
/* The running request's data, or NULL. */
gpointer      afg_worker_get_data        (AfgWorker            *self);
/* For tests, to act while a request is in flight: the requests of every
 * worker whose funcs are named @name wait before they run while @hold
 * (a cancelled one goes on, to end), and go on once it is released. */
void          afg_worker_hold            (const char           *name,
                                          gboolean              hold);

G_END_DECLS
