#include "cli_report.h"
typedef int cli_report_placeholder;
