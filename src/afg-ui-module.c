/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dlfcn.h>

#include <glib/gi18n.h>

#include "afg-cli.h"
#include "afg-cli-report.h"
#include "afg-ui-module.h"

/* Beside the executable in a build tree (src/ui/), else where it is
 * installed. */
static char *
module_path (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (exe);
      char *candidate = g_build_filename (dir, "ui", AFG_UI_MODULE_NAME, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
        return candidate;
      g_free (candidate);
    }
  return g_build_filename (AFG_UI_MODULE_DIR, AFG_UI_MODULE_NAME, NULL);
}

static int
fail (const char *reason)
{
  g_autofree char *message = g_strdup_printf (_("cannot load the window: %s"), reason);

  afg_cli_print_error (message, _("reinstall ascend-flamegraph, or write the flame graph without a window:"
                                  " ascend-flamegraph --export [-o DIR] DB|FOLDER"));
  return 1;
}

int
afg_ui_module_run (int argc, char **argv, const char *diff_a, const char *diff_b)
{
  g_autofree char *path = module_path ();
  void *module = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  AfgUiMainFunc ui_main;
  int status;

  if (module == NULL)
    return fail (dlerror ());
  ui_main = (AfgUiMainFunc) dlsym (module, AFG_UI_MAIN_SYMBOL);
  if (ui_main == NULL)
    return fail (dlerror ());
  status = ui_main (argc, argv, diff_a, diff_b);
  /* Never dlclose: GTK's types and threads live on until exit. */
  return status == AFG_UI_NO_DISPLAY ? afg_cli_no_display () : status;
}
