/*
 * catalog_figures: the table of a model's figures (CATALOG_MODEL_FIGURES in
 * catalog.h) as data, for the code that walks it at run time: the scenario
 * loader and emitter, the wizard's custom-model rows, the engine's range
 * checks.  The catalog loader expands the X-macro itself, at compile time.
 */
#include "catalog.h"

#include <stddef.h>
#include <string.h>

const struct catalog_model_figure catalog_model_figures[MF_COUNT] = {
#define X(id, key, member, type, lo, hi, cat, custom, label, unit, step, hint) \
	[MF_##id] = { key, type, offsetof(struct catalog_model, member), lo, hi, cat, custom, \
		      label, unit, hint, step },
	CATALOG_MODEL_FIGURES(X)
#undef X
};

double catalog_model_figure_get(const struct catalog_model *m, const struct catalog_model_figure *f)
{
	const char *p = (const char *)m + f->off;
	switch (f->type) {
	case MFT_BILLIONS: {
		double d;
		memcpy(&d, p, sizeof d);
		return d / 1e9;
	}
	case MFT_INT: {
		int i;
		memcpy(&i, p, sizeof i);
		return i;
	}
	case MFT_LONG: {
		long l;
		memcpy(&l, p, sizeof l);
		return (double)l;
	}
	}
	return 0;
}

void catalog_model_figure_set(struct catalog_model *m, const struct catalog_model_figure *f, double v)
{
	char *p = (char *)m + f->off;
	switch (f->type) {
	case MFT_BILLIONS: {
		double d = v * 1e9;
		memcpy(p, &d, sizeof d);
		return;
	}
	case MFT_INT: {
		int i = (int)v;
		memcpy(p, &i, sizeof i);
		return;
	}
	case MFT_LONG: {
		long l = (long)v;
		memcpy(p, &l, sizeof l);
		return;
	}
	}
}
