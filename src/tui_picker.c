/*
 * tui_picker: the model pick list of step 1.  Typing filters the catalog's
 * models (every word must appear in the id, name or family); the list shows
 * what sizing depends on (parameters, layers, KV heads, context); the last
 * two entries read custom figures from a Hugging Face config.json
 * (hfconfig.h) at a path prompt, or turn the current model into editable
 * custom figures.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hfconfig.h"
#include "tui.h"

#define PICK_MAX 512
#define PICK_PAGE 10	/* rows PgUp/PgDn move */

static bool contains_ci(const char *hay, const char *needle, size_t nlen)
{
	if (!hay)
		return false;
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, nlen))
			return true;
	return false;
}

static bool matches(const struct catalog_model *m, const char *query)
{
	const char *p = query;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			return true;
		size_t n = strcspn(p, " ");
		if (!contains_ci(m->id, p, n) && !contains_ci(m->name, p, n) && !contains_ci(m->family, p, n))
			return false;
		p += n;
	}
}

/* The visible entries: catalog indexes, then a config.json and custom figures. */
enum { PICK_CUSTOM = -1, PICK_CONFIG = -2 };
static int entries(const struct tui *t, int *out, int max)
{
	int n = 0;
	for (size_t i = 0; i < t->cat->n_models && n < max - 2; i++)
		if (matches(&t->cat->models[i], t->picker.search.buf))
			out[n++] = (int)i;
	out[n++] = PICK_CONFIG;
	out[n++] = PICK_CUSTOM;
	return n;
}

void tui_picker_open(struct tui *t)
{
	struct tui_picker_state *P = &t->picker;
	tui_line_set(&P->search, "");
	P->list.focus = 0;
	P->list.top = 0;
	for (size_t i = 0; i < t->cat->n_models; i++)
		if (t->sc.w.model == &t->cat->models[i])
			P->list.focus = (int)i;
	if (t->sc.has_custom)
		P->list.focus = (int)t->cat->n_models + 1;	/* past From config.json... */
	tui_open_overlay(t, &tui_picker_view);
	tui_status(t, false, "Type to filter models; %s picks, %s keeps the current one.", tui_key(ACT_EDIT),
		   tui_key(ACT_BACK));
}

static int choose_model(struct tui *t, const struct catalog_model *m)
{
	struct workload saved = t->sc.w;
	bool saved_custom = t->sc.has_custom;
	t->sc.w.model = m;
	t->sc.has_custom = false;
	char why[256];
	if (!engine_workload_valid(&t->sc.w, why, sizeof why)) {
		t->sc.w = saved;
		t->sc.has_custom = saved_custom;
		tui_status(t, true, "%s refused: %s", m->name, why);
		return TUI_HANDLED;
	}
	tui_status(t, false, "Model: %s.", m->name);
	return TUI_HANDLED | TUI_CHANGED;
}

static int choose_custom(struct tui *t)
{
	/* start from the figures of the model in use, so a variant is one
	 * or two edits away */
	static char id[] = "custom", name[] = "Custom model", family[] = "custom";
	struct catalog_model m;
	if (t->sc.w.model)
		m = *t->sc.w.model;
	else if (t->cat->n_models)
		m = t->cat->models[0];
	else
		memset(&m, 0, sizeof m);
	m.id = id;
	m.name = name;
	m.family = family;
	m.sources = NULL;
	m.n_sources = 0;
	m.file = NULL;
	if (t->sc.has_custom) {
		tui_status(t, false, "Already using custom figures; edit them below the model.");
		return TUI_HANDLED;
	}
	if (!scenario_set_custom_model(&t->sc, &m)) {
		tui_status(t, true, "Out of memory.");
		return TUI_HANDLED;
	}
	tui_status(t, false, "Custom model: edit its figures under Model.");
	return TUI_HANDLED | TUI_CHANGED;
}

int tui_picker_from_config(struct tui *t, const char *path)
{
	struct hfconfig h;
	char err[640], why[256];
	if (!hfconfig_load(path, &h, err, sizeof err)) {
		tui_status(t, true, "Model unchanged: %s", err);
		return TUI_HANDLED;
	}
	/* judged before anything changes, so a refusal keeps the model */
	struct workload w = t->sc.w;
	w.model = &h.m;
	if (!engine_workload_valid(&w, why, sizeof why)) {
		tui_status(t, true, "Model unchanged: %s: %s", path, why);
		return TUI_HANDLED;
	}
	if (!scenario_set_custom_model(&t->sc, &h.m)) {
		tui_status(t, true, "Out of memory.");
		return TUI_HANDLED;
	}
	char p[24];
	tui_status(t, false, "Model: %s, %s parameters counted from its shapes; its figures are under Model.",
		   h.name, tui_fmt_si(p, sizeof p, h.m.params));
	return TUI_HANDLED | TUI_CHANGED;
}

