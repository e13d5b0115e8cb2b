/*
 * cleanup: what a fatal signal must undo before the program dies, in one
 * place (issue 13 item 10).  SIGINT, SIGTERM, SIGHUP (a dropped ssh
 * session), SIGQUIT (Ctrl-\), SIGPIPE, SIGUSR1 and SIGALRM all run the same
 * handler: it removes every temporary file the atomic writer has open
 * (saying which target is left as it was), puts the terminal back as the
 * wizard found it (alternate screen, mouse reporting, keypad mode, cursor,
 * attributes, tty modes), then exits with 128 + the signal's number, the
 * status accelsizer(1) documents.
 *
 * The handler only calls async-signal-safe functions (unlink, write,
 * tcsetattr, _exit; POSIX.1-2017 XSH 2.4.3) on data
 * prepared beforehand in static storage: it never allocates.
 */
#ifndef ACCELSIZER_CLEANUP_H
#define ACCELSIZER_CLEANUP_H

#include <stddef.h>

/* Installs the handler for every fatal signal above.  Once, at start. */
void cleanup_install(void);

/* Registers a temporary file (and the target it stands for, for the
 * message) to remove on a signal.  Returns a handle > 0, or 0 when the
 * table is full or a path too long (the file is then not removed on a
 * signal, nothing else changes). */
int cleanup_add_file(const char *tmp, const char *target);
/* The file was renamed or removed: forget it.  0 is ignored. */
void cleanup_drop_file(int handle);

/* The wizard's terminal: call cleanup_terminal_save(fd) before the screen
 * is set up (it records the tty modes), cleanup_terminal_arm() once it is,
 * with the bytes that undo it (at most 255; copied), and
 * cleanup_terminal_disarm() before the normal endwin(). */
void cleanup_terminal_save(int fd);
void cleanup_terminal_arm(const char *seq, size_t len);
void cleanup_terminal_disarm(void);

#endif
