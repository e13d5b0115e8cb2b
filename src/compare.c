/*
 * compare: scenarios side by side (see compare.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "scenario.h"

void compare_init(struct compare *c, int n_cols)
{
	memset(c, 0, sizeof *c);
	c->n_cols = n_cols < 1 ? 1 : n_cols > COMPARE_MAX_COLS ? COMPARE_MAX_COLS : n_cols;
}

static struct compare_row *row_for(struct compare *c, const char *section, const char *key)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (!strcmp(c->rows[i].section, section) && !strcmp(c->rows[i].key, key))
			return &c->rows[i];
	if (c->n_rows >= COMPARE_MAX_ROWS) {
		c->full = true;
		return NULL;
	}
	struct compare_row *r = &c->rows[c->n_rows++];
	memset(r, 0, sizeof *r);
	snprintf(r->section, sizeof r->section, "%s", section);
	snprintf(r->key, sizeof r->key, "%s", key);
	return r;
}

void compare_set(struct compare *c, int col, const char *section, const char *key, const char *value)
{
	if (col < 0 || col >= c->n_cols)
		return;
	struct compare_row *r = row_for(c, section, key);
	if (!r)
		return;
	snprintf(r->value[col], sizeof r->value[col], "%s", value ? value : "");
	r->has[col] = true;
}

struct settings_ctx {
	struct compare *c;
	int col;
};

static void one_setting(const char *section, const char *key, const char *value, void *ctx)
{
	struct settings_ctx *s = ctx;
	compare_set(s->c, s->col, section, key, value);
}

void compare_add_settings(struct compare *c, int col, const struct workload *w)
{
	struct settings_ctx s = { c, col };
	scenario_each_setting(w, one_setting, &s);
}

void compare_finish(struct compare *c)
{
	for (size_t i = 0; i < c->n_rows; i++) {
		struct compare_row *r = &c->rows[i];
		r->differs = false;
		for (int j = 1; j < c->n_cols && !r->differs; j++)
			r->differs = r->has[j] != r->has[0] ||
				     (r->has[j] && strcmp(r->value[j], r->value[0]));
	}
}

size_t compare_n_differ(const struct compare *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_rows; i++)
		n += c->rows[i].differs;
	return n;
}
