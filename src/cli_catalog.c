/*
 * `accelsizer catalog list|show|check`: the catalog as tables, one item in
 * full with its sources, and the loader's validation for people who keep
 * their own catalog (its published results included).
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_schema.h"
#include "ledger.h"
#include "scenario.h"
#include "cli.h"
#include "out.h"

#define PROG "accelsizer catalog"

/* ---- number formatting ---- */

/* Up to three decimals, trailing zeros dropped: 3.35, 989, 0.864. */
static const char *fig(double v, char *buf, size_t sz)
{
	snprintf(buf, sz, "%.3f", v);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0')
			*end-- = '\0';
		if (end == dot)
			*end = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, sz, "0");
	return buf;
}

/* ---- tables ---- */

#define COLS_MAX 10
#define CELL 96

struct table {
	int ncols;
	const char *head[COLS_MAX];
	bool right[COLS_MAX];		/* numbers align right */
	char (*cells)[COLS_MAX][CELL];
	size_t n, cap;
};

/* Display width: one column per UTF-8 character (names are Latin text). */
static int width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

static bool table_row(struct table *t, ...)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		void *p = realloc(t->cells, cap * sizeof *t->cells);
		if (!p)
			return false;
		t->cells = p;
		t->cap = cap;
	}
	va_list ap;
	va_start(ap, t);
	for (int c = 0; c < t->ncols; c++) {
		char inert[4 * CELL];
		const char *s = out_inert(va_arg(ap, const char *), inert, sizeof inert);
		char *cell = t->cells[t->n][c];
		snprintf(cell, CELL, "%s", s ? s : "");
		if (s && strlen(s) >= CELL) {
			/* Cut long text (sources) at a character boundary. */
			size_t end = CELL - 4;
			while (end > 0 && ((unsigned char)cell[end] & 0xC0) == 0x80)
				end--;
			memcpy(cell + end, "...", 4);
		}
	}
	va_end(ap);
	t->n++;
	return true;
}

static void pad(int n)
{
	for (int i = 0; i < n; i++)
		putchar(' ');
}

static void print_cell(const char *s, int w, bool right, bool last)
{
	int gap = w - width(s);
	if (right)
		pad(gap);
	fputs(s, stdout);
	if (!right && !last)
		pad(gap);
}

static void table_print(struct table *t)
{
	int w[COLS_MAX];
	for (int c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->n; r++)
			if (width(t->cells[r][c]) > w[c])
				w[c] = width(t->cells[r][c]);
	}
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputs("  ", stdout);
		print_cell(t->head[c], w[c], t->right[c], c == t->ncols - 1);
	}
	putchar('\n');
	for (size_t r = 0; r < t->n; r++) {
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputs("  ", stdout);
			print_cell(t->cells[r][c], w[c], t->right[c], c == t->ncols - 1);
		}
		putchar('\n');
	}
	free(t->cells);
	t->cells = NULL;
	t->n = t->cap = 0;
}

static int list_accels(const struct catalog *c)
{
	struct table t = {
		9,
		{ "ID", "NAME", "MEM GB", "BW TB/s", "BF16 TFLOPS", "FP8 TFLOPS", "LINK",
		  "LINK GB/s", "POWER W" },
		{ false, false, true, true, true, true, false, true, true },
		NULL, 0, 0,
	};
	for (size_t i = 0; i < c->n_accels; i++) {
		const struct catalog_accel *a = &c->accels[i];
		char mem[32], bw[32], bf16[32], fp8[32], link[32], pw[32];
		if (!table_row(&t, a->id, a->name, fig(a->mem_gb, mem, sizeof mem),
			       fig(a->mem_bw_tb_s, bw, sizeof bw),
			       fig(a->peak_tflops[PREC_BF16], bf16, sizeof bf16),
			       a->peak_tflops[PREC_FP8] > 0 ?
				       fig(a->peak_tflops[PREC_FP8], fp8, sizeof fp8) : "-",
			       a->link_kind, fig(a->link_gb_s, link, sizeof link),
			       fig(a->power_w, pw, sizeof pw)))
			return EXIT_BADINPUT;
	}
	table_print(&t);
	return EXIT_OK;
}

static int list_platforms(const struct catalog *c)
{
	struct table t = {
		9,
		{ "ID", "NAME", "ACCELERATOR", "GPUS", "TOPOLOGY", "NICS", "RU", "MAX W",
		  "PRICE USD" },
		{ false, false, false, true, false, true, true, true, true },
		NULL, 0, 0,
	};
	for (size_t i = 0; i < c->n_platforms; i++) {
		const struct catalog_platform *p = &c->platforms[i];
		char gpus[16], nics[48], nicsp[32], ru[16], pw[32], price[32];
		snprintf(gpus, sizeof gpus, "%d", p->gpus_per_node);
		snprintf(nics, sizeof nics, "%d x %sG", p->nic_count, fig(p->nic_gbit, nicsp, sizeof nicsp));
		snprintf(ru, sizeof ru, "%d", p->rack_units);
		if (!table_row(&t, p->id, p->name, p->accel_id, gpus, topology_name(p->topology), nics,
			       ru, fig(p->max_power_w, pw, sizeof pw),
			       p->price.usd > 0 ? fig(p->price.usd, price, sizeof price) : "unknown"))
			return EXIT_BADINPUT;
	}
	table_print(&t);
	return EXIT_OK;
}

