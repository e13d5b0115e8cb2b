/* placeholder: replaced by the module's implementation */
#include <stdio.h>
#include "cli.h"
int tui_main(int argc, char **argv) { (void)argc; (void)argv; fputs("accelsizer: the wizard is not built yet\n", stderr); return 2; }