int tui_picker_cycle(struct tui *t, int dir)
{
	size_t n = t->cat->n_models;
	if (!n)
		return TUI_HANDLED;
	long cur = -1;
	for (size_t i = 0; i < n; i++)
		if (t->sc.w.model == &t->cat->models[i])
			cur = (long)i;
	long next = cur < 0 ? 0 : (cur + dir + (long)n) % (long)n;
	return choose_model(t, &t->cat->models[next]);
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	struct tui_list *l = &t->picker.list;
	int list[PICK_MAX];
	int n = entries(t, list, PICK_MAX);

	int x = tui_put(t, win, 0, 0, w, ROLE_header, "Model ");
	x += tui_put(t, win, 0, x, w - x, ROLE_field, "search: ");
	int cx = tui_line_draw(t, win, 0, x, w - x - 1 > 0 ? w - x - 1 : 1, ROLE_field_focus, &t->picker.search);
	int wy, wx;
	getbegyx(win, wy, wx);
	t->cursor_y = wy;
	t->cursor_x = wx + x + cx;

	/* name | params | layers | KV heads | context */
	int name_w = w - 30;
	if (name_w < 12)
		name_w = 12;
	int cx0 = name_w + 1;
	tui_put(t, win, 1, 1, name_w, ROLE_header, "Name");
	tui_put_right(t, win, 1, cx0, 7, ROLE_header, "Params");
	tui_put_right(t, win, 1, cx0 + 7, 7, ROLE_header, "Layers");
	tui_put_right(t, win, 1, cx0 + 14, 5, ROLE_header, "KV");
	tui_put_right(t, win, 1, cx0 + 19, 8, ROLE_header, "Context");

	int rows = h - 2;
	tui_list_clamp(l, n, rows);
	if (rows < 1)
		return;
	for (int i = l->top, y = 2; i < n && y < h; i++, y++) {
		bool foc = i == l->focus;
		enum theme_role r = foc ? ROLE_field_focus : ROLE_field;
		if (foc)
			tui_fill(t, win, y, 0, w, ROLE_field_focus);
		if (list[i] < 0) {
			tui_put(t, win, y, 1, w - 2, foc ? r : ROLE_muted,
				list[i] == PICK_CUSTOM ? "Custom figures (start from the current model)"
						       : "From config.json... (a Hugging Face model's config)");
			continue;
		}
		const struct catalog_model *m = &t->cat->models[list[i]];
		char p[24], ctx[24], num[16];
		bool cur = t->sc.w.model == m && !t->sc.has_custom;
		tui_put(t, win, y, 0, 1, foc ? r : ROLE_selection, cur ? tui_glyph(t, GLYPH_marked) : " ");
		tui_put(t, win, y, 1, name_w - 1, foc ? r : ROLE_value, m->name);
		tui_put_right(t, win, y, cx0, 7, r, tui_fmt_si(p, sizeof p, m->params));
		snprintf(num, sizeof num, "%d", m->layers);
		tui_put_right(t, win, y, cx0 + 7, 7, r, num);
		snprintf(num, sizeof num, "%d", m->kv_heads);
		tui_put_right(t, win, y, cx0 + 14, 5, r, num);
		tui_put_right(t, win, y, cx0 + 19, 8, r, tui_fmt_si(ctx, sizeof ctx, (double)m->max_context));
	}
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	struct tui_list *l = &t->picker.list;
	int list[PICK_MAX];
	int n = entries(t, list, PICK_MAX);

	/* the list takes the cursor keys by their keys, not their actions:
	 * n, p and the digits are text for the filter here */
	enum tui_list_move m = ch == KEY_UP ? LIST_UP
			     : ch == KEY_DOWN || ch == '\t' ? LIST_DOWN
			     : ch == KEY_PPAGE ? LIST_PAGE_UP
			     : ch == KEY_NPAGE ? LIST_PAGE_DOWN : LIST_NONE;
	if (m != LIST_NONE) {
		tui_list_move(l, m, n, PICK_PAGE);
		return TUI_HANDLED;
	}
	(void)a;
	switch (tui_line_key(&t->picker.search, ch)) {
	case LINE_COMMIT: {
		int i = l->focus >= 0 && l->focus < n ? list[l->focus] : PICK_CUSTOM;
		tui_close_overlay(t);
		if (i == PICK_CONFIG) {
			tui_prompt_start(t, PROMPT_MODEL_CONFIG, "./");
			return TUI_HANDLED;
		}
		return i < 0 ? choose_custom(t) : choose_model(t, &t->cat->models[i]);
	}
	case LINE_CANCEL:
		tui_close_overlay(t);
		tui_status(t, false, "Model unchanged.");
		return TUI_HANDLED;
	case LINE_EDITING:
		l->focus = 0;	/* the filter changed: best match first */
		l->top = 0;
		return TUI_HANDLED;
	default:
		/* F1 and the like fall through to the loop; the rest is ignored */
		return ch == KEY_F(1) || ch == TUI_CTRL('l') ? TUI_UNHANDLED : TUI_HANDLED;
	}
}

const struct tui_step tui_picker_view = {
	.name = "Model",
	.draw = draw,
	.key = key,
};
