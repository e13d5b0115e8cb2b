/*
 * tui_workloads: a scenario's several workloads in the wizard (issue 18).
 *
 * While the scenario holds a list (sc.n_entries > 1) the workload on
 * screen, sc.w, is the edited copy of entry workload.current (step 1's
 * state): every change goes back into the list (tui_wl_store()) with the
 * settings they all share (filters,
 * objective, accelerator, node, costs), and the cluster of every
 * accelerator is sized again (cluster.c, as `recommend --scenario` does),
 * so steps 2 to 5 and the panel show the same totals as the CLI.  A list
 * of one is that workload (as the scenario loader reads it), so removing
 * the last but one goes back to a plain scenario.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

bool tui_wl_multi(const struct tui *t)
{
	return t->sc.n_entries > 1;
}

void tui_wl_store(struct tui *t)
{
	if (!tui_wl_multi(t))
		return;
	t->sc.entries[t->workload.current].w = t->sc.w;
	scenario_share_settings(&t->sc);
}

void tui_wl_refresh(struct tui *t)
{
	if (t->cl_sized)
		cluster_fini(&t->cl);
	t->cl_sized = false;
	if (!tui_wl_multi(t))
		return;
	if (t->workload.current >= t->sc.n_entries)
		t->workload.current = 0;
	tui_wl_store(t);
	t->cl_sized = cluster_size(t->cat, &t->sc, t->bands, &t->cl);
	if (!t->cl_sized)
		cluster_fini(&t->cl);
}

/* Serving runs always: an entry turned to inference loses its hours of the
 * week (the loader refuses hours_per_week on serving). */
void tui_wl_class_changed(struct tui *t)
{
	if (tui_wl_multi(t) && t->sc.w.cls == WL_INFERENCE)
		t->sc.entries[t->workload.current].share = 1;
}

const char *tui_wl_share_gpus_name(int v)
{
	return v ? "shared with serving" : "own GPUs";
}

void tui_wl_fini(struct tui *t)
{
	if (t->cl_sized)
		cluster_fini(&t->cl);
	t->cl_sized = false;
}

void tui_wl_plan(struct tui *t)
{
	memset(&t->cl_plan, 0, sizeof t->cl_plan);
	const struct engine_result *r = tui_chosen(t);
	const struct engine_cluster *cl = r ? tui_wl_cluster(t, r->accel) : NULL;
	if (!cl)
		return;
	size_t a = (size_t)(r->accel - t->cat->accels);
	engine_cluster_plan(t->cat, &t->cl.items[a * t->cl.n_entries], t->cl.n_items[a], cl, &t->cl_plan);
}

const struct engine_cluster *tui_wl_cluster(const struct tui *t, const struct catalog_accel *a)
{
	if (!t->cl_sized || !a)
		return NULL;
	size_t i = (size_t)(a - t->cat->accels);
	return i < t->cl.n_accel ? &t->cl.cl[i] : NULL;
}

/* ---- texts ---- */

void tui_wl_list(const struct tui *t, char *buf, size_t n)
{
	if (!tui_wl_multi(t)) {
		snprintf(buf, n, "one (%s adds another to size them on one cluster)", tui_key(ACT_WL_ADD));
		return;
	}
	size_t used = 0;
	buf[0] = '\0';
	for (size_t e = 0; e < t->sc.n_entries && used + 1 < n; e++) {
		bool cur = e == t->workload.current;
		int k = snprintf(buf + used, n - used, "%s%s%s%s", e ? " " : "", cur ? "[" : "",
				 t->sc.entries[e].name, cur ? "]" : "");
		if (k < 0)
			break;
		used += (size_t)k < n - used ? (size_t)k : n - used - 1;
	}
}

void tui_wl_editing(const struct tui *t, char *buf, size_t n)
{
	snprintf(buf, n, "%s, %zu of %zu (%s switches, %s renames, %s removes)",
		 t->sc.entries[t->workload.current].name, t->workload.current + 1, t->sc.n_entries,
		 tui_key(ACT_WL_NEXT), tui_key(ACT_WL_RENAME), tui_key(ACT_WL_REMOVE));
}

