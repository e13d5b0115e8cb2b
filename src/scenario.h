/*
 * scenario: a saved sizing session as a YAML file: the workload, its
 * filters and objective, the chosen accelerator and node overrides, and who
 * it is for.  Loaded with ytree (every error is "file:line:col: message"),
 * saved with libyaml's emitter through the atomic writer, so any UTF-8 text
 * in customer/opportunity/notes is quoted safely.  Loading never executes
 * anything.
 *
 *   schema: 1
 *   customer: "ACME"                  # free UTF-8 text, optional
 *   opportunity: "Q3 inference"       # optional
 *   notes: "..."                      # optional, may span lines
 *   workload:
 *     class: inference                # inference | pretrain | finetune
 *     model: llama-3.1-70b            # a catalog id, or instead:
 *     custom_model: {name: .., params_b: .., layers: .., ...}
 *     precision: fp8
 *     kv_precision: fp8
 *     input_tokens: 2048              # and every other workload field,
 *     concurrency: max                # named like the CLI flags with _
 *     ...
 *   filters: {stack: any, form_factor: any, max_power_kw: 0, budget_usd: 0}
 *   objective: capex
 *   accelerator: h100-sxm             # optional: the chosen one
 *   node: {gpus: auto, spare_nodes: default}
 *
 * Absent keys keep engine_workload_init()'s defaults.  Unknown keys, wrong
 * types, bad values and unknown model/accelerator ids are errors; so is a
 * schema newer than SCENARIO_SCHEMA.
 *
 * Ownership: struct scenario is caller-owned (scenario_init/scenario_fini).
 * customer, opportunity and notes are malloc'd strings (or NULL) freed by
 * scenario_fini.  A custom model lives inside the struct (custom) and
 * w.model points at it, so a scenario must not be copied with '=': use
 * scenario_move().
 */
#ifndef ACCELSIZER_SCENARIO_H
#define ACCELSIZER_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "catalog.h"
#include "engine.h"

#define SCENARIO_SCHEMA 1

/* One entry of `workloads:` (issue 18): several workloads on one cluster.
 *   workloads:
 *     - name: chat                    # text, unique in the list
 *       model: llama-3.1-70b          # and every key of workload:
 *     - name: weekly-lora
 *       class: finetune
 *       hours_per_week: 8             # training: its share of the week
 *   share_gpus: true                  # training may borrow serving cards
 * Filters, objective, accelerator and node apply to every entry.  A list
 * of one is that workload, as if given under workload: (custom_model is
 * not taken inside a list). */
struct scenario_entry {
	char *name;
	struct workload w;
	double share;			/* of the week, 0 < share <= 1; 1 = always */
};
#define SCENARIO_MAX_WORKLOADS ENGINE_CLUSTER_MAX

struct scenario {
	struct workload w;
	/* workloads: with two or more entries; a list of one sets w */
	struct scenario_entry *entries;	/* malloc'd, each name malloc'd */
	size_t n_entries;
	bool share_gpus;
	char *customer, *opportunity, *notes;	/* NULL = not given */
	struct catalog_model custom;	/* figures of a custom model */
	bool has_custom;		/* w.model == &custom */
};

/* engine_workload_init() defaults, no texts, no custom model. */
void scenario_init(struct scenario *s, const struct catalog *c);
void scenario_fini(struct scenario *s);
/* Moves src into dst (dst is finalised first; src is left initialised
 * empty, still needing scenario_fini) and fixes the custom-model pointer. */
void scenario_move(struct scenario *dst, struct scenario *src);

/* Copies a custom model's figures into s and points s->w.model at them.
 * The id becomes "custom" unless m has one. */
bool scenario_set_custom_model(struct scenario *s, const struct catalog_model *m);
/* Replaces one of s's strings (customer, opportunity, notes) with a copy
 * of text (NULL or "" clears it). */
bool scenario_set_text(char **field, const char *text);

/*
 * Loads path into out (which this initialises; finalise it with
 * scenario_fini() whether or not the load succeeded).  Starts from the
 * catalog defaults, applies the file and checks the result with
 * engine_workload_valid().  On failure err holds "file:line:col: message".
 */
bool scenario_load(const char *path, const struct catalog *c, struct scenario *out,
		   char *err, size_t errsz);
bool scenario_load_string(const char *name, const char *text, size_t len,
			  const struct catalog *c, struct scenario *out, char *err, size_t errsz);

/* Applies a scenario file on top of s: only the keys present change, so
 * command-line flags can be applied after it.  On failure s may be partly
 * changed (load into a fresh scenario when that matters). */
bool scenario_apply_file(const char *path, const struct catalog *c, struct scenario *s,
			 char *err, size_t errsz);

/* Applies one workload mapping (the keys under a scenario's workload:,
 * with the same checks and messages) on top of s, for other files that
 * describe a workload the way a scenario does (catalog/published/). */
struct ynode;
bool scenario_apply_workload(const char *path, const struct ynode *map, const struct catalog *c,
			     struct scenario *s, char *err, size_t errsz);

/* Several workloads: the settings they share (every field outside the
 * workload section: filters, objective, accelerator, node, costs) and the
 * price list, from s->w into every entry. */
void scenario_share_settings(struct scenario *s);

/* Writes the scenario atomically.  err: "cannot write 'PATH': ..." */
bool scenario_save(const char *path, const struct scenario *s, char *err, size_t errsz);
/* The same YAML into a stream. */
bool scenario_emit(const struct scenario *s, FILE *fp, char *err, size_t errsz);

/*
 * Every workload setting that matters for w's class, as the scenario file
 * names it, with its value as text ("concurrency", "max"), in file order.
 * section is "workload", "filters", "node" or "" (top level).  For
 * summaries and reports that must use the same words as the files.
 */
typedef void (*scenario_setting_fn)(const char *section, const char *key, const char *value,
				    void *ctx);
void scenario_each_setting(const struct workload *w, scenario_setting_fn fn, void *ctx);

#endif
