/*
 * cli_multi: recommend for a scenario with several workloads (issue 18):
 * each workload is sized over the catalog, then for every accelerator the
 * cluster that holds them all (engine_cluster_size()); accelerators are
 * ranked by the cluster's capex, those where every workload fits first.
 * CSV and YAML carry one record per workload and accelerator, column
 * `workload` with its name, then the cluster's record (`workload` =
 * `total`); the columns after `workload` are the one result table of
 * cli_report.c.  `bom` quotes one cluster (its total result, so the BOM
 * total is the capex recommend prints for `total`) and `validate` writes
 * each workload's plan and the cluster's (cli_multi_validate()).
 *
 * Each serving workload is sized twice: as one of several
 * (workload.share_cards: a MIG slice at the same card count, so slices of
 * one profile can share cards) and alone (a slice only when it saves
 * cards); the cluster takes the second where the slices save no card.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_multi.h"
#include "cli_report.h"
#include "out.h"


static size_t field_size(const struct engine_field *f)
{
	switch (f->type) {
	case EFT_LONG:
		return sizeof(long);
	case EFT_DOUBLE:
		return sizeof(double);
	case EFT_MODEL:
	case EFT_ACCEL:
		return sizeof(void *);
	default:
		return sizeof(int);
	}
}

bool cli_multi_flags(struct scenario *s)
{
	const struct workload *first = &s->entries[0].w;
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		const char *from = (const char *)&s->w + f->off;
		if (!f->section || !strcmp(f->section, "workload")) {
			if (memcmp(from, (const char *)first + f->off, field_size(f))) {
				fprintf(stderr, "accelsizer: --%s: the scenario holds %zu workloads; set it "
					"on each in the file\n", f->flag ? f->flag : f->key, s->n_entries);
				return false;
			}
			continue;
		}
		for (size_t e = 0; e < s->n_entries; e++)
			memcpy((char *)&s->entries[e].w + f->off, from, field_size(f));
	}
	for (size_t e = 0; e < s->n_entries; e++)
		s->entries[e].w.prices = s->w.prices;
	return true;
}

const struct engine_result *cli_multi_used(const struct cli_multi *m, size_t e, size_t a)
{
	size_t n = m->s->n_entries;
	for (size_t k = 0; k < m->n_items[a]; k++)
		if (m->entry[a * n + k] == e)
			return m->items[a * n + k].used;
	return NULL;
}

static void cluster_of(struct cli_multi *m, size_t a)
{
	size_t n = 0, ne = m->s->n_entries;
	struct engine_cluster_item *items = &m->items[a * ne];
	const struct catalog_accel *acc = &m->c->accels[a];
	for (size_t e = 0; e < ne; e++) {
		const struct engine_result *r = engine_report_find(&m->reps[e], acc);
		if (!r)
			continue;
		const struct scenario_entry *se = &m->s->entries[e];
		items[n] = (struct engine_cluster_item){
			.r = r, .share = se->share, .w = &se->w, .name = se->name,
			.whole = r->cls == WL_INFERENCE ? engine_report_find(&m->alone[e], acc) : NULL,
		};
		m->entry[a * ne + n] = e;
		n++;
	}
	m->n_items[a] = n;
	struct engine_cluster *cl = &m->cl[a];
	engine_cluster_size(m->c, &m->s->entries[0].w, items, n, m->s->share_gpus, cl);
	struct engine_result *t = &cl->total;
	if (n)
		t->precision_used = items[0].r->precision_used;
	for (size_t i = 0; i < n && !t->filtered; i++)
		if (items[i].used->filtered) {
			t->filtered = true;
			snprintf(t->filter_reason, sizeof t->filter_reason, "%s", items[i].used->filter_reason);
		}
	if (cl->time_shared)
		snprintf(t->reason, sizeof t->reason,
			 "training time-shares %d of the %d serving GPUs: %.1f%% of serving capacity a week",
			 cl->training_gpus < cl->serving_gpus ? cl->training_gpus : cl->serving_gpus,
			 cl->serving_gpus, cl->serving_headroom_pct);
	else if (cl->training_gpus)
		snprintf(t->reason, sizeof t->reason, "%d GPUs serve, %d more train on their own",
			 cl->serving_gpus, cl->training_gpus);
	else if (cl->fits)
		snprintf(t->reason, sizeof t->reason, "%zu workloads served on %d GPU%s in %d node%s", n,
			 cl->serving_gpus, cl->serving_gpus == 1 ? "" : "s", t->nodes, t->nodes == 1 ? "" : "s");
}

static int group(const struct engine_result *t)
{
	return t->fits ? (t->filtered ? 1 : 0) : 2;
}

static bool ranks_before(const struct engine_result *x, const struct engine_result *y)
{
	if (group(x) != group(y))
		return group(x) < group(y);
	return x->capex_usd < y->capex_usd;
}

static void rank(struct cli_multi *m)
{
	for (size_t i = 0; i < m->n_accel; i++) {
		size_t k = i;
		while (k > 0 && ranks_before(&m->cl[i].total, &m->cl[m->order[k - 1]].total)) {
			m->order[k] = m->order[k - 1];
			k--;
		}
		m->order[k] = i;
	}
	for (size_t i = 0; i < m->n_accel; i++)
		m->cl[m->order[i]].total.rank = (int)i + 1;
}

/* With --accelerator (or accelerator: in the file) only that one. */
static bool shown(const struct cli_multi *m, size_t a)
{
	const struct catalog_accel *only = m->s->entries[0].w.accel;
	return !only || only == &m->c->accels[a];
}

