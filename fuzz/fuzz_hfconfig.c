/*
 * Fuzz target: a Hugging Face config.json through hfconfig_load_string()
 * (what --model-config and the wizard's "From config.json..." run on the
 * file's bytes).  A config that loads must give a model the engine can size
 * without checking again: every figure within its CATALOG_MODEL_FIGURES
 * bounds (or 0 where 0 means none), KV heads dividing the heads, no more
 * active experts than experts, a positive parameter count no smaller than
 * the active one; and the workload built on it must pass
 * engine_workload_valid() or be refused with a reason, never crash.
 */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "hfconfig.h"

int fuzz_hfconfig_init(void)
{
	return 0;
}

static int check_model(const struct hfconfig *h)
{
	const struct catalog_model *m = &h->m;
	int bad = 0;
	for (int j = 0; j < MF_COUNT; j++) {
		const struct catalog_model_figure *f = &catalog_model_figures[j];
		double v = catalog_model_figure_get(m, f);
		if (v != 0 && !(v >= f->min && v <= f->max)) {
			fprintf(stderr, "fuzz: %s is %g, outside %g to %g\n", f->key, v, f->min, f->max);
			bad = 1;
		}
	}
	if (m->layers <= 0 || m->hidden <= 0 || m->heads <= 0 || m->kv_heads <= 0 || m->head_dim <= 0 ||
	    m->ffn <= 0 || m->vocab <= 0 || m->max_context <= 0 || m->heads % m->kv_heads) {
		fprintf(stderr, "fuzz: a required figure is missing or KV heads do not divide the heads\n");
		bad = 1;
	}
	if (m->experts_active > m->experts || (m->experts > 0) != (m->experts_active > 0)) {
		fprintf(stderr, "fuzz: %d active of %d experts\n", m->experts_active, m->experts);
		bad = 1;
	}
	if (!(m->params > 0) || (m->active_params > 0 && m->active_params > m->params)) {
		fprintf(stderr, "fuzz: params %g, active %g\n", m->params, m->active_params);
		bad = 1;
	}
	if (!m->name || !*m->name || m->name != h->name || m->family != h->family) {
		fprintf(stderr, "fuzz: the model's name is not the struct's own\n");
		bad = 1;
	}
	return bad;
}

int fuzz_hfconfig_one(const uint8_t *data, size_t size)
{
	struct hfconfig h;
	char err[1024] = "";
	if (!hfconfig_load_string("fuzz.json", (const char *)data, size, &h, err, sizeof err))
		return !fuzz_clean_message("hfconfig_load_string", err, "fuzz.json");
	int bad = check_model(&h);
	/* the engine's own checks on it: a reason, never a crash */
	struct workload w;
	memset(&w, 0, sizeof w);
	engine_workload_class_defaults(&w, WL_INFERENCE);
	w.model = &h.m;
	char why[256];
	(void)engine_workload_valid(&w, why, sizeof why);
	return bad;
}
