/*
 * cli_multi: recommend and validate for a scenario with several workloads
 * (issue 18), on the clusters cluster.c sized.  CSV and YAML carry one record per workload and accelerator, column
 * `workload` with its name, then the cluster's record (`workload` =
 * `total`); the columns after `workload` are the one result table of
 * cli_report.c.  `bom` quotes one cluster (its total result, so the BOM
 * total is the capex recommend prints for `total`) and `validate` writes
 * each workload's plan and the cluster's (cli_multi_validate()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_multi.h"
#include "cli_report.h"
#include "out.h"
#include "prices.h"

bool cli_multi_flags(struct scenario *s)
{
	const struct workload *first = &s->entries[0].w;
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		const char *from = (const char *)&s->w + f->off;
		if (!f->section || !strcmp(f->section, "workload")) {
			if (memcmp(from, (const char *)first + f->off, engine_field_size(f))) {
				fprintf(stderr, "accelsizer: --%s: the scenario holds %zu workloads; set it "
					"on each in the file\n", f->flag ? f->flag : f->key, s->n_entries);
				return false;
			}
		}
	}
	scenario_share_settings(s);
	return true;
}

/* With --accelerator (or accelerator: in the file) only that one. */
static bool shown(const struct cluster *m, size_t a)
{
	const struct catalog_accel *only = m->s->entries[0].w.accel;
	return !only || only == &m->c->accels[a];
}

/* The cluster's columns after the result's: the cards a record's workload
 * runs on and how many workloads share them at once (a MIG pool's), so a
 * slice's gpus (its own count) is not read as a card of its own; for total
 * the cluster's cards and its workloads. */
static const char *const cluster_cols[] = { "cluster_gpus", "sharing" };
#define N_CLUSTER_COLS (sizeof cluster_cols / sizeof cluster_cols[0])

static void cluster_value(const struct cluster *m, size_t e, size_t a, size_t col, char *buf, size_t n)
{
	const struct engine_cluster_item *it = e < m->s->n_entries ? cluster_item(m, e, a) : NULL;
	long v = col == 0 ? (it ? it->cards : m->cl[a].total.gpus) : (it ? it->sharing : (long)m->n_items[a]);
	snprintf(buf, n, "%ld", v);
}

static bool write_csv(FILE *f, const struct cluster *m)
{
	size_t nf;
	cli_result_fields(&nf);
	char buf[256];
	struct out_csv o;
	out_csv_begin(&o, f, OUT_CSV_QUOTE_ALL);
	out_csv_cell(&o, "workload", OUT_PLAIN);
	char name[64];
	for (size_t i = 0; i < nf; i++)
		out_csv_cell(&o, cli_result_name(i, prices_currency(m->s->entries[0].w.prices), name,
						 sizeof name), OUT_PLAIN);
	for (size_t i = 0; i < N_CLUSTER_COLS; i++)
		out_csv_cell(&o, cluster_cols[i], OUT_PLAIN);
	out_csv_end(&o);
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		for (size_t e = 0; shown(m, a) && e <= m->s->n_entries; e++) {
			bool total = e == m->s->n_entries;
			const struct engine_result *r = total ? &m->cl[a].total : cluster_used(m, e, a);
			if (!r)
				continue;
			out_csv_cell(&o, total ? "total" : m->s->entries[e].name, total ? OUT_PLAIN : OUT_TEXT);
			for (size_t i = 0; i < nf; i++) {
				if (!cli_result_value(i, r, buf, sizeof buf))
					buf[0] = '\0';
				out_csv_cell(&o, buf, cli_result_cell(i));
			}
			for (size_t i = 0; i < N_CLUSTER_COLS; i++) {
				cluster_value(m, e, a, i, buf, sizeof buf);
				out_csv_cell(&o, buf, OUT_PLAIN);
			}
			out_csv_end(&o);
		}
	}
	return out_csv_finish(&o);
}

