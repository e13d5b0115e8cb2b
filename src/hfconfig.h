/*
 * hfconfig: a Hugging Face config.json read as a model's figures
 * (--model-config FILE, the wizard's "From config.json..." entry).
 *
 * JSON is YAML to libyaml, so the file goes through ytree like every other
 * input and every error reads "file:line:col: message".  The keys read, and
 * how each maps onto CATALOG_MODEL_FIGURES (catalog.h), are listed in
 * hfconfig.c and man/accelsizer.1 (--model-config).  config.json states no
 * parameter count: it is computed from the shapes by engine_model_params()
 * (engine.h), and for a mixture of experts the active count by
 * engine_model_active_params().  Every figure is checked against the
 * table's bounds; a missing key, a value of the wrong type or out of range
 * is an error, never a guess.
 *
 * Ownership: struct hfconfig is caller-owned and holds no allocation: the
 * model's name and family point into its own buffers, so copy the model
 * with scenario_set_custom_model() (which duplicates the strings) before
 * the struct goes away.
 */
#ifndef ACCELSIZER_HFCONFIG_H
#define ACCELSIZER_HFCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"

struct hfconfig {
	struct catalog_model m;		/* id NULL; name and family below */
	char name[96], family[64];
	bool tied_embeddings;		/* tie_word_embeddings */
};

/* Reads path into *out.  On failure err holds "path:line:col: message"
 * (or "path: message" when the file cannot be read) and *out is zeroed. */
bool hfconfig_load(const char *path, struct hfconfig *out, char *err, size_t errsz);
/* The same from text in memory; name is what messages call the file. */
bool hfconfig_load_string(const char *name, const char *text, size_t len, struct hfconfig *out,
			  char *err, size_t errsz);

#endif
