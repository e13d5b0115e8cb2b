/*
 * cli_multi: recommend for a scenario with several workloads (issue 18):
 * each workload is sized over the catalog, then for every accelerator the
 * cluster that holds them all (engine_cluster_size()); accelerators are
 * ranked by the cluster's capex, those where every workload fits first.
 * CSV and YAML carry one record per workload and accelerator, column
 * `workload` with its name, then the cluster's record (`workload` =
 * `total`); the columns after `workload` are the one result table of
 * cli_report.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_multi.h"
#include "cli_report.h"
#include "out.h"
#include "prices.h"

struct multi {
	const struct catalog *c;
	const struct scenario *s;
	struct engine_report *reps;	/* one per entry */
	struct engine_cluster *cl;	/* one per accelerator, catalog order */
	size_t *order;			/* accelerators, ranked */
	size_t n_accel;
};

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
	return true;
}

static const struct engine_result *result_of(const struct multi *m, size_t e, size_t a)
{
	return engine_report_find(&m->reps[e], &m->c->accels[a]);
}

static void cluster_of(struct multi *m, size_t a)
{
	struct engine_cluster_item items[SCENARIO_MAX_WORKLOADS];
	size_t n = 0;
	for (size_t e = 0; e < m->s->n_entries; e++) {
		const struct engine_result *r = result_of(m, e, a);
		if (!r)
			continue;
		items[n].r = r;
		items[n].share = m->s->entries[e].share;
		n++;
	}
	struct engine_cluster *cl = &m->cl[a];
	engine_cluster_size(m->c, &m->s->entries[0].w, items, n, m->s->share_gpus, cl);
	struct engine_result *t = &cl->total;
	if (n)
		t->precision_used = items[0].r->precision_used;
	for (size_t i = 0; i < n; i++)
		if (items[i].r->filtered)
			t->filtered = true;
	if (cl->time_shared)
		snprintf(t->reason, sizeof t->reason,
			 "training time-shares %d of the %d serving GPUs: %.1f%% of serving capacity a week",
			 cl->training_gpus < cl->serving_gpus ? cl->training_gpus : cl->serving_gpus,
			 cl->serving_gpus, cl->serving_headroom_pct);
	else if (cl->training_gpus)
		snprintf(t->reason, sizeof t->reason, "%d GPUs serve, %d more train on their own",
			 cl->serving_gpus, cl->training_gpus);
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

static void rank(struct multi *m)
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
static bool shown(const struct multi *m, size_t a)
{
	const struct catalog_accel *only = m->s->entries[0].w.accel;
	return !only || only == &m->c->accels[a];
}

static bool write_csv(FILE *f, const struct multi *m)
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
	out_csv_end(&o);
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		for (size_t e = 0; shown(m, a) && e <= m->s->n_entries; e++) {
			bool total = e == m->s->n_entries;
			const struct engine_result *r = total ? &m->cl[a].total : result_of(m, e, a);
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

static bool write_yaml(FILE *f, const struct multi *m)
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
			const struct engine_result *r = total ? &m->cl[a].total : result_of(m, e, a);
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
			out_yaml_map(&y, false);
		}
	}
	out_yaml_seq(&y, false);
	out_yaml_map(&y, false);
	return out_yaml_end(&y, NULL) && !ferror(f);
}

static bool write_table(FILE *f, const struct multi *m)
{
	char nb[256];
	fprintf(f, "%zu workloads on one cluster%s:", m->s->n_entries,
		m->s->share_gpus ? " (training may time-share serving GPUs)" : "");
	for (size_t e = 0; e < m->s->n_entries; e++)
		fprintf(f, "%s %s", e ? "," : "", out_inert(m->s->entries[e].name, nb, sizeof nb));
	fputs("\n\n", f);
	fprintf(f, "%-4s %-16s %-16s %5s %5s %-13s %12s %7s  %s\n", "rank", "accelerator", "workload",
		"gpus", "nodes", "layout", "capex", "kW", "why");
	for (size_t k = 0; k < m->n_accel; k++) {
		size_t a = m->order[k];
		if (!shown(m, a))
			continue;
		const struct engine_result *t = &m->cl[a].total;
		char rk[8], rb[ENGINE_REASON_MAX], safe[400];
		snprintf(rk, sizeof rk, t->fits ? (t->filtered ? "(%d)" : "%d") : "no", t->rank);
		fprintf(f, "%-4s %-16s %-16s %5d %5d %-13s %12.0f %7.1f  %s\n", rk, m->c->accels[a].id, "total",
			t->gpus, t->nodes, "-", t->capex_usd, t->power_kw, t->reason);
		for (size_t e = 0; e < m->s->n_entries; e++) {
			const struct engine_result *r = result_of(m, e, a);
			if (!r)
				continue;
			char lay[48];
			if (r->cls != WL_INFERENCE)
				snprintf(lay, sizeof lay, "TP%d PP%d DP%d", r->tp, r->pp, r->dp);
			else if (r->partition)
				snprintf(lay, sizeof lay, "%dx %s", r->replicas, r->partition->profile);
			else
				snprintf(lay, sizeof lay, "%dx TP%d", r->replicas, r->tp);
			fprintf(f, "%-4s %-16s %-16.16s %5d %5s %-13s %12s %7s  %s\n", "", "",
				out_inert(m->s->entries[e].name, nb, sizeof nb), r->gpus, "", lay, "", "",
				out_inert(engine_result_why(r, rb, sizeof rb), safe, sizeof safe));
		}
	}
	return !ferror(f);
}

bool cli_multi_recommend(const struct catalog *c, const struct scenario *s, enum cli_format fmt,
			FILE *f, bool *any_fits)
{
	struct multi m = { .c = c, .s = s, .n_accel = c->n_accels };
	m.reps = calloc(s->n_entries, sizeof *m.reps);
	m.cl = calloc(m.n_accel ? m.n_accel : 1, sizeof *m.cl);
	m.order = calloc(m.n_accel ? m.n_accel : 1, sizeof *m.order);
	bool ok = m.reps && m.cl && m.order;
	for (size_t e = 0; ok && e < s->n_entries; e++) {
		ok = engine_report_init(&m.reps[e], c);
		if (ok)
			engine_run(c, &s->entries[e].w, &m.reps[e]);
	}
	if (ok) {
		for (size_t a = 0; a < m.n_accel; a++)
			cluster_of(&m, a);
		rank(&m);
		*any_fits = false;
		for (size_t a = 0; a < m.n_accel; a++)
			*any_fits |= shown(&m, a) && m.cl[a].total.fits;
		ok = fmt == CLI_FMT_CSV ? write_csv(f, &m) : fmt == CLI_FMT_YAML ? write_yaml(f, &m)
										  : write_table(f, &m);
	} else {
		fprintf(stderr, "accelsizer: out of memory\n");
	}
	for (size_t e = 0; m.reps && e < s->n_entries; e++)
		engine_report_fini(&m.reps[e]);
	free(m.reps);
	free(m.cl);
	free(m.order);
	return ok;
}
