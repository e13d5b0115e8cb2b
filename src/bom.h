#ifndef ACCELSIZER_BOM_H
#define ACCELSIZER_BOM_H
#endif
