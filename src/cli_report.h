/* placeholder */
#ifndef ACCELSIZER_CLI_REPORT_H
#define ACCELSIZER_CLI_REPORT_H
#endif
