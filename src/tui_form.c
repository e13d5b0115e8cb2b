/*
 * tui_form: forms made of field descriptors (step 1's workload, step 4's
 * overrides) and the one-line editor they, the pick list and the path
 * prompts share.
 *
 * A field says where its value lives (offset into the workload or the
 * custom model), how it is shown (scale, "none"/"auto"/"max"), what range
 * is accepted and how +/- steps it.  A typed value is checked twice: the
 * field's range, then engine_workload_valid() on the whole workload; a
 * refused value leaves the old one in place and says why on the status line.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui.h"

/* ---- the line editor ---- */

void tui_line_set(struct tui_line *l, const char *s)
{
	snprintf(l->buf, sizeof l->buf, "%s", s ? s : "");
	l->len = (int)strlen(l->buf);
	l->cur = l->len;
	l->selected = false;
}

void tui_line_set_selected(struct tui_line *l, const char *s)
{
	tui_line_set(l, s);
	l->selected = l->len > 0;
}

static bool printable_key(int ch)
{
	return (ch >= 0x20 && ch < 0x7f) || (ch >= 0x80 && ch <= 0xff);
}

static bool cont_byte(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

enum tui_line_result tui_line_key(struct tui_line *l, int ch)
{
	/* Typing over a selection replaces it (what every text field does);
	 * any other key keeps the text and edits it from the cursor. */
	if (l->selected) {
		l->selected = false;
		if (printable_key(ch)) {
			l->buf[0] = '\0';
			l->len = l->cur = 0;
		}
	}
	switch (ch) {
	case '\n': case '\r': case KEY_ENTER:
		return LINE_COMMIT;
	case TUI_KEY_ESC:
		return LINE_CANCEL;
	case KEY_BACKSPACE: case 127: case 8:
		if (l->cur > 0) {
			int from = l->cur - 1;
			while (from > 0 && cont_byte(l->buf[from]))
				from--;
			memmove(l->buf + from, l->buf + l->cur, (size_t)(l->len - l->cur + 1));
			l->len -= l->cur - from;
			l->cur = from;
		}
		return LINE_EDITING;
	case KEY_DC: case TUI_CTRL('d'):
		if (l->cur < l->len) {
			int to = l->cur + 1;
			while (to < l->len && cont_byte(l->buf[to]))
				to++;
			memmove(l->buf + l->cur, l->buf + to, (size_t)(l->len - to + 1));
			l->len -= to - l->cur;
		}
		return LINE_EDITING;
	case KEY_LEFT: case TUI_CTRL('b'):
		while (l->cur > 0 && cont_byte(l->buf[--l->cur]))
			;
		return LINE_EDITING;
	case KEY_RIGHT: case TUI_CTRL('f'):
		if (l->cur < l->len)
			for (l->cur++; l->cur < l->len && cont_byte(l->buf[l->cur]); l->cur++)
				;
		return LINE_EDITING;
	case KEY_HOME: case TUI_CTRL('a'):
		l->cur = 0;
		return LINE_EDITING;
	case KEY_END: case TUI_CTRL('e'):
		l->cur = l->len;
		return LINE_EDITING;
	case TUI_CTRL('u'):
		memmove(l->buf, l->buf + l->cur, (size_t)(l->len - l->cur + 1));
		l->len -= l->cur;
		l->cur = 0;
		return LINE_EDITING;
	case TUI_CTRL('k'):
		l->buf[l->cur] = '\0';
		l->len = l->cur;
		return LINE_EDITING;
	default:
		/* printable ASCII, and the bytes of UTF-8 text as they arrive */
		if (printable_key(ch)) {
			if (l->len + 1 >= (int)sizeof l->buf)
				return LINE_EDITING;
			memmove(l->buf + l->cur + 1, l->buf + l->cur, (size_t)(l->len - l->cur + 1));
			l->buf[l->cur++] = (char)ch;
			l->len++;
			return LINE_EDITING;
		}
		return LINE_IGNORED;
	}
}

int tui_line_draw(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role r,
		  const struct tui_line *l)
{
	if (w <= 1)
		return 0;
	/* scroll so that the cursor stays inside the field */
	int start = 0;
	char head[TUI_LINE_MAX];
	for (;;) {
		int n = l->cur - start;
		memcpy(head, l->buf + start, (size_t)n);
		head[n] = '\0';
		if (tui_width(head) < w)
			break;
		start++;
		while (start < l->cur && cont_byte(l->buf[start]))
			start++;
	}
	tui_fill(t, win, y, x, w, r);
	int used = tui_put(t, win, y, x, w, r, l->buf + start);
	if (l->selected && used > 0) {
		attr_t a = tui_role(t, r);
		mvwchgat(win, y, x, used, (a & ~A_COLOR) | A_REVERSE, (short)PAIR_NUMBER(a), NULL);
	}
	return tui_width(head);
}

/* ---- field storage ---- */

static void *field_ptr(struct tui *t, const struct tui_field *f)
{
	char *base = f->base == FB_MODEL ? (char *)&t->sc.custom
		   : f->base == FB_SCENARIO ? (char *)&t->sc
		   : f->base == FB_ENTRY ? (char *)&t->sc.entries[t->workload.current]
		   : (char *)&t->sc.w;
	return base + f->offset;
}

static double field_get(const struct tui *t, const struct tui_field *f)
{
	const void *p = field_ptr((struct tui *)t, f);
	switch (f->store) {
	case FS_LONG: return (double)*(const long *)p;
	case FS_INT: return (double)*(const int *)p;
	case FS_DOUBLE: return *(const double *)p;
	case FS_ENUM: { int v; memcpy(&v, p, sizeof v); return v; }
	case FS_BOOL: return *(const bool *)p;
	}
	return 0;
}

static void field_put(struct tui *t, const struct tui_field *f, double v)
{
	void *p = field_ptr(t, f);
	switch (f->store) {
	case FS_LONG: *(long *)p = (long)llround(v); break;
	case FS_INT: *(int *)p = (int)lround(v); break;
	case FS_DOUBLE: *(double *)p = v; break;
	case FS_ENUM: { int i = (int)lround(v); memcpy(p, &i, sizeof i); break; }
	case FS_BOOL: *(bool *)p = v != 0; break;
	}
}

_Static_assert(sizeof(enum precision) == sizeof(int), "enum fields are stored as int");
_Static_assert(sizeof(enum workload_class) == sizeof(int), "enum fields are stored as int");

static double scale_of(const struct tui_field *f)
{
	return f->scale > 0 ? f->scale : 1;
}

/* The value shown for a stored one and back: a scale divides (bytes as
 * GB), times multiplies (a share of the week as hours), so a typed 8 hours
 * is stored as 8 / 168 exactly as the scenario loader stores it. */
static double shown_of(const struct tui_field *f, double stored)
{
	return f->times > 0 ? stored * f->times : stored / scale_of(f);
}

static double stored_of(const struct tui_field *f, double shown)
{
	return f->times > 0 ? shown / f->times : shown * scale_of(f);
}

/* A number field's bounds: the table the CLI and scenario files read
 * (tui_fields_resolve() copied them), so the wizard accepts exactly what
 * they accept. */
static const struct engine_field_limit *limit_of(const struct tui_field *f)
{
	return &f->lim;
}

static enum tui_field_store store_of(enum engine_field_type t)
{
	return t == EFT_LONG ? FS_LONG : t == EFT_INT ? FS_INT : t == EFT_DOUBLE ? FS_DOUBLE : FS_ENUM;
}

static void resolve_field(struct tui_field *o, const struct engine_field *e)
{
	o->kind = e->type == EFT_ENUM ? TF_CHOICE : e->type == EFT_MODEL ? TF_MODEL
		: e->type == EFT_DRAFT ? TF_DRAFT : e->type == EFT_PLATFORM ? TF_PLATFORM : TF_NUMBER;
	o->label = o->label ? o->label : e->label;
	o->unit = o->unit ? o->unit : e->unit;
	o->hint = o->hint ? o->hint : e->hint;
	if (!o->classes && e->classes != ENGINE_CLASSES_ALL)
		o->classes = e->classes;
	o->lora_only = e->lora_only;
	o->base = FB_WORKLOAD;
	o->store = store_of(e->type);
	o->offset = e->off;
	o->special = e == engine_field(EF_CONCURRENCY) ? SP_CONCURRENCY
		   : e->word ? SP_NEG_AUTO : e->lim.zero_none ? SP_ZERO_NONE : SP_NONE;
	o->zero_word = e->lim.zero_word ? e->lim.zero_word : "none";
	o->scale = e->scale;
	o->lim = e->lim;
	o->syntax = e->syntax;
	o->step = e->step;
	o->start = e->start;
	if (e->choice) {
		o->choice_first = e->choice->first;
		o->choice_count = e->choice->count;
		o->choice_name = e->choice->name;
	}
}

static void resolve_figure(struct tui_field *o, const struct catalog_model_figure *m)
{
	o->kind = TF_NUMBER;
	o->label = o->label ? o->label : m->label;
	o->unit = o->unit ? o->unit : m->unit;
	o->hint = o->hint ? o->hint : m->hint;
	o->custom_only = true;
	o->base = FB_MODEL;
	o->store = m->type == MFT_BILLIONS ? FS_DOUBLE : m->type == MFT_LONG ? FS_LONG : FS_INT;
	o->offset = m->off;
	o->scale = m->type == MFT_BILLIONS ? 1e9 : 0;
	o->lim = engine_model_figure_limit(m);
	o->syntax = m->type == MFT_BILLIONS ? NUM_PLAIN : NUM_COUNT;
	o->step = m->step;
}

void tui_fields_resolve(const struct tui_field *in, struct tui_field *out, int n)
{
	for (int i = 0; i < n; i++) {
		out[i] = in[i];
		if (in[i].field > 0 && in[i].field <= EF_COUNT)
			resolve_field(&out[i], engine_field((enum engine_field_id)(in[i].field - 1)));
		else if (in[i].figure > 0 && in[i].figure <= MF_COUNT)
			resolve_figure(&out[i], &catalog_model_figures[in[i].figure - 1]);
	}
}

static double min_of(const struct tui_field *f)
{
	return limit_of(f)->min;
}

static double max_of(const struct tui_field *f)
{
	return limit_of(f)->max;
}

static bool integer_of(const struct tui_field *f)
{
	return limit_of(f)->integer;
}

bool tui_field_visible(const struct tui *t, const struct tui_field *f)
{
	if (f->classes && !(f->classes & TUI_CLASS(t->sc.w.cls)))
		return false;
	if (f->custom_only && !t->sc.has_custom)
		return false;
	if (f->lora_only && t->sc.w.method == FT_FULL)
		return false;
	if (f->shown && !f->shown(t))
		return false;
	return true;
}

static bool focusable(const struct tui *t, const struct tui_field *f)
{
	return f->kind != TF_HEADING && f->kind != TF_INFO && tui_field_visible(t, f);
}

static bool is_concurrency_max(const struct tui *t, const struct tui_field *f)
{
	return f->special == SP_CONCURRENCY && t->sc.w.concurrency_max;
}

static void number_text(char *buf, size_t n, double shown, bool integer)
{
	if (integer || shown == floor(shown))
		tui_fmt_si(buf, n, shown);
	else
		snprintf(buf, n, "%g", shown);
}

/* The accelerator step 4 shows: the chosen one, else the top ranked. */
static const struct catalog_accel *platform_accel(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r ? r->accel : t->sc.w.accel;
}

/* auto, the platform chosen, or one chosen for another accelerator (it
 * does not apply to this one). */
static void platform_text(const struct tui *t, char *buf, size_t n)
{
	const struct catalog_platform *p = t->sc.w.platform;
	if (!p)
		snprintf(buf, n, "auto");
	else if (p->accel == platform_accel(t))
		snprintf(buf, n, "%s", p->id);	/* its name is the Node shape row */
	else
		snprintf(buf, n, "auto (%s: %s)", p->id, tui_accel_short(p->accel));
}

void tui_field_text(const struct tui *t, const struct tui_field *f, char *buf, size_t n)
{
	switch (f->kind) {
	case TF_HEADING:
		buf[0] = '\0';
		return;
	case TF_INFO:
		if (f->info)
			f->info(t, buf, n);
		else
			buf[0] = '\0';
		return;
	case TF_MODEL:
		snprintf(buf, n, "%s", t->sc.w.model ? t->sc.w.model->name : "(none)");
		return;
	case TF_DRAFT:
		snprintf(buf, n, "%s", t->sc.w.draft_model ? t->sc.w.draft_model->name : "none");
		return;
	case TF_PLATFORM:
		platform_text(t, buf, n);
		return;
	case TF_TEXT: {
		const char *s = *(char *const *)field_ptr((struct tui *)t, f);
		snprintf(buf, n, "%s", s ? s : "");
		return;
	}
	case TF_CHOICE:
		snprintf(buf, n, "%s", f->choice_name((int)field_get(t, f)));
		return;
	case TF_NUMBER:
		break;
	}
	if (is_concurrency_max(t, f)) {
		snprintf(buf, n, "max");
		return;
	}
	double v = field_get(t, f);
	if (f->special == SP_ZERO_NONE && v == 0) {
		snprintf(buf, n, "%s", f->zero_word ? f->zero_word : "none");
		return;
	}
	if (f->special == SP_NEG_AUTO && v < 0) {
		if (f->auto_value) {
			double a = f->auto_value(t);
			if (isfinite(a) && a >= 0) {
				snprintf(buf, n, "auto (%.0f)", shown_of(f, a));
				return;
			}
		}
		snprintf(buf, n, "auto");
		return;
	}
	double shown = shown_of(f, v);
	/* plain numbers without the count suffixes, which they would not
	 * read back (number.h) */
	if (f->syntax == NUM_PLAIN && shown == floor(shown) && fabs(shown) < 1e15)
		snprintf(buf, n, "%.0f", shown);
	else
		number_text(buf, n, shown, integer_of(f));
}

/*
 * Sets a field to a value in shown units, checking the field's range and
 * then the whole workload.  special_value: "none" / "auto" / "max" already
 * decoded by the caller into the stored sentinel (applied without the
 * range check).  Returns TUI_CHANGED, or TUI_HANDLED with an error shown.
 */
static int field_set(struct tui *t, const struct tui_field *f, double shown, bool sentinel,
		     bool conc_max)
{
	if (!sentinel) {
		const struct engine_field_limit *l = limit_of(f);
		if (!(shown >= l->min && shown <= l->max) && !engine_field_ok(l, shown)) {
			char v[32], range[80];
			number_text(v, sizeof v, shown, false);
			engine_field_range(l, range, sizeof range);
			tui_status(t, true, "%s: %s is out of range (%s); kept the old value.",
				   f->label, v, range);
			return TUI_HANDLED;
		}
		if (f->positive && !(shown > l->min)) {
			tui_status(t, true, "%s must be more than %g; kept the old value.", f->label, l->min);
			return TUI_HANDLED;
		}
		if (integer_of(f) && shown != floor(shown)) {
			tui_status(t, true, "%s must be a whole number; kept the old value.", f->label);
			return TUI_HANDLED;
		}
	}
	/* try it on the live workload; put everything back if refused (the
	 * class resets its fields in after_set, before the check) */
	struct workload saved_w = t->sc.w;
	struct catalog_model saved_m = t->sc.custom;
	double old = field_get(t, f);
	bool old_max = t->sc.w.concurrency_max;
	field_put(t, f, sentinel ? shown : stored_of(f, shown));
	if (f->special == SP_CONCURRENCY)
		t->sc.w.concurrency_max = conc_max;
	if (field_get(t, f) == old && t->sc.w.concurrency_max == old_max)
		return TUI_HANDLED;
	if (f->after_set)
		f->after_set(t);
	char why[256];
	if (!engine_workload_valid(&t->sc.w, why, sizeof why)) {
		t->sc.w = saved_w;
		t->sc.custom = saved_m;
		tui_status(t, true, "%s refused: %s", f->label, why);
		return TUI_HANDLED;
	}
	t->status[0] = '\0';
	return TUI_HANDLED | TUI_CHANGED;
}

static int field_commit_text(struct tui *t, const struct tui_field *f, const char *text)
{
	char s[TUI_LINE_MAX];
	size_t o = 0;
	for (const char *p = text; *p && o < sizeof s - 1; p++)
		if (!isspace((unsigned char)*p) || o)
			s[o++] = *p;
	while (o && isspace((unsigned char)s[o - 1]))
		o--;
	s[o] = '\0';

	if (f->special == SP_ZERO_NONE && (!strcasecmp(s, "none") || !strcasecmp(s, "off") ||
					   (f->zero_word && !strcasecmp(s, f->zero_word)) ||
					   !strcmp(s, "0") || !strcmp(s, "-")))
		return field_set(t, f, 0, true, false);
	if (f->special == SP_NEG_AUTO && (!strcasecmp(s, "auto") || !strcasecmp(s, "default") ||
					  !strncasecmp(s, "auto ", 5)))
		return field_set(t, f, -1, true, false);
	if (f->special == SP_CONCURRENCY && !strcasecmp(s, "max"))
		return field_set(t, f, field_get(t, f), true, true);
	double v;
	char why[160];
	/* the one number syntax (number.h), as on the command line */
	if (!number_parse(s, f->syntax, f->unit, &v, why, sizeof why)) {
		const char *word = f->special == SP_ZERO_NONE ? (f->zero_word ? f->zero_word : "none")
				 : f->special == SP_NEG_AUTO ? "auto"
				 : f->special == SP_CONCURRENCY ? "max" : NULL;
		if (word && !strncmp(why, "is not a number (", 17))
			tui_status(t, true, "%s: '%s' is not a number or %s (e.g. %s); kept the old value.",
				   f->label, s, word, number_examples(f->syntax, f->unit));
		else
			tui_status(t, true, "%s: '%s' %s; kept the old value.", f->label, s, why);
		return TUI_HANDLED;
	}
	/* the range and whole-number rule, quoting what was typed ("1e20",
	 * not the 100000000T it would show as) */
	if (!engine_field_check(limit_of(f), v, why, sizeof why)) {
		tui_status(t, true, "%s: '%s' is %s; kept the old value.", f->label, s, why);
		return TUI_HANDLED;
	}
	return field_set(t, f, v, false, false);
}

/* The draft's choices in order: none, the model's own MTP modules, then
 * the catalog models that can draft for it (engine_draft_fits(), the rule
 * the CLI and scenario files are held to). */
static int draft_step(struct tui *t, int dir)
{
	const struct catalog_model *m = t->sc.w.model, *cur = t->sc.w.draft_model;
	long n = 1 + (long)t->cat->n_models + 1, at = 0, k = 0;
	/* walk the choices as a ring without a list: index 0 none, 1 mtp,
	 * 2.. the catalog's models; skip those that cannot draft */
	if (cur == &engine_draft_mtp)
		at = 1;
	for (size_t i = 0; cur && cur != &engine_draft_mtp && i < t->cat->n_models; i++)
		if (&t->cat->models[i] == cur)
			at = 2 + (long)i;
	const struct catalog_model *next = NULL;
	for (k = 1; k <= n; k++) {
		long j = ((at + dir * k) % n + n) % n;
		const struct catalog_model *c = j == 0 ? NULL : j == 1 ? &engine_draft_mtp : &t->cat->models[j - 2];
		if (!c || engine_draft_fits(m, c)) {
			next = c;
			break;
		}
	}
	t->sc.w.draft_model = next;
	if (next)
		tui_status(t, false, "Draft: %s%s.", next->name,
			   t->sc.w.spec_acceptance > 0 ? "" : "; set Draft acceptance to speculate");
	else
		tui_status(t, false, "Draft: none (no speculative decoding).");
	return TUI_HANDLED | TUI_CHANGED;
}

/* The platform's choices in order: auto, then the catalog's platforms for
 * the accelerator step 4 shows (catalog order); choosing one chooses that
 * accelerator, as any step 4 override does, and a server shape it does
 * not have goes back to auto (engine_workload_valid() holds them to it). */
static int platform_step(struct tui *t, int dir)
{
	const struct catalog_accel *a = platform_accel(t);
	const struct catalog_platform *ps[16];
	if (!a) {
		tui_status(t, true, "No accelerator to choose a platform for.");
		return TUI_HANDLED;
	}
	long n = (long)catalog_platforms_for(t->cat, a, ps, 16);
	if (n > 16)
		n = 16;
	long at = 0;
	for (long i = 0; i < n; i++)
		if (ps[i] == t->sc.w.platform)
			at = i + 1;
	long j = ((at + dir) % (n + 1) + (n + 1)) % (n + 1);
	const struct catalog_platform *next = j == 0 ? NULL : ps[j - 1];
	t->sc.w.platform = next;
	if (!t->sc.w.accel)
		t->sc.w.accel = a;
	if (next && t->sc.w.node_gpus > 0 && t->sc.w.node_gpus != next->gpus_per_node)
		t->sc.w.node_gpus = 0;
	if (next)
		tui_status(t, false, "Platform: %s, %d GPUs per node.", next->name, next->gpus_per_node);
	else
		tui_status(t, false, "Platform: auto (the cheapest of the %ld for the %s).", n,
			   tui_accel_name(a));
	return TUI_HANDLED | TUI_CHANGED;
}

/* A row whose value is cycled through its choices (Enter, Left/Right, +/-). */
static bool cycles(const struct tui_field *f)
{
	return f->kind == TF_CHOICE || f->kind == TF_DRAFT || f->kind == TF_PLATFORM;
}

static int field_step(struct tui *t, const struct tui_field *f, int dir)
{
	if (f->kind == TF_DRAFT)
		return draft_step(t, dir);
	if (f->kind == TF_PLATFORM)
		return platform_step(t, dir);
	if (f->kind == TF_CHOICE) {
		int v = (int)field_get(t, f) - f->choice_first;
		v = (v + dir + f->choice_count) % f->choice_count;
		return field_set(t, f, v + f->choice_first, true, false);
	}
	if (f->kind != TF_NUMBER)
		return TUI_UNHANDLED;
	double stored = field_get(t, f);
	bool is_none = f->special == SP_ZERO_NONE && stored == 0;
	bool is_auto = f->special == SP_NEG_AUTO && stored < 0;
	double cur;
	if (is_concurrency_max(t, f)) {
		/* leaving "max": start from the batch memory holds now */
		const struct engine_result *r = tui_chosen(t);
		cur = r && r->max_batch_per_replica > 0 ? (double)r->max_batch_per_replica : f->start;
		return field_set(t, f, cur, false, false);
	}
	if (is_auto) {
		double a = f->auto_value ? f->auto_value(t) : NAN;
		cur = isfinite(a) && a >= 0 ? shown_of(f, a) : f->start;
		double nv = cur + dir * (f->step > 0 ? f->step : 1);
		if (nv < min_of(f))
			nv = min_of(f);
		return field_set(t, f, nv, false, false);
	}
	if (is_none) {
		if (dir < 0)
			return TUI_HANDLED;
		return field_set(t, f, f->start, false, false);
	}
	cur = shown_of(f, stored);
	double nv;
	if (f->step > 0) {
		nv = cur + dir * f->step;
		/* snap to the step grid so 1.3 + 1 -> 2 */
		nv = round(nv / f->step) * f->step;
	} else {
		nv = dir > 0 ? cur * 2 : cur / 2;
		if (integer_of(f))
			nv = dir > 0 ? ceil(nv) : floor(nv);
	}
	if (nv > max_of(f))
		nv = max_of(f);
	if (nv < min_of(f)) {
		if (f->special == SP_ZERO_NONE)
			return field_set(t, f, 0, true, false);
		if (f->special == SP_NEG_AUTO)
			return field_set(t, f, -1, true, false);
		nv = min_of(f);
	}
	if (nv == cur) {
		tui_status(t, false, "%s is already at its %s.", f->label, dir > 0 ? "maximum" : "minimum");
		return TUI_HANDLED;
	}
	return field_set(t, f, nv, false, false);
}

/* ---- forms ---- */

enum { LABEL_W = 22, VALUE_W = 16 };

/* The form's rows as the list helper walks them: the cursor rests on the
 * fields that take a value. */
struct form_rows {
	const struct tui *t;
	const struct tui_field *fields;
};

static bool row_focusable(const void *ctx, int i)
{
	const struct form_rows *fr = ctx;
	return focusable(fr->t, &fr->fields[i]);
}

/* The cursor on a focusable field: the one it is on, else the next one,
 * else the one before; -1 when the form has none. */
static int fix_focus(struct tui *t, const struct tui_field *fields, int n, struct tui_list *l)
{
	const struct form_rows fr = { t, fields };
	const struct tui_list_rows rows = { .n = n, .ok = row_focusable, .ctx = &fr };
	if (n <= 0)
		return l->focus = -1;
	if (l->focus < 0)
		l->focus = 0;
	if (l->focus >= n)
		l->focus = n - 1;
	if (!focusable(t, &fields[l->focus])) {
		int at = l->focus;
		tui_list_move_rows(l, LIST_DOWN, &rows, 1);
		if (l->focus == at)
			tui_list_move_rows(l, LIST_UP, &rows, 1);
		if (l->focus == at)
			l->focus = -1;
	}
	return l->focus;
}

/* Moves the cursor over the form's focusable fields. */
static void move_focus(struct tui *t, const struct tui_field *fields, int n, struct tui_list *l,
		       enum tui_list_move m)
{
	const struct form_rows fr = { t, fields };
	const struct tui_list_rows rows = { .n = n, .ok = row_focusable, .ctx = &fr };
	tui_list_move_rows(l, m, &rows, 1);
}

/* The columns of a form in w: label, value, then unit or note. */
struct form_cols {
	int label_w, value_w, vx, w;
};

static struct form_cols form_columns(int w)
{
	struct form_cols c = { LABEL_W, VALUE_W, 0, w };
	if (w < c.label_w + c.value_w + 8) {
		c.label_w = w / 2 - 2;
		c.value_w = w - c.label_w - 8;
	}
	if (w >= c.label_w + c.value_w + 30)
		c.value_w += 6;	/* roomier values on wide screens */
	c.vx = 1 + c.label_w + 1;
	return c;
}

/* The value of a field not being edited, as its kind shows it. */
static void draw_value(struct tui *t, WINDOW *win, int y, const struct form_cols *c,
		       const struct tui_field *f, bool foc)
{
	char val[128];
	tui_field_text(t, f, val, sizeof val);
	enum theme_role vr = foc ? ROLE_field_focus
			   : f->kind == TF_INFO ? (f->muted && f->muted(t) ? ROLE_muted : ROLE_field)
			   : ROLE_value;
	int vx = c->vx, w = c->w;
	if (f->kind == TF_CHOICE && foc) {
		char arrows[160];
		snprintf(arrows, sizeof arrows, "%s %s %s", tui_glyph(t, GLYPH_choice_left), val,
			 tui_glyph(t, GLYPH_choice_right));
		tui_put(t, win, y, vx, c->value_w, vr, arrows);
	} else if (f->kind == TF_NUMBER) {
		tui_put_right(t, win, y, vx, c->value_w, vr, val);
	} else if (f->kind == TF_TEXT && !val[0]) {
		tui_put(t, win, y, vx, w - vx, foc ? vr : ROLE_muted, "(none)");
	} else {
		tui_put(t, win, y, vx, f->kind == TF_INFO || f->kind == TF_TEXT ? w - vx : c->value_w, vr, val);
	}
}

/* After the value: the field it follows, else its unit (not after "none",
 * "auto" or "max", which have none). */
static void draw_suffix(struct tui *t, WINDOW *win, int y, const struct form_cols *c,
			const struct tui_field *f, bool editing)
{
	bool sentinel = f->kind == TF_NUMBER && !editing &&
		(is_concurrency_max(t, f) ||
		 (f->special == SP_ZERO_NONE && field_get(t, f) == 0) ||
		 (f->special == SP_NEG_AUTO && field_get(t, f) < 0));
	int x = c->vx + c->value_w + 1;
	const char *follows = f->follows ? f->follows(t) : NULL;
	if (follows)
		tui_put(t, win, y, x, c->w - x, ROLE_muted, follows);
	else if (f->unit && f->kind != TF_INFO && !sentinel)
		tui_put(t, win, y, x, c->w - x, ROLE_unit, f->unit);
}

/* One row of the form: a heading, or label, value (or the open editor)
 * and suffix. */
static void draw_row(struct tui *t, WINDOW *win, int y, const struct form_cols *c,
		     const struct tui_field *f, bool foc, bool editing)
{
	if (f->kind == TF_HEADING) {
		tui_put(t, win, y, 0, c->w, ROLE_header, f->label);
		return;
	}
	if (foc)
		tui_fill(t, win, y, 0, c->vx + c->value_w, ROLE_field_focus);
	tui_put(t, win, y, 1, c->label_w, foc ? ROLE_field_focus : ROLE_field, f->label);
	if (editing) {
		int ew = f->kind == TF_TEXT ? c->w - c->vx - 1 : c->value_w;
		int cx = tui_line_draw(t, win, y, c->vx, ew, ROLE_value, &t->edit);
		int wy, wx;
		getbegyx(win, wy, wx);
		t->cursor_y = wy + y;
		t->cursor_x = wx + c->vx + cx;
	} else {
		draw_value(t, win, y, c, f, foc);
	}
	draw_suffix(t, win, y, c, f, editing);
}

/* The first shown row of a form of nrows shown rows (rows[] are their
 * fields), focus_row the cursor's (-1: none): the cursor's row in view,
 * the heading above the first field of a section with it, and on the
 * form's first field everything above it (read-only rows: step 1's list
 * of workloads above its first heading's field). */
static int form_top(const struct tui_field *fields, const int *rows, int nrows, int focus_row,
		    int top, int avail)
{
	struct tui_list shown = { .focus = focus_row, .top = top };
	if (focus_row >= 1 && focus_row - 1 < shown.top && fields[rows[focus_row - 1]].kind == TF_HEADING)
		shown.top = focus_row - 1;
	bool first = focus_row >= 0;
	for (int r = 0; first && r < focus_row; r++)
		first = fields[rows[r]].kind == TF_HEADING || fields[rows[r]].kind == TF_INFO;
	if (first && focus_row < avail)
		shown.top = 0;
	if (focus_row >= 0)
		tui_list_clamp(&shown, nrows, avail);
	else
		tui_list_clamp_top(&shown, nrows, avail);
	return shown.top;
}

void tui_form_draw(struct tui *t, WINDOW *win, int h, int w, const struct tui_field *fields,
		   int n, struct tui_list *l)
{
	int focus = fix_focus(t, fields, n, l);
	int rows[128], nrows = 0, focus_row = -1;
	for (int i = 0; i < n && nrows < 128; i++) {
		if (!tui_field_visible(t, &fields[i]))
			continue;
		if (i == focus)
			focus_row = nrows;
		rows[nrows++] = i;
	}
	/* one line at the bottom for the focused field's hint */
	int avail = h > 4 ? h - 1 : h;
	l->top = form_top(fields, rows, nrows, focus_row, l->top, avail);

	struct form_cols c = form_columns(w);
	for (int r = l->top, y = 0; r < nrows && y < avail; r++, y++) {
		bool foc = rows[r] == focus;
		draw_row(t, win, y, &c, &fields[rows[r]], foc, foc && t->editing && t->edit_field == rows[r]);
	}
	tui_list_marks(t, win, l, avail, nrows, 0, avail - 1, w - 1);
	if (avail < h && focus >= 0 && fields[focus].hint)
		tui_put(t, win, h - 1, 1, w - 2, ROLE_muted, fields[focus].hint);
}

/* Opens the editor on the field with its value selected.  A text the
 * one-line editor cannot hold whole (several lines, or longer than it)
 * is left as it is: committing it would cut it. */
static void start_edit(struct tui *t, const struct tui_field *f, int focus)
{
	char val[TUI_LINE_MAX];
	if (f->kind == TF_TEXT) {
		const char *s = *(char *const *)field_ptr(t, f);
		if (s && (strchr(s, '\n') || strlen(s) >= sizeof val - 1)) {
			tui_status(t, true, "%s holds several lines or more than %zu bytes: edit it in the "
				   "scenario file (kept as it is).", f->label, sizeof val - 2);
			return;
		}
	}
	tui_field_text(t, f, val, sizeof val);
	tui_line_set_selected(&t->edit, val);
	t->editing = true;
	t->edit_field = focus;
	tui_status(t, false, "Editing %s: type to replace, arrows to edit, %s keeps, %s cancels.",
		   f->label, tui_key(ACT_EDIT), tui_key(ACT_BACK));
}

int tui_form_key(struct tui *t, enum tui_action a, int ch, const struct tui_field *fields,
		 int n, struct tui_list *l)
{
	int focus = fix_focus(t, fields, n, l);
	if (focus < 0)
		return TUI_UNHANDLED;
	const struct tui_field *f = &fields[focus];

	if (t->editing) {
		switch (tui_line_key(&t->edit, ch)) {
		case LINE_COMMIT: {
			t->editing = false;
			char old[TUI_LINE_MAX];
			tui_field_text(t, f, old, sizeof old);
			if (!strcmp(old, t->edit.buf)) {
				/* unchanged text: keep the exact value */
				tui_status(t, false, "%s unchanged.", f->label);
				return TUI_HANDLED;
			}
			if (f->kind == TF_TEXT) {
				if (!scenario_set_text((char **)field_ptr(t, f), t->edit.buf)) {
					tui_status(t, true, "Out of memory; %s unchanged.", f->label);
					return TUI_HANDLED;
				}
				return TUI_HANDLED | TUI_CHANGED;
			}
			return field_commit_text(t, f, t->edit.buf);
		}
		case LINE_CANCEL:
			t->editing = false;
			tui_status(t, false, "Edit cancelled; %s unchanged.", f->label);
			return TUI_HANDLED;
		default:
			return TUI_HANDLED;	/* the editor owns every key while open */
		}
	}

	/* On a number field a digit (or a decimal point) is the start of a
	 * value, not a jump to a step: the edit opens with it. */
	if (f->kind == TF_NUMBER && ch >= 0 && ch < 0x80 && (isdigit(ch) || ch == '.')) {
		start_edit(t, f, focus);
		tui_line_key(&t->edit, ch);
		return TUI_HANDLED;
	}

	switch (a) {
	case ACT_UP:
	case ACT_PREV_FIELD:
		move_focus(t, fields, n, l, LIST_UP);
		return TUI_HANDLED;
	case ACT_DOWN:
	case ACT_NEXT_FIELD:
		move_focus(t, fields, n, l, LIST_DOWN);
		return TUI_HANDLED;
	case ACT_HOME:
	case ACT_END:
		move_focus(t, fields, n, l, tui_list_move_of(a, 0));
		return TUI_HANDLED;
	case ACT_EDIT:
		if (cycles(f))
			return field_step(t, f, +1);
		if (f->kind == TF_MODEL) {
			tui_picker_open(t);
			return TUI_HANDLED;
		}
		if (f->kind == TF_NUMBER || f->kind == TF_TEXT) {
			start_edit(t, f, focus);
			return TUI_HANDLED;
		}
		return TUI_UNHANDLED;
	case ACT_INC:
	case ACT_RIGHT:
		if (a == ACT_RIGHT && !cycles(f) && f->kind != TF_MODEL)
			return TUI_UNHANDLED;
		if (f->kind == TF_MODEL)
			return tui_picker_cycle(t, +1);
		return field_step(t, f, +1);
	case ACT_DEC:
	case ACT_LEFT:
		if (a == ACT_LEFT && !cycles(f) && f->kind != TF_MODEL)
			return TUI_UNHANDLED;
		if (f->kind == TF_MODEL)
			return tui_picker_cycle(t, -1);
		return field_step(t, f, -1);
	default:
		return TUI_UNHANDLED;
	}
}
