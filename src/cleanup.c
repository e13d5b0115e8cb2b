/*
 * cleanup: one handler for every fatal signal.  See cleanup.h; the rule
 * for what a handler may call is POSIX.1-2017 XSH 2.4.3 (async-signal-safe
 * functions).  Everything it reads is in static arrays filled beforehand;
 * a slot becomes visible to it only after it is complete (the `used` flag
 * is written last, behind a signal fence).
 */
#include "cleanup.h"

#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGALRM };
#define N_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])

/* A command has at most a few outputs open at once (bom: two). */
#define MAX_FILES 8

static struct {
	volatile sig_atomic_t used;
	char tmp[PATH_MAX];
	char msg[PATH_MAX + 64];
	size_t msglen;
} files[MAX_FILES];

static struct {
	volatile sig_atomic_t saved, armed;
	int fd;
	struct termios tio;
	char seq[256];
	size_t len;
} term;

static void on_fatal(int sig)
{
	/* the screen first, so that the messages below are readable */
	if (term.armed) {
		if (term.len)
			(void)!write(term.fd, term.seq, term.len);
		(void)tcsetattr(term.fd, TCSANOW, &term.tio);
	}
	for (int i = 0; i < MAX_FILES; i++)
		if (files[i].used) {
			(void)unlink(files[i].tmp);
			(void)!write(STDERR_FILENO, files[i].msg, files[i].msglen);
		}
	/* The documented status, 128 + the signal (accelsizer(1)), as the
	 * wizard always gave for Ctrl-C: a script that runs it goes on.
	 * _exit, not exit: no atexit handler or stdio flush in a handler. */
	_exit(128 + sig);
}

void cleanup_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	/* no second fatal signal runs the handler inside the first */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_FATAL; i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	for (size_t i = 0; i < N_FATAL; i++) {
		struct sigaction old;
		/* a signal the parent ignores (nohup, a shell's background job's
		 * SIGINT) stays ignored */
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		(void)sigaction(fatal_signals[i], &sa, NULL);
	}
}

int cleanup_add_file(const char *tmp, const char *target)
{
	for (int i = 0; i < MAX_FILES; i++) {
		if (files[i].used)
			continue;
		int n = snprintf(files[i].tmp, sizeof files[i].tmp, "%s", tmp);
		int m = snprintf(files[i].msg, sizeof files[i].msg,
				 "accelsizer: interrupted; '%s' is left as it was\n", target);
		if (n < 0 || (size_t)n >= sizeof files[i].tmp || m < 0 ||
		    (size_t)m >= sizeof files[i].msg)
			return 0;
		files[i].msglen = (size_t)m;
		atomic_signal_fence(memory_order_seq_cst);
		files[i].used = 1;
		return i + 1;
	}
	return 0;
}

void cleanup_drop_file(int handle)
{
	if (handle > 0 && handle <= MAX_FILES)
		files[handle - 1].used = 0;
}

void cleanup_terminal_save(int fd)
{
	term.fd = fd;
	term.saved = tcgetattr(fd, &term.tio) == 0;
}

void cleanup_terminal_arm(const char *seq, size_t len)
{
	if (!term.saved)
		return;
	term.len = len < sizeof term.seq ? len : 0;
	memcpy(term.seq, seq, term.len);
	atomic_signal_fence(memory_order_seq_cst);
	term.armed = 1;
}

void cleanup_terminal_disarm(void)
{
	term.armed = 0;
}
