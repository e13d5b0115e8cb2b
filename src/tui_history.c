/*
 * tui_history: the pin (key a) and the undo stack (key u) of the wizard.
 * Both keep workload states (struct tui_snapshot): the workload with its
 * custom model copied in, so a state stays whole whatever happens to the
 * scenario after it (another custom model, another file opened).  The loop
 * (tui.c) pushes the state before every key that changed the workload; an
 * undo restores it and re-runs the engine.  The pin keeps the chosen (or
 * top-ranked) accelerator's result as it was, for tui_pin_view
 * (tui_compare.c) to set beside the current one.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui.h"

void tui_snapshot_take(const struct tui *t, struct tui_snapshot *s)
{
	s->w = t->sc.w;
	s->has_custom = t->sc.has_custom;
	s->custom = t->sc.custom;
	const struct catalog_model *m = &t->sc.custom;
	snprintf(s->custom_id, sizeof s->custom_id, "%s", s->has_custom && m->id ? m->id : "");
	snprintf(s->custom_name, sizeof s->custom_name, "%s", s->has_custom && m->name ? m->name : "");
	snprintf(s->custom_family, sizeof s->custom_family, "%s",
		 s->has_custom && m->family ? m->family : "");
	s->custom.id = s->custom_id;
	s->custom.name = s->custom_name;
	s->custom.family = s->custom_family;
	s->custom.sources = NULL;
	s->custom.n_sources = 0;
	s->custom.file = NULL;
	if (s->has_custom)
		s->w.model = &s->custom;
	s->n_entries = t->sc.n_entries;
	s->share = tui_wl_multi(t) ? t->sc.entries[t->workload.current].share : 1;
	s->share_gpus = t->sc.share_gpus;
}

void tui_snapshot_restore(struct tui *t, const struct tui_snapshot *s)
{
	const struct catalog_model *model = s->w.model;
	t->sc.w = s->w;
	if (s->has_custom) {
		/* scenario_set_custom_model() copies the texts and points
		 * w.model at the scenario's own copy */
		if (!scenario_set_custom_model(&t->sc, &s->custom))
			tui_status(t, true, "Out of memory; the custom model was not restored.");
	} else {
		t->sc.has_custom = false;
		t->sc.w.model = model;
	}
	if (tui_wl_multi(t) && s->n_entries == t->sc.n_entries) {
		t->sc.entries[t->workload.current].share = s->share;
		t->sc.share_gpus = s->share_gpus;
	}
}

void tui_undo_push(struct tui *t, const struct tui_snapshot *s)
{
	struct tui_history *h = &t->history;
	h->undo[h->undo_next] = *s;
	if (s->has_custom)
		h->undo[h->undo_next].w.model = &h->undo[h->undo_next].custom;
	h->undo[h->undo_next].custom.id = h->undo[h->undo_next].custom_id;
	h->undo[h->undo_next].custom.name = h->undo[h->undo_next].custom_name;
	h->undo[h->undo_next].custom.family = h->undo[h->undo_next].custom_family;
	h->undo_next = (h->undo_next + 1) % TUI_UNDO_MAX;
	if (h->n_undo < TUI_UNDO_MAX)
		h->n_undo++;
}

void tui_undo_clear(struct tui *t)
{
	t->history.n_undo = 0;
}

int tui_undo(struct tui *t)
{
	struct tui_history *h = &t->history;
	if (!h->n_undo) {
		tui_status(t, false, "Nothing to undo.");
		return TUI_HANDLED;
	}
	h->undo_next = (h->undo_next + TUI_UNDO_MAX - 1) % TUI_UNDO_MAX;
	h->n_undo--;
	tui_snapshot_restore(t, &h->undo[h->undo_next]);
	if (h->n_undo)
		tui_status(t, false, "Undid the last change (%d more to undo).", h->n_undo);
	else
		tui_status(t, false, "Undid the last change; this is where the session started.");
	return TUI_HANDLED | TUI_CHANGED | TUI_UNDONE;
}

int tui_pin(struct tui *t)
{
	struct tui_history *h = &t->history;
	tui_snapshot_take(t, &h->pin);
	const struct engine_result *r = tui_chosen(t);
	h->pin_has_result = r != NULL;
	if (r)
		h->pin_result = *r;
	h->pinned = true;
	char usd[48], fig[48];
	if (r && r->fits)
		tui_status(t, false, "Pinned: %s on %d x %s, %s. Change inputs; %s compares, %s undoes.",
			   t->sc.w.model ? t->sc.w.model->name : "no model", r->gpus,
			   tui_accel_short(r->accel),
			   tui_fmt_priced(t, r, tui_fmt_usd(fig, sizeof fig, r->capex_usd, r->currency), usd, sizeof usd),
			   tui_key(ACT_PIN), tui_key(ACT_UNDO));
	else
		tui_status(t, false, "Pinned this scenario. Change inputs; %s compares, %s undoes.",
			   tui_key(ACT_PIN), tui_key(ACT_UNDO));
	return TUI_HANDLED;
}