static int list_fabrics(const struct catalog *c)
{
	struct table t = {
		8,
		{ "ID", "NAME", "KIND", "PORT Gb/s", "SWITCH", "RADIX", "SWITCH USD", "LATENCY us" },
		{ false, false, false, true, false, true, true, true },
		NULL, 0, 0,
	};
	for (size_t i = 0; i < c->n_fabrics; i++) {
		const struct catalog_fabric *f = &c->fabrics[i];
		char port[32], radix[16], price[32], lat[32];
		snprintf(radix, sizeof radix, "%d", f->switch_radix);
		if (!table_row(&t, f->id, f->name, f->kind, fig(f->port_gbit, port, sizeof port),
			       f->switch_name, radix,
			       f->switch_price_usd > 0 ? fig(f->switch_price_usd, price, sizeof price)
						       : "unknown",
			       fig(f->latency_us, lat, sizeof lat)))
			return EXIT_BADINPUT;
	}
	table_print(&t);
	return EXIT_OK;
}

static int list_models(const struct catalog *c)
{
	struct table t = {
		9,
		{ "ID", "NAME", "PARAMS B", "ACTIVE B", "LAYERS", "HIDDEN", "HEADS", "KV HEADS",
		  "CONTEXT" },
		{ false, false, true, true, true, true, true, true, true },
		NULL, 0, 0,
	};
	for (size_t i = 0; i < c->n_models; i++) {
		const struct catalog_model *m = &c->models[i];
		char p[32], ap[32], layers[16], hidden[16], heads[16], kv[16], ctx[24];
		snprintf(layers, sizeof layers, "%d", m->layers);
		snprintf(hidden, sizeof hidden, "%d", m->hidden);
		snprintf(heads, sizeof heads, "%d", m->heads);
		snprintf(kv, sizeof kv, "%d", m->kv_heads);
		snprintf(ctx, sizeof ctx, "%ld", m->max_context);
		if (!table_row(&t, m->id, m->name, fig(m->params / 1e9, p, sizeof p),
			       fig(m->active_params / 1e9, ap, sizeof ap), layers, hidden, heads, kv,
			       ctx))
			return EXIT_BADINPUT;
	}
	table_print(&t);
	return EXIT_OK;
}

static int list_defaults(const struct catalog *c)
{
	struct table t = {
		4,
		{ "KEY", "VALUE", "UNIT", "SOURCE" },
		{ false, true, false, false },
		NULL, 0, 0,
	};
	char v[32];
#define X(name, unit, doc) \
	if (!table_row(&t, #name, fig(c->defaults.name.value, v, sizeof v), unit, \
		       c->defaults.name.source)) \
		return EXIT_BADINPUT;
	CATALOG_DEFAULTS(X)
#undef X
	table_print(&t);
	return EXIT_OK;
}

/* ---- show ---- */

/* A label is the member's key in the loader's table (catalog_schema.h):
 * `catalog show` spells no key of its own.  GROUP: the mapping that holds
 * it ("efficiency.compute" for its .value, "experts" for experts.total). */
#define KEY(T, m) catalog_schema_key(&catalog_##T##_schema, offsetof(struct catalog_##T, m), \
				     false, (char[96]){ 0 }, 96)
#define GROUP(T, m) catalog_schema_key(&catalog_##T##_schema, offsetof(struct catalog_##T, m), \
				       true, (char[96]){ 0 }, 96)