/* "chat: 2 GPUs as 1x TP2"; "small: 4 x 1g.20gb slices on 1 GPU". */
bool tui_wl_share(const struct tui *t, size_t e, const struct catalog_accel *a, char *buf, size_t n)
{
	if (!t->cl_sized || e >= t->sc.n_entries || !a)
		return false;
	const struct scenario_entry *se = &t->sc.entries[e];
	const struct engine_result *r = cluster_used(&t->cl, e, (size_t)(a - t->cat->accels));
	if (!r) {
		snprintf(buf, n, "%s: not sized", se->name);
	} else if (!r->fits) {
		char rb[ENGINE_REASON_MAX];
		snprintf(buf, n, "%s: does not fit: %s", se->name, engine_result_why(r, rb, sizeof rb));
	} else if (r->partition) {
		snprintf(buf, n, "%s: %d x %s MIG slice%s on %d GPU%s (%d a card)", se->name, r->replicas,
			 r->partition->profile, r->replicas == 1 ? "" : "s", r->gpus, r->gpus == 1 ? "" : "s",
			 r->partitions_per_gpu);
	} else {
		char lay[48];
		engine_result_layout(r, se->w.cls, lay, sizeof lay);
		snprintf(buf, n, "%s: %d GPU%s as %s", se->name, r->gpus, r->gpus == 1 ? "" : "s", lay);
	}
	return true;
}

bool tui_wl_total(const struct tui *t, const struct catalog_accel *a, char *buf, size_t n)
{
	const struct engine_cluster *cl = tui_wl_cluster(t, a);
	if (!cl)
		return false;
	const struct engine_result *r = &cl->total;
	if (!cl->fits) {
		snprintf(buf, n, "not every workload fits %s", a->id);
		return true;
	}
	char c[48], kw[32];
	snprintf(buf, n, "%d GPU%s, %d node%s, %s, %s kW: %s", r->gpus, r->gpus == 1 ? "" : "s", r->nodes,
		 r->nodes == 1 ? "" : "s", tui_fmt_usd_cents(c, sizeof c, r->capex_usd, r->currency),
		 tui_fmt_kw(kw, sizeof kw, r->power_kw), r->reason);
	return true;
}

/* ---- keys ---- */

static bool name_used(const struct tui *t, const char *name, size_t except)
{
	for (size_t e = 0; e < t->sc.n_entries; e++)
		if (e != except && !strcmp(t->sc.entries[e].name, name))
			return true;
	return false;
}

static char *new_name(const struct tui *t, size_t count)
{
	char name[32];
	for (size_t k = count;; k++) {
		snprintf(name, sizeof name, "workload-%zu", k);
		if (!name_used(t, name, SIZE_MAX))
			return strdup(name);
	}
}

/* A plain scenario becomes a list of one, named, before a second joins. */
static bool make_list(struct tui *t)
{
	struct scenario_entry *es = calloc(1, sizeof *es);
	char *name = strdup("workload-1");
	if (!es || !name) {
		free(es);
		free(name);
		return false;
	}
	es[0] = (struct scenario_entry){ .name = name, .w = t->sc.w, .share = 1 };
	t->sc.entries = es;
	t->sc.n_entries = 1;
	t->workload.current = 0;
	return true;
}

static int add(struct tui *t)
{
	if (t->sc.has_custom && t->sc.w.model == &t->sc.custom) {
		tui_status(t, true, "A list of workloads takes catalog models: pick one for this workload first.");
		return TUI_HANDLED;
	}
	if (t->sc.n_entries >= SCENARIO_MAX_WORKLOADS) {
		tui_status(t, true, "A scenario holds at most %d workloads.", SCENARIO_MAX_WORKLOADS);
		return TUI_HANDLED;
	}
	tui_wl_store(t);
	if (t->sc.n_entries == 0 && !make_list(t))
		goto oom;
	size_t n = t->sc.n_entries;
	struct scenario_entry *es = realloc(t->sc.entries, (n + 1) * sizeof *es);
	if (!es)
		goto oom;
	t->sc.entries = es;
	char *name = new_name(t, n + 1);
	if (!name)
		goto oom;
	es[n] = (struct scenario_entry){ .name = name, .w = es[t->workload.current].w, .share = es[t->workload.current].share };
	const char *from = es[t->workload.current].name;
	t->sc.n_entries = n + 1;
	t->workload.current = n;
	t->sc.w = es[n].w;
	tui_status(t, false, "Added %s, a copy of %s: set its model and load; %s switches, %s renames.",
		   name, from, tui_key(ACT_WL_NEXT), tui_key(ACT_WL_RENAME));
	return TUI_HANDLED | TUI_CHANGED;
oom:
	if (t->sc.n_entries == 1) {
		free(t->sc.entries[0].name);
		free(t->sc.entries);
		t->sc.entries = NULL;
		t->sc.n_entries = 0;
	}
	tui_status(t, true, "Out of memory: no workload added.");
	return TUI_HANDLED;
}

