/* SPDX-License-Identifier: MIT */
#pragma once

/* The window lives in a module of its own (libafg-ui.so), loaded only
 * when a window is wanted: an export never pays for loading GTK and the
 * seventy libraries behind it (about 20 ms per run). */

#define AFG_UI_MODULE_NAME "libafg-ui.so"
#define AFG_UI_MAIN_SYMBOL "afg_ui_main"
#define AFG_UI_NO_DISPLAY  (-1)

/* Runs the window: for a diff when @diff_a and @diff_b are set, else for
 * @argv. Returns the exit status, or AFG_UI_NO_DISPLAY when no display
 * could be opened (nothing else was done then). */
typedef int (*AfgUiMainFunc) (int         argc,
                              char      **argv,
                              const char *diff_a,
                              const char *diff_b);

int afg_ui_module_run (int         argc,
                       char      **argv,
                       const char *diff_a,
                       const char *diff_b);