static void field(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void field(const char *label, const char *fmt, ...)
{
	printf("  %-26s ", label);
	/* the value quotes catalog text: written inert (out.h) */
	va_list ap;
	va_start(ap, fmt);
	out_vprintf(stdout, fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *mark(const char *source)
{
	return catalog_source_unconfirmed(source) ? "  [UNCONFIRMED]" : "";
}

static void show_sourced(const char *label, const struct sourced *s)
{
	char v[32];
	field(label, "%s  (source: %s)%s", fig(s->value, v, sizeof v), s->source ? s->source : "-",
	      mark(s->source));
	if (s->calibrated_from)
		field("", "calibrated from: %s", *s->calibrated_from ? s->calibrated_from
		      : "no published result (see the source)");
}

/* A part's unit price, or why its BOM line is unpriced (no source gave
 * one: absent from the catalog). */
static const char *unit_price(double usd, char *buf, size_t n)
{
	if (usd > 0)
		return fig(usd, buf, n);
	snprintf(buf, n, "none (from price list)");
	return buf;
}

static void show_price(const char *label, const struct price *p)
{
	char v[32];
	if (p->usd > 0)
		field(label, "USD %s as of %s, indicative  (source: %s)%s",
		      fig(p->usd, v, sizeof v), p->date, p->source, mark(p->source));
	else
		field(label, "unknown (0) as of %s  (source: %s)%s", p->date, p->source,
		      mark(p->source));
}

static void show_rent(const char *label, const struct price *p)
{
	char v[32];
	if (p->usd > 0)
		field(label, "USD %s per GPU-hour as of %s, indicative  (source: %s)%s",
		      fig(p->usd, v, sizeof v), p->date, p->source, mark(p->source));
}

static void show_sources(char *const *s, size_t n)
{
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		u += catalog_source_unconfirmed(s[i]);
	if (u)
		printf("  sources (%zu of %zu unconfirmed, marked !)\n", u, n);
	else
		printf("  sources\n");
	for (size_t i = 0; i < n; i++)
		out_line(stdout, "    %c %s", catalog_source_unconfirmed(s[i]) ? '!' : '-', s[i]);
}

static void show_accel(const struct catalog *c, const struct catalog_accel *a)
{
	char v[32];
	out_line(stdout, "accelerator %s  (%s)", a->id, a->file);
	field(KEY(accel, name), "%s", a->name);
	field(KEY(accel, vendor), "%s", a->vendor);
	field(KEY(accel, architecture), "%s", a->architecture);
	field(KEY(accel, form), "%s", form_factor_name(a->form));
	field(KEY(accel, mem_gb), "%s GB", fig(a->mem_gb, v, sizeof v));
	field(KEY(accel, mem_type), "%s", a->mem_type);
	field(KEY(accel, mem_bw_tb_s), "%s TB/s", fig(a->mem_bw_tb_s, v, sizeof v));
	field(KEY(accel, mem_usable_fraction), "%s", fig(a->mem_usable_fraction, v, sizeof v));
	if (a->mem_addressable_gb > 0) {
		char u[32];
		field(KEY(accel, mem_addressable_gb), "%s GB as the runtime reports it (%s GB usable)",
		      fig(a->mem_addressable_gb, v, sizeof v),
		      fig(a->mem_addressable_gb * a->mem_usable_fraction, u, sizeof u));
	} else {
		field(KEY(accel, mem_addressable_gb), "- (memory.capacity_gb applies)");
	}
	/* The order a datasheet uses, widest format first. */
	static const enum precision order[] = { PREC_FP64, PREC_FP32, PREC_TF32, PREC_BF16,
						PREC_FP16, PREC_FP8, PREC_INT8, PREC_INT4, PREC_FP4 };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		enum precision p = order[i];
		char lb[96];
		const char *label = catalog_schema_key(&catalog_accel_schema,
						       offsetof(struct catalog_accel, peak_tflops) +
						       (size_t)p * sizeof a->peak_tflops[0], false, lb, sizeof lb);
		bool integer = p == PREC_INT8 || p == PREC_INT4;
		if (a->peak_tflops[p] > 0)
			field(label, "%s %s dense", fig(a->peak_tflops[p], v, sizeof v),
			      integer ? "TOPS" : "TFLOPS");
		else
			field(label, "- (not supported)");
	}
	field(KEY(accel, link_kind), "%s", a->link_kind);
	field(KEY(accel, link_gb_s), "%s GB/s per GPU, both directions", fig(a->link_gb_s, v, sizeof v));
	field(KEY(accel, link_domain), "%d GPU%s", a->link_domain, a->link_domain == 1 ? "" : "s");
	if (a->link_ar_lat.value > 0)
		show_sourced(GROUP(accel, link_ar_lat.value), &a->link_ar_lat);
	if (a->n_ar_curve > 0) {
		const struct catalog_ar_point *lo = &a->ar_curve[0], *hi = &a->ar_curve[a->n_ar_curve - 1];
		char b0[32], t0[32], b1[32], t1[32];
		field(GROUP(accel, ar_curve), "%zu points over %d GPUs: %s B %s us to %s B %s us  (source: %s)%s",
		      a->n_ar_curve, a->ar_curve_gpus, fig(lo->bytes, b0, sizeof b0), fig(lo->us, t0, sizeof t0),
		      fig(hi->bytes, b1, sizeof b1), fig(hi->us, t1, sizeof t1),
		      a->ar_curve_source ? a->ar_curve_source : "-", mark(a->ar_curve_source));
	}
	field(KEY(accel, host_interface), "%s", a->host_interface);
	if (a->host_pcie_gb_s > 0)
		field(KEY(accel, host_pcie_gb_s), "%s GB/s per GPU, both directions, raw", fig(a->host_pcie_gb_s, v, sizeof v));
	else
		field(KEY(accel, host_pcie_gb_s), "- (defaults.pcie_gb_s %s GB/s applies past the GPU link)",
		      fig(c->defaults.pcie_gb_s.value, v, sizeof v));
	field(KEY(accel, power_w), "%s W", fig(a->power_w, v, sizeof v));
	if (!a->n_partitions)
		field(KEY(accel, partitions), "none (no MIG)");
	else
		out_line(stdout, "  %s (MIG profiles)", KEY(accel, partitions));
	for (size_t i = 0; i < a->n_partitions; i++) {
		const struct catalog_partition *q = &a->partitions[i];
		out_line(stdout, "    %-9s %s GB, %d compute slice%s, up to %d per GPU", q->profile,
			 fig(q->memory_gb, v, sizeof v), q->compute_slices,
			 q->compute_slices == 1 ? "" : "s", q->max_per_gpu);
	}
	field(KEY(accel, stack), "%s", stack_name(a->stack));
	show_sourced(GROUP(accel, eff_compute.value), &a->eff_compute);
	if (a->eff_compute_fp4.value > 0)
		show_sourced(GROUP(accel, eff_compute_fp4.value), &a->eff_compute_fp4);
	show_sourced(GROUP(accel, eff_mem_bw.value), &a->eff_mem_bw);
	show_sourced(GROUP(accel, eff_link.value), &a->eff_link);
	if (a->eff_training.value > 0)
		show_sourced(GROUP(accel, eff_training.value), &a->eff_training);
	else
		field(GROUP(accel, eff_training.value), "- (defaults.training_mfu %s applies)",
		      fig(c->defaults.training_mfu.value, v, sizeof v));
	if (a->eff_training_fp8.value > 0)
		show_sourced(GROUP(accel, eff_training_fp8.value), &a->eff_training_fp8);
	if (a->eff_training_fp4.value > 0)
		show_sourced(GROUP(accel, eff_training_fp4.value), &a->eff_training_fp4);
	show_price(GROUP(accel, price.usd), &a->price);
	/* Rental per GPU-hour: only the terms the catalog has a figure for. */
	show_rent(GROUP(accel, rent[0].usd), &a->rent[0]);
	show_rent(GROUP(accel, rent[1].usd), &a->rent[1]);
	show_rent(GROUP(accel, rent[2].usd), &a->rent[2]);
	const struct catalog_platform *ps[64];
	size_t np = catalog_platforms_for(c, a, ps, 64);
	printf("  %-26s ", "platforms");
	if (!np)
		printf("none");
	for (size_t i = 0; i < np; i++)
		printf("%s%s (%d GPUs)", i ? ", " : "", ps[i]->id, ps[i]->gpus_per_node);
	putchar('\n');
	show_sources(a->sources, a->n_sources);
}

static void show_platform(const struct catalog_platform *p)
{
	char v[32], w[32];
	out_line(stdout, "platform %s  (%s)", p->id, p->file);
	field(KEY(platform, name), "%s", p->name);
	field(KEY(platform, accel_id), "%s%s%s", p->accel_id, p->accel ? " - " : "",
	      p->accel ? p->accel->name : "");
	field(KEY(platform, gpus_per_node), "%d", p->gpus_per_node);
	field(KEY(platform, topology), "%s", topology_name(p->topology));
	field(KEY(platform, nic_count), "%d", p->nic_count);
	field(KEY(platform, nic_gbit), "%s Gb/s", fig(p->nic_gbit, v, sizeof v));
	if (p->nic_split_gbit > 0)
		field(KEY(platform, nic_split_gbit), "%s Gb/s (also, on split switch ports; --fabric-speed)",
		      fig(p->nic_split_gbit, v, sizeof v));
	field(KEY(platform, nic_kind), "%s", p->nic_kind);
	{
		char kinds[64] = "";
		size_t at = 0;
		for (size_t i = 0; i < p->n_nic_fabrics && at < sizeof kinds; i++) {
			int k = snprintf(kinds + at, sizeof kinds - at, "%s%s", i ? ", " : "", p->nic_fabrics[i]);
			at += k > 0 ? (size_t)k : 0;
		}
		field(KEY(platform, nic_fabrics), "%s (the first is the one quoted; --fabric)", kinds);
	}
	field(KEY(platform, nics_on_accel), "%s", p->nics_on_accel
	      ? "true (ports on the accelerators: switch ports and cables, no NIC cards)" : "false");
	field(KEY(platform, rack_units), "%d U", p->rack_units);
	field(KEY(platform, max_power_w), "%s W", fig(p->max_power_w, v, sizeof v));
	field(KEY(platform, whole_rack), "%s", p->whole_rack ? "true (one rack per node, with its own power shelves)"
						: "false");
	field(KEY(platform, cooling), "%s", p->cooling ? p->cooling : "- (not stated)");
	field(KEY(platform, sku), "%s", p->sku);
	show_price(GROUP(platform, price.usd), &p->price);
	printf("  bom (per node)\n");
	if (!p->n_bom)
		printf("    none\n");
	for (size_t i = 0; i < p->n_bom; i++) {
		const struct catalog_bom_line *b = &p->bom[i];
		out_line(stdout, "    %d x %s  %s  [%s]  USD %s each, %s W each  (source: %s)%s", b->qty,
			 b->sku, b->description, b->category, fig(b->unit_price_usd, v, sizeof v),
			 fig(b->power_w, w, sizeof w), b->source, mark(b->source));
	}
	show_sources(p->sources, p->n_sources);
}

static void show_fabric(const struct catalog_fabric *f)
{
	char v[32];
	out_line(stdout, "fabric %s  (%s)", f->id, f->file);
	field(KEY(fabric, name), "%s", f->name);
	field(KEY(fabric, kind), "%s", f->kind);
	field(KEY(fabric, port_gbit), "%s Gb/s", fig(f->port_gbit, v, sizeof v));
	field(KEY(fabric, breakout), "%s", f->breakout
	      ? "true (split switch ports: only at a platform's nics.split_gbit, --fabric-speed)" : "false");
	field(KEY(fabric, switch_sku), "%s", f->switch_sku);
	field(KEY(fabric, switch_name), "%s", f->switch_name);
	field(KEY(fabric, switch_radix), "%d ports", f->switch_radix);
	field(KEY(fabric, switch_rack_units), "%d U", f->switch_rack_units);
	field(KEY(fabric, switch_power_w), "%s W", fig(f->switch_power_w, v, sizeof v));
	field(KEY(fabric, switch_price_usd), "%s", unit_price(f->switch_price_usd, v, sizeof v));
	field(KEY(fabric, cable_sku), "%s", f->cable_sku);
	field(KEY(fabric, cable_description), "%s", f->cable_description);
	field(KEY(fabric, cable_price_usd), "%s", unit_price(f->cable_price_usd, v, sizeof v));
	field(KEY(fabric, cable_power_w), "%s W", fig(f->cable_power_w, v, sizeof v));
	if (f->copper_sku) {
		field(KEY(fabric, copper_sku), "%s (one link while the cluster is in one rack)", f->copper_sku);
		field(KEY(fabric, copper_description), "%s", f->copper_description ? f->copper_description : "-");
		field(KEY(fabric, copper_power_w), "%s W", fig(f->copper_power_w, v, sizeof v));
	}
	field(KEY(fabric, nic_sku), "%s", f->nic_sku);
	field(KEY(fabric, nic_description), "%s", f->nic_description);
	field(KEY(fabric, nic_price_usd), "%s", unit_price(f->nic_price_usd, v, sizeof v));
	field(KEY(fabric, nic_power_w), "%s W", fig(f->nic_power_w, v, sizeof v));
	show_sourced(GROUP(fabric, efficiency.value), &f->efficiency);
	field(KEY(fabric, latency_us), "%s us", fig(f->latency_us, v, sizeof v));
	show_sources(f->sources, f->n_sources);
}

static void show_model(const struct catalog_model *m)
{
	char v[32];
	out_line(stdout, "model %s  (%s)", m->id, m->file);
	field(KEY(model, name), "%s", m->name);
	field(KEY(model, family), "%s", m->family);
	field(KEY(model, params), "%s billion", fig(m->params / 1e9, v, sizeof v));
	field(KEY(model, active_params), "%s billion per token", fig(m->active_params / 1e9, v, sizeof v));
	field(KEY(model, layers), "%d", m->layers);
	field(KEY(model, hidden), "%d", m->hidden);
	field(KEY(model, heads), "%d", m->heads);
	field(KEY(model, kv_heads), "%d", m->kv_heads);
	field(KEY(model, head_dim), "%d", m->head_dim);
	field(KEY(model, ffn), "%d", m->ffn);
	field(KEY(model, vocab), "%d", m->vocab);
	field(KEY(model, max_context), "%ld tokens", m->max_context);
	if (m->experts > 0) {
		field(KEY(model, experts), "%d", m->experts);
		field(KEY(model, experts_active), "%d", m->experts_active);
	} else {
		field(GROUP(model, experts), "- (dense)");
	}
	if (m->mla_kv_lora_rank > 0) {
		field(KEY(model, mla_kv_lora_rank), "%d", m->mla_kv_lora_rank);
		field(KEY(model, mla_qk_rope_head_dim), "%d", m->mla_qk_rope_head_dim);
	} else {
		field(GROUP(model, mla_kv_lora_rank), "- (none)");
	}
	if (m->sliding_window > 0) {
		field(KEY(model, sliding_window), "%d", m->sliding_window);
		if (m->sliding_layers > 0)
			field(KEY(model, sliding_layers), "%d", m->sliding_layers);
		else
			field(KEY(model, sliding_layers), "all");
	} else {
		field(GROUP(model, sliding_window), "- (none)");
	}
	show_sources(m->sources, m->n_sources);
}

static void show_setting(const char *section, const char *key, const char *value, void *ctx)
{
	(void)ctx;
	if (!strcmp(section, "workload")) {
		char label[64];
		snprintf(label, sizeof label, "workload.%s", key);
		field(label, "%s", value);
	}
}

/* One published result of the ledger (catalog/published/). */
static void show_result(const struct ledger_entry *e)
{
	char v[32];
	printf("published result %s  (%s:%d)\n", e->id, e->file, e->line);
	field("role", "%s", ledger_role_name(e->role));
	field("metric", "%s", ledger_metric(e->metric)->name);
	field("value", "%s %s", fig(e->value, v, sizeof v), ledger_metric(e->metric)->unit);
	field("accelerator", "%s", e->accel->id);
	if (e->gpus > 0)
		field("gpus", "%d", e->gpus);
	else
		field("gpus", "not published (the engine sizes)");
	field("stack", "%s", e->stack);
	field("benchmark", "%s", e->benchmark);
	scenario_each_setting(&e->w, show_setting, NULL);
	for (int i = 0; i < LEDGER_LAYOUT_COUNT; i++)
		if (e->layout[i]) {
			char label[32];
			snprintf(label, sizeof label, "layout.%s", ledger_layout_key(i));
			field(label, "%ld", e->layout[i]);
		}
	if (e->repo)
		field("source", "%s/%s @ %s", e->repo, e->path, e->commit);
	if (e->url)
		field(e->repo ? "source.url" : "source", "%s", e->url);
	field("source.date", "%s", e->date);
	field("source.quote", "%s", e->quote);
	if (e->notes)
		field("notes", "%s", e->notes);
}

static void show_defaults(const struct catalog *c)
{
	char v[32];
	out_line(stdout, "defaults  (%s)", c->defaults.file);
	field(KEY(defaults, version), "%s", c->defaults.version);
#define X(name, unit, doc) \
	field(#name, "%s %s  (source: %s)%s", fig(c->defaults.name.value, v, sizeof v), unit, \
	      c->defaults.name.source, mark(c->defaults.name.source));
	CATALOG_DEFAULTS(X)
#undef X
	/* the software sold per GPU per year a price list can quote */
	for (size_t i = 0; i < c->defaults.n_licences; i++) {
		const struct catalog_licence *l = &c->defaults.licences[i];
		field(KEY(defaults, licences), "%s: %s (%s), USD %s per GPU per year as of %s  (source: %s)%s",
		      l->sku, l->name, l->vendor, fig(l->usd_per_gpu_year, v, sizeof v), l->date,
		      l->source, mark(l->source));
	}
	/* the front-end and OOB networks every quote has, and what of them no
	 * source gives (quoted as unpriced lines) */
	for (size_t i = 0; i < c->defaults.n_networks; i++) {
		const struct catalog_network *nw = &c->defaults.networks[i];
		char pw[32], pr[48];
		if (nw->power_w > 0)
			snprintf(pw, sizeof pw, "%s W", fig(nw->power_w, v, sizeof v));
		else
			snprintf(pw, sizeof pw, "not in the catalog");
		if (nw->price_usd > 0)
			snprintf(pr, sizeof pr, "USD %s", fig(nw->price_usd, v, sizeof v));
		else
			snprintf(pr, sizeof pr, "none (from price list)");
		field(KEY(defaults, networks), "%s: %s %s, %d ports in sets of %d, %d per node, %dU; "
		      "power %s; price %s; cables %s / %s", nw->role, nw->sku, nw->name, nw->ports,
		      nw->min_switches > 1 ? nw->min_switches : 1, nw->ports_per_node, nw->rack_units, pw,
		      pr, nw->copper_sku, nw->optics_sku);
		for (size_t j = 0; j < nw->n_sources; j++)
			field("", "source: %s%s", nw->sources[j], mark(nw->sources[j]));
	}
}

/* ---- option parsing ---- */

static void usage(FILE *f)
{
	fputs("Usage: accelsizer catalog list [--models|--platforms|--fabrics|--defaults] [--catalog DIR]\n"
	      "  or:  accelsizer catalog show ID [--catalog DIR]\n"
	      "  or:  accelsizer catalog check [DIR] [--catalog DIR]\n"
	      "Show and validate the catalog of accelerators, platforms, fabrics and models.\n"
	      "\n"
	      "  list          a table of the accelerators (or of the models, platforms,\n"
	      "                fabrics or defaults)\n"
	      "  show ID       every field of one accelerator, platform, fabric, model or\n"
	      "                published result, with its sources; 'show defaults' lists\n"
	      "                the engine defaults\n"
	      "  check [DIR]   validate a catalog folder (its published results too) and\n"
	      "                report every problem as file:line:column: message\n"
	      "\n"
	      "Options:\n"
	      "      --catalog DIR  read the catalog from DIR (default: $ACCELSIZER_CATALOG,\n"
	      "                     then ~/.config/accelsizer/catalog, then the installed one)\n"
	      "      --models       list: the model presets\n"
	      "      --platforms    list: the node platforms\n"
	      "      --fabrics      list: the scale-out fabrics\n"
	      "      --defaults     list: the engine defaults with their sources\n"
	      "  -h, --help         display this help and exit\n"
	      "  -V, --version      output version information and exit\n"
	      "\n"
	      "Exit status: 0 success, 2 bad input or an invalid catalog.\n", f);
}

static int try_help(const char *sub)
{
	fprintf(stderr, "Try '" PROG "%s%s --help' for more information.\n", sub ? " " : "",
		sub ? sub : "");
	return EXIT_BADINPUT;
}

enum { OPT_CATALOG = 256, OPT_MODELS, OPT_PLATFORMS, OPT_FABRICS, OPT_DEFAULTS };

struct opts {
	const char *catalog;
	int list_what;		/* 0 accelerators, else OPT_MODELS... */
	int done;		/* -1 continue, else the exit status */
};

/* Parses the options of subcommand sub (argv[0]); positional arguments
 * end up at argv[optind..]. */
static struct opts parse(int argc, char **argv, const char *sub, bool list)
{
	static const struct option all[] = {
		{ "catalog", required_argument, NULL, OPT_CATALOG },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "models", no_argument, NULL, OPT_MODELS },
		{ "platforms", no_argument, NULL, OPT_PLATFORMS },
		{ "fabrics", no_argument, NULL, OPT_FABRICS },
		{ "defaults", no_argument, NULL, OPT_DEFAULTS },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option common[] = {
		{ "catalog", required_argument, NULL, OPT_CATALOG },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { NULL, 0, -1 };
	optind = 0;		/* GNU: start afresh, whatever ran before */
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, ":hV", list ? all : common, NULL)) != -1) {
		switch (ch) {
		case OPT_CATALOG:
			o.catalog = optarg;
			break;
		case 'h':
			usage(stdout);
			o.done = EXIT_OK;
			return o;
		case 'V':
			printf("accelsizer %s\n", PACKAGE_VERSION);
			o.done = EXIT_OK;
			return o;
		case OPT_MODELS:
		case OPT_PLATFORMS:
		case OPT_FABRICS:
		case OPT_DEFAULTS:
			if (o.list_what && o.list_what != ch) {
				fprintf(stderr, PROG " %s: choose one of --models, --platforms, "
					"--fabrics, --defaults\n", sub);
				o.done = try_help(sub);
				return o;
			}
			o.list_what = ch;
			break;
		case ':':
			fprintf(stderr, PROG " %s: option '%s' needs a value\n", sub, argv[optind - 1]);
			o.done = try_help(sub);
			return o;
		default:
			if (optopt)
				fprintf(stderr, PROG " %s: unknown option '-%c'\n", sub, optopt);
			else
				fprintf(stderr, PROG " %s: unknown option '%s'\n", sub, argv[optind - 1]);
			o.done = try_help(sub);
			return o;
		}
	}
	return o;
}

