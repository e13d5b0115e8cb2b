#include <stdio.h>
#include "cli.h"
int cli_catalog_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "accelsizer: '%s' is not built yet\n", argv[0]);
	return EXIT_BADINPUT;
}
struct catalog *cli_load_catalog(const char *flag_dir) { (void)flag_dir; return NULL; }