static bool write_csv(FILE *f, const struct cli_multi *m)
{
	size_t nf;
	const struct cli_field *fields = cli_result_fields(&nf);
	char buf[256];
	struct out_csv o;
	out_csv_begin(&o, f, OUT_CSV_QUOTE_ALL);
	out_csv_cell(&o, "workload", OUT_PLAIN);
	for (size_t i = 0; i < nf; i++)
		out_csv_cell(&o, fields[i].name, OUT_PLAIN);
	out_csv_end(&o);
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		for (size_t e = 0; shown(m, a) && e <= m->s->n_entries; e++) {
			bool total = e == m->s->n_entries;
			const struct engine_result *r = total ? &m->cl[a].total : cli_multi_used(m, e, a);
			if (!r)
				continue;
			out_csv_cell(&o, total ? "total" : m->s->entries[e].name, total ? OUT_PLAIN : OUT_TEXT);
			for (size_t i = 0; i < nf; i++) {
				if (!cli_result_value(i, r, buf, sizeof buf))
					buf[0] = '\0';
				out_csv_cell(&o, buf, cli_result_cell(i));
			}
			out_csv_end(&o);
		}
	}
	return out_csv_finish(&o);
}

static bool write_yaml(FILE *f, const struct cli_multi *m)
{
	size_t nf;
	const struct cli_field *fields = cli_result_fields(&nf);
	char buf[256];
	struct out_yaml y;
	if (!out_yaml_begin(&y, f)) {
		out_yaml_end(&y, NULL);
		return false;
	}
	out_yaml_map(&y, true);
	out_yaml_key(&y, "share_gpus");
	out_yaml_scalar(&y, m->s->share_gpus ? "true" : "false", OUT_YAML_PLAIN);
	out_yaml_key(&y, "results");
	out_yaml_seq(&y, true);
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		for (size_t e = 0; shown(m, a) && e <= m->s->n_entries; e++) {
			bool total = e == m->s->n_entries;
			const struct engine_result *r = total ? &m->cl[a].total : cli_multi_used(m, e, a);
			if (!r)
				continue;
			out_yaml_map(&y, true);
			out_yaml_str(&y, "workload", total ? "total" : m->s->entries[e].name);
			for (size_t i = 0; i < nf; i++) {
				out_yaml_key(&y, fields[i].name);
				if (!cli_result_value(i, r, buf, sizeof buf))
					out_yaml_scalar(&y, "null", OUT_YAML_PLAIN);
				else
					out_yaml_scalar(&y, buf, fields[i].kind == CLI_FIELD_STR ? OUT_YAML_TEXT
											: OUT_YAML_PLAIN);
			}
			out_yaml_map(&y, false);
		}
	}
	out_yaml_seq(&y, false);
	out_yaml_map(&y, false);
	return out_yaml_end(&y, NULL) && !ferror(f);
}