static bool no_more_args(int argc, char **argv, int first, const char *sub)
{
	if (first >= argc)
		return true;
	fprintf(stderr, PROG " %s: unexpected argument '%s'\n", sub, argv[first]);
	return false;
}

static int cmd_list(int argc, char **argv)
{
	struct opts o = parse(argc, argv, "list", true);
	if (o.done >= 0)
		return o.done;
	if (!no_more_args(argc, argv, optind, "list"))
		return try_help("list");
	struct catalog *c = frontend_load_catalog(o.catalog);
	if (!c)
		return EXIT_BADINPUT;
	int rc;
	switch (o.list_what) {
	case OPT_MODELS:
		rc = list_models(c);
		break;
	case OPT_PLATFORMS:
		rc = list_platforms(c);
		break;
	case OPT_FABRICS:
		rc = list_fabrics(c);
		break;
	case OPT_DEFAULTS:
		rc = list_defaults(c);
		break;
	default:
		rc = list_accels(c);
		break;
	}
	catalog_free(c);
	return rc;
}

/* Shows id when it is a published result; true when it is one or when the
 * ledger could not be read (its problems printed, *rc set). */
static bool show_published_rc(const struct catalog *c, const char *id, int *rc)
{
	struct ledger *l = frontend_load_ledger(c);
	if (!l) {
		*rc = EXIT_BADINPUT;
		return true;
	}
	const struct ledger_entry *e = ledger_find(l, id);
	if (e)
		show_result(e);
	ledger_free(l);
	return e != NULL;
}
#define show_published(c, id) show_published_rc(c, id, &rc)

