/*
 * cli_workload: the workload options every command shares (recommend,
 * validate, bom, sweep, the wizard's command line): parsing with strict
 * numbers and messages that name the flag, and their --help text.
 *
 * Two passes, so that a scenario file can sit under the flags:
 *
 *   struct cli_extra x = { .opts = mine, .n_opts = n };
 *   if (cli_workload_prescan(argc, argv, &x))       // --catalog, --scenario, --help
 *           return EXIT_BADINPUT;
 *   c = frontend_load_catalog(x.catalog_dir);
 *   engine_workload_init(&w, c);                      // or scenario_init()
 *   cli_workload_start(&x, c, &s);                    // --scenario, --model-config
 *   if (cli_workload_parse(argc, argv, c, &w, &x))   // flags override it
 *           return EXIT_BADINPUT;
 *
 * argv[0] is the command name; the options follow.  Both "--flag value" and
 * "--flag=value" work.  A command's own options are declared in x.opts and
 * their values handed back through the pointers there; anything else that
 * is not a workload option is an error.  Messages go to stderr as
 * "accelsizer: --input-tokens: 'abc' is not a number (e.g. 2048, 2,048, 2k, ...)".
 */
#ifndef ACCELSIZER_CLI_WORKLOAD_H
#define ACCELSIZER_CLI_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "catalog.h"
#include "engine.h"

/* One command-specific option.  value receives the argument (or "1" for an
 * option without one); it points into argv. */
struct cli_opt {
	const char *name;		/* "--format", "-o" */
	bool has_arg;
	const char **value;
};

struct cli_extra {
	/* The caller's own options (may be NULL / 0). */
	const struct cli_opt *opts;
	size_t n_opts;
	/* Found by cli_workload_prescan(). */
	const char *catalog_dir;	/* --catalog DIR, or NULL */
	const char *scenario;		/* --scenario FILE, or NULL */
	const char *prices;		/* --prices FILE, or NULL */
	const char *model_config;	/* --model-config FILE, or NULL */
	bool help;			/* -h / --help */
	/* Set by cli_workload_parse(): which workload flags were given. */
	bool set_precision, set_kv_precision, set_gpus, set_accel, set_workload, set_draft;
	bool set_platform;
};

struct prices;
struct scenario;

/* Applies --scenario (x->scenario) to s, which the caller initialised with
 * scenario_init(), then --model-config (x->model_config) over it: the
 * config.json's figures become s's custom model (hfconfig.h).  Returns 0,
 * or EXIT_BADINPUT with "accelsizer: FILE:line:col: message" printed. */
int cli_workload_start(const struct cli_extra *x, const struct catalog *c, struct scenario *s);

/* Loads --prices (x->prices) into *pl, which the caller initialised with
 * prices_init() and releases with prices_fini(), and hands it to the
 * engine through w->prices, so that every cost the command prints uses
 * it.  Without --prices: w->prices = NULL, returns 0.  A bad file:
 * "accelsizer: FILE:record N: message" and EXIT_BADINPUT. */
int cli_load_prices(const struct cli_extra *x, struct prices *pl, struct workload *w);

/* Finds --catalog, --scenario, --prices, --model-config and --help without judging anything else.
 * Returns 0, or EXIT_BADINPUT (message printed) when one of them lacks its
 * value. */
int cli_workload_prescan(int argc, char **argv, struct cli_extra *x);

/* Applies every workload option in argv to *w (--workload first, so its
 * class defaults never overwrite a flag), then checks the whole workload
 * with engine_workload_valid().  Returns 0 or EXIT_BADINPUT. */
int cli_workload_parse(int argc, char **argv, const struct catalog *c, struct workload *w,
		       struct cli_extra *x);

/* Applies one workload option (name: "--concurrency") to *w with the same
 * checks and messages as cli_workload_parse(), naming `shown` in them (the
 * flag the user typed, e.g. sweep's --models for --model; NULL: name).
 * --precision without --kv-precision in x also moves the KV precision, as
 * the parser does.  The whole workload is not checked: a sweep judges each
 * combination itself.  Returns 0 or EXIT_BADINPUT (message printed). */
int cli_workload_apply(const struct catalog *c, struct workload *w, struct cli_extra *x,
		       const char *name, const char *shown, const char *value);

/* The shared options' help text, one line each, for a command's --help. */
void cli_workload_usage(FILE *f);

/* A whole number in the one syntax (number.h: "2k", "2,048") within
 * [min, max], for a command's own options; prints "accelsizer: FLAG: ..."
 * and returns false on bad input. */
bool cli_parse_whole(const char *flag, const char *s, long min, long max, long *out);

#endif