static int remove_current(struct tui *t)
{
	if (!tui_wl_multi(t)) {
		tui_status(t, false, "The scenario holds one workload: there is none to remove.");
		return TUI_HANDLED;
	}
	struct scenario *s = &t->sc;
	char gone[64];
	snprintf(gone, sizeof gone, "%s", s->entries[t->workload.current].name);
	free(s->entries[t->workload.current].name);
	memmove(&s->entries[t->workload.current], &s->entries[t->workload.current + 1],
		(s->n_entries - t->workload.current - 1) * sizeof *s->entries);
	s->n_entries--;
	if (t->workload.current >= s->n_entries)
		t->workload.current = s->n_entries - 1;
	s->w = s->entries[t->workload.current].w;
	if (s->n_entries == 1) {
		/* a list of one is that workload: its name goes with the list */
		free(s->entries[0].name);
		free(s->entries);
		s->entries = NULL;
		s->n_entries = 0;
		t->workload.current = 0;
		tui_status(t, false, "Removed %s: one workload left.", gone);
	} else {
		tui_status(t, false, "Removed %s: %zu workloads left, this is %s.", gone, s->n_entries,
			   s->entries[t->workload.current].name);
	}
	return TUI_HANDLED | TUI_CHANGED;
}

static int next(struct tui *t)
{
	if (!tui_wl_multi(t)) {
		tui_status(t, false, "The scenario holds one workload: %s adds another.", tui_key(ACT_WL_ADD));
		return TUI_HANDLED;
	}
	tui_wl_store(t);
	t->workload.current = (t->workload.current + 1) % t->sc.n_entries;
	t->sc.w = t->sc.entries[t->workload.current].w;
	tui_status(t, false, "Workload %zu of %zu: %s.", t->workload.current + 1, t->sc.n_entries,
		   t->sc.entries[t->workload.current].name);
	/* switching changes what is shown, not the scenario: not unsaved */
	tui_recompute(t);
	return TUI_HANDLED;
}

int tui_wl_action(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_WL_NEXT:
		return next(t);
	case ACT_WL_ADD:
		return add(t);
	case ACT_WL_REMOVE:
		return remove_current(t);
	case ACT_WL_RENAME:
		if (!tui_wl_multi(t)) {
			tui_status(t, false, "One workload needs no name: %s adds a second, and each gets one.",
				   tui_key(ACT_WL_ADD));
			return TUI_HANDLED;
		}
		tui_prompt_start(t, PROMPT_RENAME, t->sc.entries[t->workload.current].name);
		return TUI_HANDLED;
	default:
		return TUI_UNHANDLED;
	}
}

int tui_wl_rename(struct tui *t, const char *name)
{
	if (!tui_wl_multi(t))
		return TUI_HANDLED;
	if (!name[0] || !strcmp(name, "total")) {
		tui_status(t, true, "A workload's name is text other than 'total' (the cluster's row).");
		return TUI_HANDLED;
	}
	if (name_used(t, name, t->workload.current)) {
		tui_status(t, true, "Another workload is called %s already.", name);
		return TUI_HANDLED;
	}
	char *copy = strdup(name);
	if (!copy) {
		tui_status(t, true, "Out of memory: not renamed.");
		return TUI_HANDLED;
	}
	free(t->sc.entries[t->workload.current].name);
	t->sc.entries[t->workload.current].name = copy;
	t->dirty = true;
	tui_recompute(t);	/* the clusters name their workloads */
	tui_status(t, false, "Renamed to %s.", copy);
	return TUI_HANDLED;
}
