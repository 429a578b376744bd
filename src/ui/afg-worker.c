/* SPDX-License-Identifier: MIT */
/* Every worker request of the window goes through one of these: a thread
 * per request, a GCancellable per request, progress polled on the main
 * loop, the result delivered on the main loop to the current request
 * only. The poll rather than an idle per progress call: a request's
 * progress is counters its threads keep (several threads for a
 * comparison or a job, whose ranks report only a state to read), and the
 * main loop reads them at its own pace without any thread scheduling
 * sources. */
#define G_LOG_DOMAIN "afg-worker"

#include "config.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "afg-worker.h"

typedef struct {
  GWeakRef              worker;
  const AfgWorkerFuncs *funcs;
  gpointer              data;
  GDestroyNotify        free_data;
  GCancellable         *cancellable;
  guint                 poll_source;
} Request;

struct _AfgWorker {
  GObject   parent_instance;

  gpointer  owner;     /* not a reference: the owner keeps the worker */
  Request  *current;   /* the request running, or NULL */
};

G_DEFINE_FINAL_TYPE (AfgWorker, afg_worker, G_TYPE_OBJECT)

static void
request_free (gpointer data)
{
  Request *req = data;

  g_assert (req->poll_source == 0);
  g_weak_ref_clear (&req->worker);
  g_clear_object (&req->cancellable);
  if (req->free_data != NULL)
    req->free_data (req->data);
  g_free (req);
}

static void
request_stop_polling (Request *req)
{
  g_clear_handle_id (&req->poll_source, g_source_remove);
}

static gboolean
poll_request (gpointer data)
{
  Request *req = data;
  g_autoptr(AfgWorker) self = g_weak_ref_get (&req->worker);

  if (self != NULL && self->current == req)
    req->funcs->poll (self->owner, req->data);
  return G_SOURCE_CONTINUE;
}

/* The kinds of request a test holds before they run (afg_worker_hold),
 * by name; empty outside tests. */
static GMutex held_lock;
static GCond held_cond;
static GHashTable *held;

/* Until the test lets go of the request's kind, or the request is
 * cancelled (which a newer request of the worker does). */
static void
wait_while_held (Request *req)
{
  g_mutex_lock (&held_lock);
  while (held != NULL && g_hash_table_contains (held, req->funcs->name) && !g_cancellable_is_cancelled (req->cancellable))
    g_cond_wait_until (&held_cond, &held_lock, g_get_monotonic_time () + 20 * G_TIME_SPAN_MILLISECOND);
  g_mutex_unlock (&held_lock);
}

/* A thread of its own rather than GTask's pool: a load lasts seconds and
 * would hold a pooled thread, one that runs below the UI's priority
 * leaves no pooled thread niced behind it, and starting a thread costs
 * little beside the shortest requests (a layout, a few ms). */
static gpointer
run_request (gpointer data)
{
  g_autoptr(GTask) task = data;
  Request *req = g_task_get_task_data (task);
  GError *error = NULL;
  gpointer result;

  if (req->funcs->nice != 0)
    setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), req->funcs->nice);
  wait_while_held (req);
  result = req->funcs->run (req->data, req->cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, req->funcs->free_result);
  return NULL;
}

static void
on_request_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Request *req = g_task_get_task_data (G_TASK (result));
  g_autoptr(AfgWorker) self = g_weak_ref_get (&req->worker);
  g_autoptr(GError) error = NULL;
  gpointer value = g_task_propagate_pointer (G_TASK (result), &error);

  request_stop_polling (req);
  if (self == NULL || self->current != req || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("dropped a cancelled or replaced %s", req->funcs->name);
  else
    {
      self->current = NULL;  /* done may start the next one */
      req->funcs->done (self->owner, value, error, req->data);
      if (req->funcs->takes_result)
        value = NULL;
    }
  if (value != NULL && req->funcs->free_result != NULL)
    req->funcs->free_result (value);
}

static void
afg_worker_dispose (GObject *object)
{
  afg_worker_cancel (AFG_WORKER (object));

  G_OBJECT_CLASS (afg_worker_parent_class)->dispose (object);
}

static void
afg_worker_class_init (AfgWorkerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = afg_worker_dispose;
}

static void
afg_worker_init (AfgWorker *self)
{
}

AfgWorker *
afg_worker_new (gpointer owner)
{
  AfgWorker *self = g_object_new (AFG_TYPE_WORKER, NULL);

  self->owner = owner;
  return self;
}

GCancellable *
afg_worker_start (AfgWorker *self, const AfgWorkerFuncs *funcs, gpointer data, GDestroyNotify free_data)
{
  Request *req = g_new0 (Request, 1);
  GTask *task;

  g_return_val_if_fail (AFG_IS_WORKER (self), NULL);
  g_return_val_if_fail (funcs != NULL && funcs->run != NULL && funcs->done != NULL, NULL);

  afg_worker_cancel (self);
  g_weak_ref_init (&req->worker, self);
  req->funcs = funcs;
  req->data = data;
  req->free_data = free_data;
  req->cancellable = g_cancellable_new ();
  self->current = req;
  task = g_task_new (NULL, req->cancellable, on_request_done, NULL);
  /* A request its owner cancelled but kept (a job's Cancel stops the
   * ranks not started, the rest still shows) has its result delivered. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, req, request_free);
  if (funcs->poll != NULL)
    req->poll_source = g_timeout_add (AFG_WORKER_POLL_MS, poll_request, req);
  g_thread_unref (g_thread_new (funcs->name, run_request, task));
  return req->cancellable;
}

gboolean
afg_worker_cancel (AfgWorker *self)
{
  Request *req;

  g_return_val_if_fail (AFG_IS_WORKER (self), FALSE);

  if ((req = g_steal_pointer (&self->current)) == NULL)
    return FALSE;
  request_stop_polling (req);
  g_cancellable_cancel (req->cancellable);
  return TRUE;
}

gboolean
afg_worker_is_running (AfgWorker *self)
{
  g_return_val_if_fail (AFG_IS_WORKER (self), FALSE);

  return self->current != NULL;
}

gpointer
afg_worker_get_data (AfgWorker *self)
{
  g_return_val_if_fail (AFG_IS_WORKER (self), NULL);

  return self->current != NULL ? self->current->data : NULL;
}

void
afg_worker_hold (const char *name, gboolean hold)
{
  g_return_if_fail (name != NULL);

  g_mutex_lock (&held_lock);
  if (held == NULL)
    held = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (hold)
    g_hash_table_add (held, g_strdup (name));
  else
    g_hash_table_remove (held, name);
  g_cond_broadcast (&held_cond);
  g_mutex_unlock (&held_lock);
}
