/*
 * accelsizer: from an AI workload to the accelerators that fit it, the node
 * and cluster shape, and a bill of materials.  This file only dispatches.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "cli.h"

static void usage(FILE *f)
{
	fputs("Usage: accelsizer [OPTION]...                 open the wizard\n"
	      "  or:  accelsizer recommend [WORKLOAD OPTION]... [--format table|csv|yaml]\n"
	      "  or:  accelsizer validate [WORKLOAD OPTION]... --accelerator ID\n"
	      "  or:  accelsizer bom [WORKLOAD OPTION]... -o FILE.csv\n"
	      "  or:  accelsizer proposal [WORKLOAD OPTION]... -o FILE.html|FILE.md\n"
	      "  or:  accelsizer sweep [WORKLOAD OPTION]... [RANGE OPTION]... -o FILE.csv\n"
	      "  or:  accelsizer catalog list|show ID|check [DIR]\n"
	      "  or:  accelsizer accuracy [--role ROLE] [--format table|csv|yaml] [--check]\n"
	      "  or:  accelsizer compare A.yaml B.yaml [C.yaml] [--format table|csv|yaml]\n"
	      "Size AI accelerators for a workload and build a bill of materials.\n"
	      "\n"
	      "Wizard options:\n"
	      "      --catalog DIR     read the catalog from DIR\n"
	      "      --scenario FILE   open the wizard with a saved scenario\n"
	      "      --prices FILE     price list (CSV) for the wizard's BOM preview and export\n"
	      "      --theme NAME|FILE colour theme (dark, light, high-contrast, mono)\n"
	      "      --ascii           draw bars and borders with ASCII only\n"
	      "  -h, --help            display this help and exit\n"
	      "  -V, --version         output version information and exit\n"
	      "\n"
	      "Run 'accelsizer COMMAND --help' for the options of a command.\n"
	      "Exit status: 0 success, 1 the workload cannot be met, 2 bad input.\n", f);
}

/*
 * Every command's standard output is checked once, here, at exit: a full
 * disk or /dev/full must not give exit 0 and an empty file (issue 13 item
 * 3).  fflush reports a buffered write failing, ferror one that failed
 * earlier, fclose one the kernel only reports on close.  A command that
 * already failed with exit 2 has said why; otherwise the message is here.
 */
static int close_stdout(int rc)
{
	errno = 0;
	bool bad = fflush(stdout) != 0;
	int e = errno;
	bad = ferror(stdout) || bad;
	errno = 0;
	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		e = errno;
	}
	if (!bad)
		return rc;
	if (rc != EXIT_BADINPUT)
		fprintf(stderr, "accelsizer: cannot write to standard output: %s\n",
			e ? strerror(e) : "write error");
	return EXIT_BADINPUT;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
	/* Into a file or pipe, the output usually fits one buffer, so the
	 * write that fails is close_stdout()'s own and its errno is known. */
	cleanup_install();
	static char obuf[1 << 16];
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	return close_stdout(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} commands[] = {
		{ "recommend", cli_recommend_main },
		{ "validate", cli_validate_main },
		{ "bom", cli_bom_main },
		{ "proposal", cli_proposal_main },
		{ "sweep", cli_sweep_main },
		{ "catalog", cli_catalog_main },
		{ "accuracy", cli_accuracy_main },
		{ "compare", cli_compare_main },
	};

	if (argc >= 2) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
			printf("accelsizer %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		}
		for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
		if (argv[1][0] != '-') {
			fprintf(stderr, "accelsizer: unknown command '%s'\n"
				"Try 'accelsizer --help' for more information.\n", argv[1]);
			return EXIT_BADINPUT;
		}
	}
	return tui_main(argc, argv);
}
