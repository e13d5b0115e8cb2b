#ifndef ACCELSIZER_TUI_H
#define ACCELSIZER_TUI_H
#endif