static bool write_table(FILE *f, const struct cli_multi *m)
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
			const struct engine_result *r = cli_multi_used(m, e, a);
			if (!r)
				continue;
			char lay[48];
			cli_result_layout(r, m->s->entries[e].w.cls, lay, sizeof lay);
			fprintf(f, "%-4s %-16s %-16.16s %5d %5s %-15s %12s %7s  %s\n", "", "",
				out_inert(m->s->entries[e].name, nb, sizeof nb), r->gpus, "", lay, "", "",
				out_inert(engine_result_why(r, rb, sizeof rb), safe, sizeof safe));
		}
	}
	return !ferror(f);
}

bool cli_multi_recommend(const struct cli_multi *m, enum cli_format fmt, FILE *f, bool *any_fits)
{
	*any_fits = false;
	for (size_t a = 0; a < m->n_accel; a++)
		*any_fits |= shown(m, a) && m->cl[a].total.fits;
	return fmt == CLI_FMT_CSV ? write_csv(f, m) : fmt == CLI_FMT_YAML ? write_yaml(f, m)
									 : write_table(f, m);
}

size_t cli_multi_choose(const struct cli_multi *m)
{
	const struct catalog_accel *only = m->s->entries[0].w.accel;
	if (only)
		return (size_t)(only - m->c->accels);
	for (size_t k = 0; k < m->n_accel; k++) {
		const struct engine_result *t = &m->cl[m->order[k]].total;
		if (t->fits && !t->filtered)
			return m->order[k];
	}
	return m->n_accel;
}

bool cli_multi_validate(const struct cli_multi *m, size_t a, enum cli_format fmt, FILE *f)
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

/* Every entry sized twice (as one of several, and alone: cli_multi.c's
 * opening comment), with the error bands when given. */
static bool size_entries(struct cli_multi *m, const struct accuracy_bands *bands)
{
	for (size_t e = 0; e < m->s->n_entries; e++) {
		struct workload w = m->s->entries[e].w;
		if (!engine_report_init(&m->reps[e], m->c) || !engine_report_init(&m->alone[e], m->c))
			return false;
		w.share_cards = true;
		engine_run(m->c, &w, &m->reps[e]);
		if (w.cls == WL_INFERENCE)
			engine_run(m->c, &m->s->entries[e].w, &m->alone[e]);
		if (bands) {
			accuracy_bands_apply_report(bands, &m->reps[e]);
			accuracy_bands_apply_report(bands, &m->alone[e]);
		}
	}
	return true;
}

bool cli_multi_size(const struct catalog *c, const struct scenario *s,
		    const struct accuracy_bands *bands, struct cli_multi *m)
{
	size_t na = c->n_accels ? c->n_accels : 1, ne = s->n_entries ? s->n_entries : 1;
	*m = (struct cli_multi){ .c = c, .s = s, .n_accel = c->n_accels };
	m->reps = calloc(ne, sizeof *m->reps);
	m->alone = calloc(ne, sizeof *m->alone);
	m->cl = calloc(na, sizeof *m->cl);
	m->items = calloc(na * ne, sizeof *m->items);
	m->entry = calloc(na * ne, sizeof *m->entry);
	m->n_items = calloc(na, sizeof *m->n_items);
	m->order = calloc(na, sizeof *m->order);
	bool ok = m->reps && m->alone && m->cl && m->items && m->entry && m->n_items && m->order &&
		  size_entries(m, bands);
	if (!ok) {
		fprintf(stderr, "accelsizer: out of memory\n");
		return false;
	}
	for (size_t a = 0; a < m->n_accel; a++)
		cluster_of(m, a);
	rank(m);
	return true;
}

void cli_multi_fini(struct cli_multi *m)
{
	for (size_t e = 0; m->s && e < m->s->n_entries; e++) {
		if (m->reps)
			engine_report_fini(&m->reps[e]);
		if (m->alone)
			engine_report_fini(&m->alone[e]);
	}
	free(m->reps);
	free(m->alone);
	free(m->cl);
	free(m->items);
	free(m->entry);
	free(m->n_items);
	free(m->order);
	memset(m, 0, sizeof *m);
}
