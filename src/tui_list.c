/*
 * tui_list: the one helper behind every table and scrolled view of the
 * wizard (the step 2 and 3 tables, the forms of steps 1 and 4, the model
 * pick list, the BOM preview, help, compare, the side panel).  A view keeps
 * a struct tui_list in its own state; its key handler moves it and its draw
 * clamps it to the rows it has and shows, so a list can neither scroll past
 * its end nor lose its cursor (docs/design.md, "A wizard step or overlay").
 */
#include "config.h"

#include "tui.h"

enum tui_list_move tui_list_move_of(enum tui_action a, int page)
{
	switch (a) {
	case ACT_UP: return LIST_UP;
	case ACT_DOWN: return LIST_DOWN;
	case ACT_HOME: return LIST_HOME;
	case ACT_END: return LIST_END;
	/* PgUp/PgDn change steps unless the view pages with them */
	case ACT_PREV_STEP: return page > 0 ? LIST_PAGE_UP : LIST_NONE;
	case ACT_NEXT_STEP: return page > 0 ? LIST_PAGE_DOWN : LIST_NONE;
	default: return LIST_NONE;
	}
}

static bool can_focus(const struct tui_list_rows *r, int i)
{
	return !r->ok || r->ok(r->ctx, i);
}

/* The nearest row from `from` in direction dir (+1/-1) the cursor may
 * rest on, `from` itself included; -1 when there is none. */
static int nearest(const struct tui_list_rows *r, int from, int dir)
{
	for (int i = from; i >= 0 && i < r->n; i += dir)
		if (can_focus(r, i))
			return i;
	return -1;
}

/* `count` rows the cursor may rest on away from focus, or as far as
 * there are. */
static int step_by(const struct tui_list_rows *r, int focus, int dir, int count)
{
	int at = focus;
	for (int k = 0; k < count; k++) {
		int next = nearest(r, at + dir, dir);
		if (next < 0)
			break;
		at = next;
	}
	return at;
}

void tui_list_move_rows(struct tui_list *l, enum tui_list_move m, const struct tui_list_rows *r,
			int page)
{
	int to = -1;
	switch (m) {
	case LIST_NONE: return;
	case LIST_UP: to = step_by(r, l->focus, -1, 1); break;
	case LIST_DOWN: to = step_by(r, l->focus, +1, 1); break;
	case LIST_PAGE_UP: to = step_by(r, l->focus, -1, page); break;
	case LIST_PAGE_DOWN: to = step_by(r, l->focus, +1, page); break;
	case LIST_HOME: to = nearest(r, 0, +1); break;
	case LIST_END: to = nearest(r, r->n - 1, -1); break;
	}
	if (to >= 0)
		l->focus = to;
}

void tui_list_move(struct tui_list *l, enum tui_list_move m, int n, int page)
{
	const struct tui_list_rows r = { .n = n };
	tui_list_move_rows(l, m, &r, page);
}

void tui_list_scroll(struct tui_list *l, enum tui_list_move m, int n, int page)
{
	/* the top moves freely down: the draw clamps it to the rows shown */
	switch (m) {
	case LIST_NONE: return;
	case LIST_UP: if (l->top > 0) l->top--; return;
	case LIST_DOWN: l->top++; return;
	case LIST_PAGE_UP: l->top = l->top > page ? l->top - page : 0; return;
	case LIST_PAGE_DOWN: l->top += page; return;
	case LIST_HOME: l->top = 0; return;
	case LIST_END: l->top = n; return;
	}
}

bool tui_list_key(struct tui_list *l, enum tui_action a, int n, int page)
{
	enum tui_list_move m = tui_list_move_of(a, page);
	tui_list_move(l, m, n, page);
	return m != LIST_NONE;
}

bool tui_list_scroll_key(struct tui_list *l, enum tui_action a, int n, int page)
{
	enum tui_list_move m = tui_list_move_of(a, page);
	tui_list_scroll(l, m, n, page);
	return m != LIST_NONE;
}

void tui_list_clamp_top(struct tui_list *l, int n, int rows)
{
	if (rows < 1)
		rows = 1;
	if (l->top > n - rows)
		l->top = n - rows > 0 ? n - rows : 0;
	if (l->top < 0)
		l->top = 0;
}

void tui_list_clamp(struct tui_list *l, int n, int rows)
{
	if (rows < 1)
		rows = 1;
	if (l->focus >= n)
		l->focus = n - 1;
	if (l->focus < 0)
		l->focus = 0;
	if (l->focus < l->top)
		l->top = l->focus;
	if (l->focus >= l->top + rows)
		l->top = l->focus - rows + 1;
	tui_list_clamp_top(l, n, rows);
}

void tui_list_marks(struct tui *t, WINDOW *win, const struct tui_list *l, int rows, int n, int y_up,
		    int y_down, int x)
{
	if (l->top > 0)
		tui_put(t, win, y_up, x, 1, ROLE_muted, tui_glyph(t, GLYPH_scroll_up));
	if (l->top + rows < n)
		tui_put(t, win, y_down, x, 1, ROLE_muted, tui_glyph(t, GLYPH_scroll_down));
}