static bool write_yaml(FILE *f, const struct cluster *m)
{
	size_t nf;
	const struct cli_field *fields = cli_result_fields(&nf);
	char buf[256];
	struct out_yaml y;
	if (!out_yaml_begin(&y, f))
		return false;
	out_yaml_map(&y, true);
	out_yaml_key(&y, "share_gpus");
	out_yaml_scalar(&y, m->s->share_gpus ? "true" : "false", OUT_YAML_PLAIN);
	out_yaml_key(&y, "results");
	out_yaml_seq(&y, true);
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		for (size_t e = 0; shown(m, a) && e <= m->s->n_entries; e++) {
			bool total = e == m->s->n_entries;
			const struct engine_result *r = total ? &m->cl[a].total : cluster_used(m, e, a);
			if (!r)
				continue;
			out_yaml_map(&y, true);
			out_yaml_str(&y, "workload", total ? "total" : m->s->entries[e].name);
			for (size_t i = 0; i < nf; i++) {
				out_yaml_key(&y, cli_result_name(i, r->currency, buf, sizeof buf));
				if (!cli_result_value(i, r, buf, sizeof buf))
					out_yaml_scalar(&y, "null", OUT_YAML_PLAIN);
				else
					out_yaml_scalar(&y, buf, fields[i].kind == CLI_FIELD_STR ? OUT_YAML_TEXT
											: OUT_YAML_PLAIN);
			}
			for (size_t i = 0; i < N_CLUSTER_COLS; i++) {
				cluster_value(m, e, a, i, buf, sizeof buf);
				out_yaml_key(&y, cluster_cols[i]);
				out_yaml_scalar(&y, buf, OUT_YAML_PLAIN);
			}
			out_yaml_map(&y, false);
		}
	}
	out_yaml_seq(&y, false);
	out_yaml_map(&y, false);
	return out_yaml_end(&y, NULL) && !ferror(f);
}

static bool write_table(FILE *f, const struct cluster *m)
{
	char nb[256];
	fprintf(f, "%zu workloads on one cluster%s:", m->s->n_entries,
		m->s->share_gpus ? " (training may time-share serving GPUs)" : "");
	for (size_t e = 0; e < m->s->n_entries; e++)
		fprintf(f, "%s %s", e ? "," : "", out_inert(m->s->entries[e].name, nb, sizeof nb));
	fputs("\n\n", f);
	fprintf(f, "%-4s %-16s %-16s %5s %5s %-15s %12s %7s  %s\n", "rank", "accelerator", "workload",
		"gpus", "nodes", "layout", "capex", "kW", "why");
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		if (!shown(m, a))
			continue;
		const struct engine_result *t = &m->cl[a].total;
		char rk[8], rb[ENGINE_REASON_MAX], safe[400];
		snprintf(rk, sizeof rk, t->fits ? (t->filtered ? "(%d)" : "%d") : "no", t->rank);
		fprintf(f, "%-4s %-16s %-16s %5d %5d %-15s %12.0f %7.1f  %s\n", rk, m->c->accels[a].id, "total",
			t->gpus, t->nodes, "-", t->capex_usd, t->power_kw, t->reason);
		for (size_t e = 0; e < m->s->n_entries; e++) {
			const struct engine_cluster_item *it = cluster_item(m, e, a);
			if (!it)
				continue;
			const struct engine_result *r = it->used;
			char lay[48], pool[96] = "";
			engine_result_layout(r, m->s->entries[e].w.cls, lay, sizeof lay);
			if (it->sharing > 1)
				snprintf(pool, sizeof pool, "on %d GPU%s shared with %d other workload%s: ",
					 it->cards, it->cards == 1 ? "" : "s", it->sharing - 1,
					 it->sharing == 2 ? "" : "s");
			fprintf(f, "%-4s %-16s %-16.16s %5d %5s %-15s %12s %7s  %s%s\n", "", "",
				out_inert(m->s->entries[e].name, nb, sizeof nb), r->gpus, "", lay, "", "", pool,
				out_inert(engine_result_why(r, rb, sizeof rb), safe, sizeof safe));
		}
	}
	return !ferror(f);
}

bool cli_multi_recommend(const struct cluster *m, enum cli_format fmt, FILE *f, bool *any_fits)
{
	*any_fits = false;
	for (size_t a = 0; a < m->n_accel; a++)
		*any_fits |= shown(m, a) && m->cl[a].total.fits;
	return fmt == CLI_FMT_CSV ? write_csv(f, m) : fmt == CLI_FMT_YAML ? write_yaml(f, m)
									 : write_table(f, m);
}


bool cli_multi_validate(const struct cluster *m, size_t a, enum cli_format fmt, FILE *f)
{
	size_t ne = m->s->n_entries, n = m->n_items[a];
	struct engine_plan *plans = calloc(n + 1, sizeof *plans);
	struct cli_plan_part *parts = calloc(n + 1, sizeof *parts);
	bool ok = plans && parts;
	for (size_t k = 0; ok && k < n; k++) {
		const struct engine_cluster_item *it = &m->items[a * ne + k];
		engine_validation_plan(m->c, it->w, it->used, &plans[k]);
		parts[k] = (struct cli_plan_part){ it->name, it->w, it->used, &plans[k] };
	}
	if (ok) {
		engine_cluster_plan(m->c, &m->items[a * ne], n, &m->cl[a], &plans[n]);
		parts[n] = (struct cli_plan_part){ "total", NULL, &m->cl[a].total, &plans[n] };
		ok = cli_plans_write(f, fmt, parts, n + 1);
	} else {
		fprintf(stderr, "accelsizer: out of memory\n");
	}
	free(plans);
	free(parts);
	return ok;
}

