#include <stdio.h>
#include "cli.h"
int cli_bom_main(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "accelsizer: '%s' is not built yet\n", argv[0]);
	return EXIT_BADINPUT;
}
