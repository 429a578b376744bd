/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-device-tasks.h"
#include "afg-document.h"

G_BEGIN_DECLS

/* Reads @document's DB again for what only the trace export needs: every
 * used TASK row with its device and stream, and the used PYTORCH_API row
 * that launched it, by the loader's linking rules (it keeps only sums).
 * The same untrusted-input rules as the loader's. A DB without usable
 * TASK or TASK.deviceId/streamId gives no tasks and, when tables are
 * there, a warning; without usable links (CONNECTION_IDS, its
 * PYTORCH_API.connectionId) the tasks, none launched by a row; NULL and @error only when the DB
 * cannot be opened or read, or on cancel. */
AfgDeviceTasks *afg_trace_reader_read (const AfgDocument *document,
                                       GCancellable      *cancellable,
                                       GError           **error);

G_END_DECLS
