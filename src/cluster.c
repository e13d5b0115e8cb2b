/*
 * cluster: a scenario's several workloads sized as one cluster per
 * accelerator (issue 18), for `recommend`, `bom`, `validate` and the
 * wizard alike: each workload over the catalog (engine_run()), then for
 * every accelerator the cluster that holds them all
 * (engine_cluster_size()), ranked by the cluster's capex, those where
 * every workload fits first.
 *
 * Each serving workload is sized twice: as one of several
 * (workload.share_cards: a MIG slice at the same card count, so slices of
 * one profile can share cards) and alone (a slice only when it saves
 * cards); the cluster takes the second where the slices save no card
 * (docs/design.md, "Several workloads on one cluster").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

const struct engine_cluster_item *cluster_item(const struct cluster *m, size_t e, size_t a)
{
	size_t n = m->n_entries;
	for (size_t k = 0; k < m->n_items[a]; k++)
		if (m->entry[a * n + k] == e)
			return &m->items[a * n + k];
	return NULL;
}

const struct engine_result *cluster_used(const struct cluster *m, size_t e, size_t a)
{
	const struct engine_cluster_item *it = cluster_item(m, e, a);
	return it ? it->used : NULL;
}

static void cluster_of(struct cluster *m, size_t a)
{
	size_t n = 0, ne = m->n_entries;
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

/* By capex, as engine_rank's capex objective: a cluster whose GPU has no
 * price cannot win for leaving the GPUs out, so priced ones come first. */
static bool ranks_before(const struct engine_result *x, const struct engine_result *y)
{
	if (group(x) != group(y))
		return group(x) < group(y);
	if (x->accel_priced != y->accel_priced)
		return x->accel_priced;
	return x->capex_usd < y->capex_usd;
}

static void rank(struct cluster *m)
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

size_t cluster_choose(const struct cluster *m)
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

/* Every entry sized twice (as one of several, and alone: cli_multi.c's
 * opening comment), with the error bands when given. */
static bool size_entries(struct cluster *m, const struct accuracy_bands *bands)
{
	for (size_t e = 0; e < m->n_entries; e++) {
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

bool cluster_size(const struct catalog *c, const struct scenario *s,
		    const struct accuracy_bands *bands, struct cluster *m)
{
	size_t na = c->n_accels ? c->n_accels : 1, ne = s->n_entries ? s->n_entries : 1;
	*m = (struct cluster){ .c = c, .s = s, .n_accel = c->n_accels, .n_entries = s->n_entries };
	m->reps = calloc(ne, sizeof *m->reps);
	m->alone = calloc(ne, sizeof *m->alone);
	m->cl = calloc(na, sizeof *m->cl);
	m->items = calloc(na * ne, sizeof *m->items);
	m->entry = calloc(na * ne, sizeof *m->entry);
	m->n_items = calloc(na, sizeof *m->n_items);
	m->order = calloc(na, sizeof *m->order);
	bool ok = m->reps && m->alone && m->cl && m->items && m->entry && m->n_items && m->order &&
		  size_entries(m, bands);
	if (!ok)
		return false;
	for (size_t a = 0; a < m->n_accel; a++)
		cluster_of(m, a);
	rank(m);
	return true;
}

void cluster_fini(struct cluster *m)
{
	for (size_t e = 0; e < m->n_entries; e++) {
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