static int cmd_show(int argc, char **argv)
{
	struct opts o = parse(argc, argv, "show", false);
	if (o.done >= 0)
		return o.done;
	if (optind >= argc) {
		fprintf(stderr, PROG " show: which item? (an id from 'accelsizer catalog list')\n");
		return try_help("show");
	}
	const char *id = argv[optind];
	if (!no_more_args(argc, argv, optind + 1, "show"))
		return try_help("show");
	struct catalog *c = frontend_load_catalog(o.catalog);
	if (!c)
		return EXIT_BADINPUT;
	int rc = EXIT_OK;
	const struct catalog_accel *a;
	const struct catalog_platform *p;
	const struct catalog_fabric *f;
	const struct catalog_model *m;
	if ((a = catalog_accel(c, id))) {
		show_accel(c, a);
	} else if ((p = catalog_platform(c, id))) {
		show_platform(p);
	} else if ((f = catalog_fabric(c, id))) {
		show_fabric(f);
	} else if ((m = catalog_model(c, id))) {
		show_model(m);
	} else if (!strcmp(id, "defaults")) {
		show_defaults(c);
	} else if (show_published(c, id)) {
		;	/* shown, or the ledger's problems printed */
	} else {
		/* near ids of the kinds show shows only: a stack's own id is no typo */
		const char *near = catalog_suggest(c, CATALOG_ACCELERATORS | CATALOG_PLATFORMS | CATALOG_FABRICS |
						      CATALOG_MODELS, id);
		fprintf(stderr, PROG " show: no accelerator, platform, fabric, model or published result '%s'", id);
		if (near)
			fprintf(stderr, "; did you mean '%s'?\n", near);
		else
			fprintf(stderr, " (see 'accelsizer catalog list')\n");
		rc = EXIT_BADINPUT;
	}
	catalog_free(c);
	return rc;
}

static int cmd_check(int argc, char **argv)
{
	struct opts o = parse(argc, argv, "check", false);
	if (o.done >= 0)
		return o.done;
	const char *dir = o.catalog;
	if (optind < argc) {
		if (dir) {
			fprintf(stderr, PROG " check: give the folder either as DIR or with --catalog, "
				"not both\n");
			return try_help("check");
		}
		dir = argv[optind];
		if (!no_more_args(argc, argv, optind + 1, "check"))
			return try_help("check");
	}
	char found[PATH_MAX];
	if (!catalog_find_dir(dir, found, sizeof found)) {
		if (found[0])
			fprintf(stderr, "accelsizer: catalog folder '%s' not found%s\n", found,
				dir ? "" : frontend_dir_origin(NULL));
		else
			fprintf(stderr, "accelsizer: catalog folder path is too long\n");
		return EXIT_BADINPUT;
	}
	struct catalog_errors e;
	struct catalog *c = catalog_load(found, &e);
	if (!c) {
		frontend_print_errors(&e);
		fprintf(stderr, "accelsizer: catalog '%s' is invalid: %zu problem%s%s\n", found, e.n,
			e.n == 1 ? "" : "s", e.truncated ? " shown, more not" : "");
		catalog_errors_fini(&e);
		return EXIT_BADINPUT;
	}
	catalog_errors_fini(&e);
	struct ledger *l = ledger_load(c, &e);
	if (!l) {
		frontend_print_errors(&e);
		fprintf(stderr, "accelsizer: the published results in '%s/published' are invalid: "
			"%zu problem%s%s\n", found, e.n, e.n == 1 ? "" : "s",
			e.truncated ? " shown, more not" : "");
		catalog_errors_fini(&e);
		catalog_free(c);
		return EXIT_BADINPUT;
	}
	catalog_errors_fini(&e);
	size_t u = catalog_count_unconfirmed(c);
	printf("catalog OK: %zu accelerator%s, %zu platform%s, %zu fabric%s, %zu model%s "
	       "(%zu figure%s unconfirmed)\n",
	       c->n_accels, c->n_accels == 1 ? "" : "s", c->n_platforms,
	       c->n_platforms == 1 ? "" : "s", c->n_fabrics, c->n_fabrics == 1 ? "" : "s",
	       c->n_models, c->n_models == 1 ? "" : "s", u, u == 1 ? "" : "s");
	if (l->n_files)
		printf("published results OK: %zu (%zu calibration, %zu validation) in %zu file%s\n",
		       l->n, ledger_count(l, LEDGER_CALIBRATION), ledger_count(l, LEDGER_VALIDATION),
		       l->n_files, l->n_files == 1 ? "" : "s");
	ledger_free(l);
	catalog_free(c);
	return EXIT_OK;
}

int cli_catalog_main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} subs[] = {
		{ "list", cmd_list },
		{ "show", cmd_show },
		{ "check", cmd_check },
	};
	if (argc < 2) {
		fprintf(stderr, PROG ": which command? list, show ID or check [DIR]\n");
		return try_help(NULL);
	}
	const char *sub = argv[1];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(sub, "--version") || !strcmp(sub, "-V")) {
		printf("accelsizer %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (!strcmp(sub, subs[i].name))
			return subs[i].run(argc - 1, argv + 1);
	if (sub[0] == '-')
		fprintf(stderr, PROG ": give a command (list, show ID or check) before '%s'\n", sub);
	else
		fprintf(stderr, PROG ": unknown command '%s' (list, show ID or check [DIR])\n", sub);
	return try_help(NULL);
}
