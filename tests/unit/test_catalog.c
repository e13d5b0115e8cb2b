/*
 * Unit tests for ytree (the bounded YAML reader) and the catalog: the good
 * fixture catalog loads with the figures its files hold, and each malformed
 * fixture (tests/fixtures/catalog/bad/, made by make-bad.sh) is refused with
 * exactly the message a user would need to fix it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "fixture.h"
#include "tap.h"
#include "ytree.h"

/* Paths in these tests stay well under 1 KiB; the buffers leave room. */
#define SHORT 1024
#define LONG 4096
static char fixtures[SHORT];

static const char *fixture(const char *name)
{
	static char buf[SHORT + 256];
	snprintf(buf, sizeof buf, "%s/%.250s", fixtures, name);
	return buf;
}

/* ---- ytree ---- */

static struct ytree *parse(const char *text, char *err, size_t errsz)
{
	return ytree_parse_string("t.yaml", text, strlen(text), err, errsz);
}

/* Parses text expecting failure; returns the message. */
static const char *parse_error(const char *text)
{
	static char err[512];
	struct ytree *t = parse(text, err, sizeof err);
	ck_assert_msg(t == NULL, "expected an error for: %s", text);
	ytree_free(t);
	return err;
}

START_TEST(ytree_positions)
{
	char err[256];
	struct ytree *t = parse("# comment\nname: x\nlist:\n  - 1\n  - \"two\"\nmap: {a: b}\n",
				err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	const struct ynode *r = t->root;
	ck_assert_int_eq(r->kind, YN_MAP);
	ck_assert_uint_eq(r->n, 3);
	ck_assert_int_eq(r->line, 2);
	ck_assert_int_eq(r->col, 1);
	const struct ynode *name = ytree_get(r, "name");
	ck_assert_str_eq(name->scalar, "x");
	ck_assert_int_eq(name->line, 2);
	ck_assert_int_eq(name->col, 7);
	const struct ynode *list = ytree_get(r, "list");
	ck_assert_int_eq(list->kind, YN_SEQ);
	ck_assert_uint_eq(list->n, 2);
	ck_assert(list->items[0]->plain);
	ck_assert(!list->items[1]->plain);
	ck_assert_str_eq(list->items[1]->scalar, "two");
	ck_assert_int_eq(list->items[1]->line, 5);
	ck_assert_int_eq(list->items[1]->col, 5);
	const struct ynode *map = ytree_get(r, "map");
	ck_assert_int_eq(map->kind, YN_MAP);
	ck_assert_str_eq(ytree_get(map, "a")->scalar, "b");
	ck_assert_ptr_null(ytree_get(r, "missing"));
	ck_assert_ptr_null(ytree_get(name, "x"));
	ck_assert_str_eq(t->path, "t.yaml");
	ytree_free(t);
}
END_TEST

START_TEST(ytree_empty_documents)
{
	char err[256];
	const char *empty[] = { "", "# only a comment\n", "---\n", "\n\n" };
	for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
		struct ytree *t = parse(empty[i], err, sizeof err);
		ck_assert_msg(t != NULL, "%s", err);
		ck_assert_ptr_null(t->root);
		ytree_free(t);
	}
}
END_TEST

START_TEST(ytree_depth_limit)
{
	/* The root counts as one level: 32 nested lists are the limit. */
	char text[200];
	memset(text, '[', 32);
	memset(text + 32, ']', 32);
	text[64] = '\0';
	char err[256];
	struct ytree *t = parse(text, err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	ytree_free(t);
	memset(text, '[', 33);
	memset(text + 33, ']', 33);
	text[66] = '\0';
	ck_assert_str_eq(parse_error(text), "t.yaml:1:33: nesting deeper than 32 levels");
	/* Far deeper input stops at the limit rather than recursing. */
	char deep[20001];
	memset(deep, '[', 20000);
	deep[20000] = '\0';
	ck_assert_str_eq(parse_error(deep), "t.yaml:1:33: nesting deeper than 32 levels");
}
END_TEST

START_TEST(ytree_alias_refused)
{
	ck_assert_str_eq(parse_error("a: &x 1\nb: *x\n"), "t.yaml:2:4: aliases are not supported");
	ck_assert_str_eq(parse_error("base: &b {x: 1}\nmore:\n  <<: *b\n"),
			 "t.yaml:3:7: aliases are not supported");
}
END_TEST

START_TEST(ytree_non_utf8)
{
	ck_assert_str_eq(parse_error("a: 1\nname: h\xc3\xa9llo \xff\n"),
			 "t.yaml:2:13: invalid UTF-8 byte 0xff (the file must be UTF-8 text)");
	/* An overlong encoding of '/' and a UTF-16 surrogate are not UTF-8. */
	ck_assert_str_eq(parse_error("a: \xc0\xaf\n"),
			 "t.yaml:1:4: invalid UTF-8 byte 0xc0 (the file must be UTF-8 text)");
	ck_assert_str_eq(parse_error("a: \xed\xa0\x80\n"),
			 "t.yaml:1:4: invalid UTF-8 byte 0xed (the file must be UTF-8 text)");
	/* A truncated sequence at the very end. */
	ck_assert_str_eq(parse_error("a: \xe2\x82"),
			 "t.yaml:1:4: invalid UTF-8 byte 0xe2 (the file must be UTF-8 text)");
	char err[256];
	struct ytree *t = parse("a: \xe2\x82\xac 5\n", err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	ck_assert_str_eq(ytree_get(t->root, "a")->scalar, "\xe2\x82\xac 5");
	ytree_free(t);
}
END_TEST

START_TEST(ytree_duplicate_key)
{
	ck_assert_str_eq(parse_error("a: 1\nb: 2\na: 3\n"),
			 "t.yaml:3:1: duplicate key 'a' (first at line 1)");
	ck_assert_str_eq(parse_error("x:\n  k: 1\n  j: 2\n  k: 3\n  j: 4\n"),
			 "t.yaml:4:3: duplicate key 'k' (first at line 2)");
	/* The same key in different mappings is fine. */
	char err[256];
	struct ytree *t = parse("a: {k: 1}\nb: {k: 2}\n", err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	ytree_free(t);
}
END_TEST

START_TEST(ytree_syntax_and_documents)
{
	ck_assert_str_eq(parse_error("a: b: c\n"),
			 "t.yaml:1:5: mapping values are not allowed in this context");
	ck_assert_str_eq(parse_error("a: 1\n---\nb: 2\n"),
			 "t.yaml:2:1: a second YAML document is not supported (one document per file)");
	ck_assert_str_eq(parse_error("? [a]\n: 1\n"),
			 "t.yaml:1:3: a mapping key must be a plain value, not a list");
	ck_assert_str_eq(parse_error("a: \"x\\0y\"\n"),
			 "t.yaml:1:4: a NUL character inside a value is not supported");
	ck_assert_str_eq(parse_error("a: 1\x01\n"),
			 "t.yaml:1:5: control characters are not allowed (character 0x1)");
}
END_TEST

static char tmpdir[SHORT];

static void make_tmpdir(void)
{
	ck_assert(fixture_tmpdir(tmpdir, sizeof tmpdir, "accelsizer-unit"));
}

START_TEST(ytree_files)
{
	make_tmpdir();
	char err[LONG], path[SHORT + 64], want[LONG];
	/* A directory. */
	ck_assert_ptr_null(ytree_parse_file(tmpdir, err, sizeof err));
	snprintf(want, sizeof want, "%s: is a directory, not a YAML file", tmpdir);
	ck_assert_str_eq(err, want);
	/* A missing file. */
	snprintf(path, sizeof path, "%s/none.yaml", tmpdir);
	ck_assert_ptr_null(ytree_parse_file(path, err, sizeof err));
	snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
	ck_assert_str_eq(err, want);
	/* A FIFO: refused at once, not waited on. */
	snprintf(path, sizeof path, "%s/fifo.yaml", tmpdir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_ptr_null(ytree_parse_file(path, err, sizeof err));
	snprintf(want, sizeof want, "%s: not a regular file", path);
	ck_assert_str_eq(err, want);
	/* One byte over the size limit (a sparse file: nothing is written). */
	snprintf(path, sizeof path, "%s/big.yaml", tmpdir);
	int fd = open(path, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, YTREE_MAX_BYTES + 1), 0);
	close(fd);
	ck_assert_ptr_null(ytree_parse_file(path, err, sizeof err));
	snprintf(want, sizeof want, "%s: file is too large (%ld bytes, the limit is %ld)", path,
		 (long)YTREE_MAX_BYTES + 1, (long)YTREE_MAX_BYTES);
	ck_assert_str_eq(err, want);
	/* A good file, and an error written nowhere does not crash. */
	snprintf(path, sizeof path, "%s/ok.yaml", tmpdir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("k: v\n", f);
	fclose(f);
	struct ytree *t = ytree_parse_file(path, NULL, 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(ytree_get(t->root, "k")->scalar, "v");
	ytree_free(t);
	ck_assert_ptr_null(ytree_parse_file(tmpdir, NULL, 0));
	fixture_remove_tree(tmpdir);
}
END_TEST

START_TEST(ytree_scalars)
{
	char err[256], buf[80];
	struct ytree *t = parse("i: 42\nneg: -7\nf: 3.35\ne: 1e3\ndot: .5\nq: \"80\"\nhex: 0x10\n"
				"inf: .inf\nword: fast\nt: true\nn: null\nempty:\nbig: 1e999\n"
				"long: 123456789012345678901234567890\nlist: [1]\n",
				err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	const struct ynode *r = t->root;
	double d = -1;
	long l = -1;
	bool b = false;
	ck_assert(ynode_number(ytree_get(r, "i"), &d) && d == 42);
	ck_assert(ynode_integer(ytree_get(r, "i"), &l) && l == 42);
	ck_assert(ynode_integer(ytree_get(r, "neg"), &l) && l == -7);
	ck_assert(ynode_number(ytree_get(r, "f"), &d) && d == 3.35);
	ck_assert(!ynode_integer(ytree_get(r, "f"), &l));
	ck_assert(ynode_number(ytree_get(r, "e"), &d) && d == 1000);
	ck_assert(ynode_number(ytree_get(r, "dot"), &d) && d == 0.5);
	ck_assert(!ynode_number(ytree_get(r, "q"), &d));	/* quoted: a string */
	ck_assert(!ynode_number(ytree_get(r, "hex"), &d));
	ck_assert(!ynode_number(ytree_get(r, "inf"), &d));
	ck_assert(!ynode_number(ytree_get(r, "word"), &d));
	ck_assert(!ynode_number(ytree_get(r, "big"), &d));
	ck_assert(!ynode_integer(ytree_get(r, "long"), &l));
	ck_assert(!ynode_number(ytree_get(r, "list"), &d));
	ck_assert(ynode_bool(ytree_get(r, "t"), &b) && b);
	ck_assert(!ynode_bool(ytree_get(r, "word"), &b));
	ck_assert(ynode_is_null(ytree_get(r, "n")));
	ck_assert(ynode_is_null(ytree_get(r, "empty")));
	ck_assert(ynode_is_null(NULL));
	ck_assert(!ynode_is_null(ytree_get(r, "word")));
	ck_assert_str_eq(ynode_describe(ytree_get(r, "word"), buf, sizeof buf), "'fast'");
	ck_assert_str_eq(ynode_describe(ytree_get(r, "q"), buf, sizeof buf), "the string \"80\"");
	ck_assert_str_eq(ynode_describe(ytree_get(r, "list"), buf, sizeof buf), "a list");
	ck_assert_str_eq(ynode_describe(r, buf, sizeof buf), "a mapping");
	ck_assert_str_eq(ynode_describe(ytree_get(r, "empty"), buf, sizeof buf), "nothing");
	ck_assert_str_eq(ynode_describe(ytree_get(r, "n"), buf, sizeof buf), "null");
	ytree_free(t);
}
END_TEST

START_TEST(ytree_format_error_position)
{
	char err[256], buf[256];
	struct ytree *t = parse("a:\n  b: x\n", err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	const struct ynode *b = ytree_get(ytree_get(t->root, "a"), "b");
	ytree_format_error(buf, sizeof buf, t->path, b, "bad value '%s'", b->scalar);
	ck_assert_str_eq(buf, "t.yaml:2:6: bad value 'x'");
	ytree_format_error(buf, sizeof buf, t->path, NULL, "whole file");
	ck_assert_str_eq(buf, "t.yaml: whole file");
	ytree_free(t);
}
END_TEST

/* ---- the good fixture ---- */

static struct catalog *load_good(void)
{
	struct catalog_errors e;
	struct catalog *c = catalog_load(fixture("good"), &e);
	ck_assert_msg(c != NULL, "good fixture refused: %s", e.n ? e.msg[0] : "?");
	ck_assert_uint_eq(e.n, 0);
	catalog_errors_fini(&e);
	return c;
}

START_TEST(good_counts_and_order)
{
	struct catalog *c = load_good();
	ck_assert_uint_eq(c->n_accels, 3);
	ck_assert_uint_eq(c->n_platforms, 4);
	ck_assert_uint_eq(c->n_fabrics, 1);
	ck_assert_uint_eq(c->n_models, 3);
	/* Sorted by id, whatever order the folder lists. */
	ck_assert_str_eq(c->accels[0].id, "h100-sxm");
	ck_assert_str_eq(c->accels[1].id, "l40s");
	ck_assert_str_eq(c->accels[2].id, "mi300x");
	ck_assert_str_eq(c->models[0].id, "deepseek-v3");
	ck_assert_str_eq(c->platforms[3].id, "pcie-l40s-8");
	ck_assert_str_eq(c->dir, fixture("good"));
	catalog_free(c);
}
END_TEST

START_TEST(good_accelerator_figures)
{
	struct catalog *c = load_good();
	const struct catalog_accel *a = catalog_accel(c, "h100-sxm");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->name, "NVIDIA H100 SXM5 80GB");
	ck_assert_str_eq(a->vendor, "NVIDIA");
	ck_assert_str_eq(a->architecture, "Hopper");
	ck_assert_int_eq(a->form, FORM_SXM);
	ck_assert_double_eq(a->mem_gb, 80);
	ck_assert_str_eq(a->mem_type, "HBM3");
	ck_assert_double_eq(a->mem_bw_tb_s, 3.35);
	ck_assert_double_eq(a->mem_usable_fraction, 0.9);
	ck_assert_double_eq(a->peak_tflops[PREC_BF16], 989);
	ck_assert_double_eq(a->peak_tflops[PREC_FP8], 1979);
	ck_assert_double_eq(a->peak_tflops[PREC_TF32], 494.5);
	ck_assert_double_eq(a->peak_tflops[PREC_FP64], 67);
	ck_assert_double_eq(a->peak_tflops[PREC_FP4], 0);	/* absent = unsupported */
	ck_assert_double_eq(a->peak_tflops[PREC_FP32], 0);
	ck_assert_str_eq(a->link_kind, "NVLink4");
	ck_assert_double_eq(a->link_gb_s, 900);
	ck_assert_int_eq(a->link_domain, 8);
	ck_assert_str_eq(a->host_interface, "PCIe Gen5 x16");
	ck_assert_double_eq(a->power_w, 700);
	ck_assert_uint_eq(a->n_partitions, 2);
	ck_assert_str_eq(a->partitions[0].profile, "1g.10gb");
	ck_assert_double_eq(a->partitions[0].memory_gb, 10);
	ck_assert_int_eq(a->partitions[0].compute_slices, 1);
	ck_assert_int_eq(a->partitions[0].max_per_gpu, 7);
	ck_assert_int_eq(a->partitions[1].compute_slices, 7);
	ck_assert_int_eq(a->stack, STACK_CUDA);
	ck_assert_double_eq(a->eff_compute.value, 0.5);
	ck_assert_str_eq(a->eff_compute.source, "fixture: compute efficiency");
	ck_assert_double_eq(a->eff_mem_bw.value, 0.8);
	ck_assert_double_eq(a->eff_link.value, 0.65);
	ck_assert_double_eq(a->eff_training.value, 0.4);
	ck_assert_double_eq(a->price.usd, 30000);
	ck_assert_str_eq(a->price.date, "2024-06");
	ck_assert_str_eq(a->price.source, "fixture price");
	ck_assert_uint_eq(a->n_sources, 2);
	ck_assert_str_eq(a->sources[1], "unconfirmed: fp64 tensor figure");
	ck_assert_int_eq(a->line, 1);
	char want[LONG];
	snprintf(want, sizeof want, "%s/accelerators/h100-sxm.yaml", fixture("good"));
	ck_assert_str_eq(a->file, want);

	const struct catalog_accel *l = catalog_accel(c, "l40s");
	ck_assert_int_eq(l->form, FORM_PCIE);
	ck_assert_double_eq(l->peak_tflops[PREC_FP64], 0);
	ck_assert_double_eq(l->eff_training.value, 0);	/* optional, absent */
	ck_assert_ptr_null(l->eff_training.source);
	ck_assert_str_eq(l->price.date, "2024-06");	/* unquoted date is text */
	const struct catalog_accel *m = catalog_accel(c, "mi300x");
	ck_assert_int_eq(m->stack, STACK_ROCM);
	ck_assert_int_eq(m->form, FORM_OAM);
	ck_assert_double_eq(m->eff_compute.value, 0.45);	/* flow mapping */
	ck_assert_double_eq(m->mem_addressable_gb, 205.8);	/* optional, given */
	ck_assert_double_eq(l->mem_addressable_gb, 0);	/* optional, absent */
	ck_assert_double_eq(m->host_pcie_gb_s, 128);
	ck_assert_double_eq(l->host_pcie_gb_s, 0);
	ck_assert_double_eq(m->price.usd, 0);
	ck_assert_uint_eq(m->n_sources, 1);
	catalog_free(c);
}
END_TEST

START_TEST(good_platforms_fabrics)
{
	struct catalog *c = load_good();
	const struct catalog_platform *p = catalog_platform(c, "hgx-h100-8");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_eq(p->accel, catalog_accel(c, "h100-sxm"));
	ck_assert_str_eq(p->accel_id, "h100-sxm");
	ck_assert_int_eq(p->gpus_per_node, 8);
	ck_assert_int_eq(p->topology, TOPO_SWITCHED);
	ck_assert_int_eq(p->nic_count, 8);
	ck_assert_double_eq(p->nic_gbit, 400);
	ck_assert_str_eq(p->nic_kind, "ConnectX-7");
	ck_assert_int_eq(p->rack_units, 8);
	ck_assert_double_eq(p->max_power_w, 10200);
	ck_assert_str_eq(p->sku, "HGX-H100-8");
	ck_assert_double_eq(p->price.usd, 100000);
	ck_assert_uint_eq(p->n_bom, 2);
	ck_assert_str_eq(p->bom[1].sku, "NIC-CX7");
	ck_assert_str_eq(p->bom[1].category, "network");
	ck_assert_str_eq(p->bom[1].description, "ConnectX-7 400G");
	ck_assert_int_eq(p->bom[1].qty, 8);
	ck_assert_double_eq(p->bom[1].unit_price_usd, 2000);
	ck_assert_double_eq(p->bom[1].power_w, 25);
	ck_assert_int_eq(catalog_platform(c, "mi300x-8")->topology, TOPO_MESH);
	/* whole_rack: optional, false when absent or written false */
	ck_assert(catalog_platform(c, "mi300x-8")->whole_rack);
	ck_assert(!catalog_platform(c, "pcie-l40s-8")->whole_rack);
	ck_assert(!catalog_platform(c, "pcie-l40s-4")->whole_rack);
	/* nics.on_accelerator: optional, false when absent */
	ck_assert(catalog_platform(c, "pcie-l40s-8")->nics_on_accel);
	ck_assert(!catalog_platform(c, "mi300x-8")->nics_on_accel);
	ck_assert(!catalog_platform(c, "hgx-h100-8")->nics_on_accel);
	ck_assert_uint_eq(catalog_platform(c, "mi300x-8")->n_bom, 0);

	const struct catalog_fabric *f = catalog_fabric(c, "ib-ndr");
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->kind, "infiniband");
	ck_assert_double_eq(f->port_gbit, 400);
	ck_assert_str_eq(f->switch_name, "Quantum-2 QM9700");
	ck_assert_int_eq(f->switch_radix, 64);
	ck_assert_int_eq(f->switch_rack_units, 1);
	ck_assert_double_eq(f->switch_power_w, 1720);
	ck_assert_double_eq(f->switch_price_usd, 30000);
	ck_assert_double_eq(f->cable_price_usd, 1500);
	ck_assert_double_eq(f->cable_power_w, 17);
	ck_assert_str_eq(f->nic_sku, "CX7-400G");
	ck_assert_double_eq(f->nic_price_usd, 2000);
	ck_assert_double_eq(f->efficiency.value, 0.85);
	ck_assert_double_eq(f->latency_us, 5);
	catalog_free(c);
}
END_TEST

START_TEST(good_models_defaults)
{
	struct catalog *c = load_good();
	const struct catalog_model *m = catalog_model(c, "llama-3-8b");
	ck_assert_ptr_nonnull(m);
	ck_assert_double_eq_tol(m->params, 8.03e9, 1);	/* params_b is in billions */
	ck_assert_double_eq(m->active_params, m->params);	/* dense: = params */
	ck_assert_int_eq(m->layers, 32);
	ck_assert_int_eq(m->hidden, 4096);
	ck_assert_int_eq(m->heads, 32);
	ck_assert_int_eq(m->kv_heads, 8);
	ck_assert_int_eq(m->head_dim, 128);
	ck_assert_int_eq(m->ffn, 14336);
	ck_assert_int_eq(m->vocab, 128256);
	ck_assert_int_eq(m->max_context, 8192);
	ck_assert_int_eq(m->experts, 0);
	ck_assert_int_eq(m->sliding_window, 0);
	const struct catalog_model *x = catalog_model(c, "mixtral-8x7b");
	ck_assert_double_eq_tol(x->active_params, 12.9e9, 1);
	ck_assert_int_eq(x->experts, 8);
	ck_assert_int_eq(x->experts_active, 2);
	ck_assert_int_eq(x->sliding_window, 4096);
	ck_assert_int_eq(x->sliding_layers, 0);
	const struct catalog_model *d = catalog_model(c, "deepseek-v3");
	ck_assert_int_eq(d->mla_kv_lora_rank, 512);
	ck_assert_int_eq(d->mla_qk_rope_head_dim, 64);
	ck_assert_int_eq(d->max_context, 163840);

	ck_assert_str_eq(c->defaults.version, "fixture-1");
	ck_assert_double_eq(c->defaults.pue.value, 1.3);
	ck_assert_str_eq(c->defaults.pue.source, "fixture pue");
	ck_assert_double_eq(c->defaults.nf4_bits.value, 4.127);
	ck_assert_double_eq(c->defaults.max_tp.value, 8);
	ck_assert_double_eq(c->defaults.spare_nodes.value, 0);
	ck_assert_double_eq(c->defaults.training_overlap.value, 0.5);
	ck_assert_double_eq(c->defaults.pcie_efficiency.value, 0.75);
	ck_assert_double_eq(c->defaults.burn_in_usd_per_node.value, 1200);
	/* h100-sxm: one source and efficiency.link; hgx-h100-8: one BOM line. */
	ck_assert_uint_eq(catalog_count_unconfirmed(c), 3);
	catalog_free(c);
}
END_TEST

START_TEST(lookups)
{
	struct catalog *c = load_good();
	ck_assert_ptr_null(catalog_accel(c, "h100"));
	ck_assert_ptr_null(catalog_accel(c, NULL));
	ck_assert_ptr_null(catalog_platform(c, "h100-sxm"));	/* kinds apart */
	ck_assert_ptr_null(catalog_model(NULL, "x"));
	ck_assert_str_eq(catalog_suggest(c, CATALOG_ANY, "h100-sxn"), "h100-sxm");
	ck_assert_str_eq(catalog_suggest(c, CATALOG_ANY, "l40"), "l40s");
	ck_assert_str_eq(catalog_suggest(c, CATALOG_MODELS, "lama-3-8b"), "llama-3-8b");
	ck_assert_ptr_null(catalog_suggest(c, CATALOG_MODELS, "h100-sxn"));
	ck_assert_ptr_null(catalog_suggest(c, CATALOG_ANY, "something-else"));
	ck_assert_int_eq(catalog_edit_distance("bandwith", "bandwidth", 9), 1);
	ck_assert_int_eq(catalog_edit_distance("bandwdith", "bandwidth", 9), 1);

	const struct catalog_platform *ps[8];
	size_t n = catalog_platforms_for(c, catalog_accel(c, "l40s"), ps, 8);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(ps[0]->id, "pcie-l40s-4");
	ck_assert_str_eq(ps[1]->id, "pcie-l40s-8");
	ck_assert_uint_eq(catalog_platforms_for(c, catalog_accel(c, "l40s"), ps, 1), 1);
	ck_assert_uint_eq(catalog_platforms_for(c, catalog_accel(c, "mi300x"), ps, 8), 1);
	catalog_free(c);
}
END_TEST

START_TEST(platforms_sorted_by_size)
{
	/* A catalog built by hand, platforms in no particular order: the
	 * smallest node comes first, ties by id. */
	struct catalog_accel a = { .id = "gpu" };
	struct catalog_platform p[4] = {
		{ .id = "big", .accel = &a, .gpus_per_node = 8 },
		{ .id = "other", .accel_id = "x", .gpus_per_node = 1 },
		{ .id = "small-b", .accel_id = "gpu", .gpus_per_node = 2 },
		{ .id = "small-a", .accel = &a, .gpus_per_node = 2 },
	};
	struct catalog c = { .accels = &a, .n_accels = 1, .platforms = p, .n_platforms = 4 };
	const struct catalog_platform *out[4];
	ck_assert_uint_eq(catalog_platforms_for(&c, &a, out, 4), 3);
	ck_assert_str_eq(out[0]->id, "small-a");
	ck_assert_str_eq(out[1]->id, "small-b");
	ck_assert_str_eq(out[2]->id, "big");
}
END_TEST

START_TEST(enums)
{
	static const struct {
		enum precision p;
		const char *name;
		double bytes;
	} prec[] = {
		{ PREC_FP32, "fp32", 4 }, { PREC_BF16, "bf16", 2 }, { PREC_FP16, "fp16", 2 },
		{ PREC_FP8, "fp8", 1 },   { PREC_INT8, "int8", 1 }, { PREC_INT4, "int4", 0.5 },
		{ PREC_FP4, "fp4", 0.5 }, { PREC_TF32, "tf32", 4 }, { PREC_FP64, "fp64", 8 },
	};
	for (size_t i = 0; i < sizeof prec / sizeof prec[0]; i++) {
		enum precision p;
		ck_assert_str_eq(precision_name(prec[i].p), prec[i].name);
		ck_assert(precision_parse(prec[i].name, &p));
		ck_assert_int_eq(p, prec[i].p);
		ck_assert_double_eq(precision_bytes(prec[i].p), prec[i].bytes);
	}
	enum precision p = PREC_FP32;
	ck_assert(precision_parse("FP8", &p) && p == PREC_FP8);
	ck_assert(!precision_parse("fp12", &p));
	ck_assert(!precision_parse(NULL, &p));
	ck_assert_int_eq(p, PREC_FP8);		/* untouched on failure */
	ck_assert_str_eq(precision_name(PREC_COUNT), "?");

	const char *forms[] = { "sxm", "oam", "pcie", "superchip" };
	for (int i = 0; i < FORM_COUNT; i++) {
		enum form_factor f;
		ck_assert_str_eq(form_factor_name((enum form_factor)i), forms[i]);
		ck_assert(form_factor_parse(forms[i], &f) && (int)f == i);
	}
	const char *stacks[] = { "cuda", "rocm", "gaudi" };
	for (int i = 0; i < STACK_COUNT; i++) {
		enum stack s;
		ck_assert_str_eq(stack_name((enum stack)i), stacks[i]);
		ck_assert(stack_parse(stacks[i], &s) && (int)s == i);
	}
	const char *topos[] = { "switched", "mesh", "bridged-pairs", "pcie" };
	for (int i = 0; i < TOPO_COUNT; i++) {
		enum topology t;
		ck_assert_str_eq(topology_name((enum topology)i), topos[i]);
		ck_assert(topology_parse(topos[i], &t) && (int)t == i);
	}
	enum form_factor f;
	enum stack s;
	enum topology t;
	ck_assert(!form_factor_parse("nvl", &f));
	ck_assert(!stack_parse("opencl", &s));
	ck_assert(!topology_parse("ring", &t));
	ck_assert(catalog_source_unconfirmed("unconfirmed: x"));
	ck_assert(catalog_source_unconfirmed("  unconfirmed: x"));
	ck_assert(!catalog_source_unconfirmed("confirmed"));
	ck_assert(!catalog_source_unconfirmed(NULL));
}
END_TEST

START_TEST(find_dir_order)
{
	char buf[PATH_MAX];
	make_tmpdir();
	char xdg[LONG], dir[LONG];
	snprintf(xdg, sizeof xdg, "%s/xdg", tmpdir);
	snprintf(dir, sizeof dir, "%s/xdg/accelsizer/catalog", tmpdir);
	char cmd[2 * LONG];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);

	/* The flag wins, even when it names no folder. */
	setenv("ACCELSIZER_CATALOG", fixture("good"), 1);
	ck_assert(catalog_find_dir(tmpdir, buf, sizeof buf));
	ck_assert_str_eq(buf, tmpdir);
	ck_assert(!catalog_find_dir("/nonexistent/catalog", buf, sizeof buf));
	ck_assert_str_eq(buf, "/nonexistent/catalog");
	/* Then $ACCELSIZER_CATALOG, also when it is wrong. */
	ck_assert(catalog_find_dir(NULL, buf, sizeof buf));
	ck_assert_str_eq(buf, fixture("good"));
	setenv("ACCELSIZER_CATALOG", "/nonexistent/env", 1);
	ck_assert(!catalog_find_dir(NULL, buf, sizeof buf));
	ck_assert_str_eq(buf, "/nonexistent/env");
	/* Then the user's config folder, when it exists. */
	unsetenv("ACCELSIZER_CATALOG");
	setenv("XDG_CONFIG_HOME", xdg, 1);
	ck_assert(catalog_find_dir("", buf, sizeof buf));
	ck_assert_str_eq(buf, dir);
	/* Otherwise the source tree of this uninstalled build. */
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	ck_assert(catalog_find_dir(NULL, buf, sizeof buf));
	char src[PATH_MAX], want[PATH_MAX];
	ck_assert_ptr_nonnull(realpath(ABS_TOP_SRCDIR "/catalog", src));
	snprintf(want, sizeof want, "%s", src);
	ck_assert_str_eq(buf, want);
	/* A buffer too small for the path is a failure, not a cut path. */
	ck_assert(!catalog_find_dir(fixture("good"), buf, 8));
	unsetenv("XDG_CONFIG_HOME");
	fixture_remove_tree(tmpdir);
}
END_TEST

/* ---- malformed catalogs ---- */

#define MAX_EXPECT 6
static const struct bad_case {
	const char *name;
	const char *expect[MAX_EXPECT];
} bad_cases[] = {
	{ "syntax-error",
	  { "accelerators/l40s.yaml:2:13: mapping values are not allowed in this context" } },
	{ "empty-file", { "models/llama-3-8b.yaml: the file is empty (expected a model mapping)" } },
	{ "top-level-list",
	  { "fabrics/ib-ndr.yaml:1:1: expected a mapping of keys at the top of the file, got a list" } },
	{ "unknown-key-typo",
	  { "accelerators/h100-sxm.yaml:10:3: unknown key 'bandwith_tb_s'; did you mean 'bandwidth_tb_s'?" } },
	{ "top-key-typo",
	  { "accelerators/l40s.yaml:3:1: unknown key 'vendr'; did you mean 'vendor'?" } },
	{ "unknown-key", { "accelerators/l40s.yaml:24:1: unknown key 'colour'" } },
	{ "dotted-key",
	  { "accelerators/l40s.yaml:24:1: unknown key 'peak_tflops.fp4' (nest it: 'peak_tflops:' then 'fp4:' indented below)" } },
	{ "missing-key", { "accelerators/h100-sxm.yaml:8:3: missing required key 'memory.type'" } },
	{ "missing-top-key", { "accelerators/l40s.yaml:1:1: missing required key 'stack'" } },
	{ "missing-group", { "accelerators/l40s.yaml:1:1: missing required key 'link'" } },
	{ "no-bf16", { "accelerators/h100-sxm.yaml:13:3: missing required key 'peak_tflops.bf16'" } },
	{ "not-a-number",
	  { "accelerators/h100-sxm.yaml:10:19: memory.bandwidth_tb_s: expected a number, got 'fast'" } },
	{ "quoted-number",
	  { "accelerators/h100-sxm.yaml:8:16: memory.capacity_gb: expected a number, got the string \"80\"" } },
	{ "not-an-integer",
	  { "platforms/hgx-h100-8.yaml:4:16: gpus_per_node: expected an integer, got '8.5'" } },
	{ "wrong-type-string",
	  { "accelerators/l40s.yaml:3:9: vendor: expected a string, got a mapping" } },
	{ "negative-power",
	  { "accelerators/h100-sxm.yaml:24:10: power_w must be in [1, 100000], got -700" } },
	{ "power-too-high",
	  { "accelerators/h100-sxm.yaml:24:10: power_w must be in [1, 100000], got 150000" } },
	{ "absurd-memory",
	  { "accelerators/h100-sxm.yaml:8:16: memory.capacity_gb must be in [1, 10000], got 20000" } },
	{ "efficiency-over-one",
	  { "accelerators/h100-sxm.yaml:29:12: efficiency.compute.value must be in [0.01, 1], got 1.5" } },
	{ "usable-fraction-zero",
	  { "accelerators/l40s.yaml:10:20: memory.usable_fraction must be in [0.05, 1], got 0" } },
	{ "addressable-too-low",
	  { "accelerators/mi300x.yaml:11:19: memory.addressable_gb 150 must be between 0.9 and 1.2 x memory.capacity_gb 192 (172.8 to 230.4 GB)" } },
	{ "addressable-too-high",
	  { "accelerators/mi300x.yaml:11:19: memory.addressable_gb 240 must be between 0.9 and 1.2 x memory.capacity_gb 192 (172.8 to 230.4 GB)" } },
	{ "ar-curve-order",
	  { "accelerators/mi300x.yaml:27:7: link.allreduce_curve.points: point 2's bytes 1024 must be larger than the point before's (2048)" } },
	{ "host-pcie-zero",
	  { "accelerators/mi300x.yaml:24:17: host_pcie_gb_s must be in [1, 2048], got 0" } },
	{ "bad-enum",
	  { "accelerators/h100-sxm.yaml:6:14: form_factor: expected one of sxm, oam, pcie, superchip, got 'xsm'" } },
	{ "sourced-not-mapping",
	  { "accelerators/mi300x.yaml:29:12: efficiency.compute: expected a mapping (keys: value, source, calibrated_from), got '0.45'" } },
	{ "empty-sources",
	  { "accelerators/mi300x.yaml:36:10: sources: the list is empty; name at least one source" } },
	{ "bad-date",
	  { "accelerators/h100-sxm.yaml:42:9: price.date: expected a date like 2024-06 or 2024-06-30, got the string \"June 2024\"" } },
	{ "id-mismatch",
	  { "accelerators/h100-sxm.yaml:2:5: id 'h100' does not match the file name (expected 'h100-sxm')" } },
	{ "bad-id-chars",
	  { "accelerators/L40S.yaml:1:5: id 'L40S' may only use a-z, 0-9, '-', '.' and '_' (starting with a letter or digit, at most 64)" } },
	{ "duplicate-id",
	  { "models/l40s.yaml:1:5: id 'l40s' is already used by accelerators/l40s.yaml (ids are unique across the catalog)" } },
	{ "unknown-accelerator",
	  { "platforms/hgx-h100-8.yaml:3:14: unknown accelerator 'h100-sxmm'; did you mean 'h100-sxm'?" } },
	{ "bad-bom-category",
	  { "platforms/hgx-h100-8.yaml:20:15: category: expected one of accelerator, server, network, cable, rack, power, support, service, got 'cpu'" } },
	{ "bom-line-missing-key", { "platforms/hgx-h100-8.yaml:26:5: missing required key 'sku'" } },
	{ "power-below-gpus",
	  { "platforms/hgx-h100-8.yaml:12:14: max_power_w 5000 is less than the node's accelerators and BOM lines draw (8 x 700 W + 900 W)" } },
	{ "partition-too-big",
	  { "accelerators/h100-sxm.yaml:25:14: partitions: 7 x 20 GB of profile '1g.10gb' is 140 GB, more than 1.2 x memory.capacity_gb 80" } },
	{ "partition-slices",
	  { "accelerators/h100-sxm.yaml:25:14: partitions: 7 x 2 compute slices of profile '1g.10gb' is more than the largest profile's 7" } },
	{ "partition-twice",
	  { "accelerators/h100-sxm.yaml:25:84: partitions: profile '1g.10gb' is listed twice" } },
	{ "partition-missing-key", { "accelerators/h100-sxm.yaml:25:84: missing required key 'memory_gb'" } },
	{ "cooling-bad",
	  { "platforms/pcie-l40s-8.yaml:23:10: cooling: expected one of air, liquid, got 'water'" } },
	{ "whole-rack-not-bool",
	  { "platforms/pcie-l40s-8.yaml:22:13: whole_rack: expected true or false, got the string \"yes\"" } },
	/* the fabric rule is a list of kinds, each once */
	{ "nics-fabrics-bad",
	  { "platforms/hgx-h100-8.yaml:10:12: nics.fabrics: 'token-ring' is not a fabric kind (expected infiniband or ethernet)" } },
	{ "nics-fabrics-twice",
	  { "platforms/hgx-h100-8.yaml:10:12: nics.fabrics: 'ethernet' is listed twice" } },
	{ "nics-on-accelerator-not-bool",
	  { "platforms/pcie-l40s-8.yaml:11:19: nics.on_accelerator: expected true or false, got '1'" } },
	/* The engine refuses a hidden size past 1e6 (its bound for a custom
	 * model); the catalog shares that table, so it refuses it too. */
	{ "hidden-too-large",
	  { "models/llama-3-8b.yaml:6:14: hidden_size must be in [1, 1000000], got 2000000" } },
	{ "active-over-params",
	  { "models/mixtral-8x7b.yaml:5:18: active_params_b is larger than params_b" } },
	{ "dense-layers-no-width",
	  { "models/mixtral-8x7b.yaml:17:17: experts.dense_layers needs experts.dense_ffn_size (their FFN width)" } },
	{ "dense-layers-all",
	  { "models/mixtral-8x7b.yaml:17:17: experts.dense_layers (32) leaves no MoE layer of 32" } },
	{ "ffn-matrices-four", { "models/mixtral-8x7b.yaml:12:15: ffn_matrices must be in [2, 3], got 4" } },
	{ "experts-active-over-total",
	  { "models/mixtral-8x7b.yaml:16:11: experts.active (9) is larger than experts.total (8)" } },
	{ "defaults-missing-key", { "defaults.yaml:2:1: missing required key 'pue'" } },
	{ "no-defaults", { "defaults.yaml: cannot open: No such file or directory" } },
	{ "non-utf8",
	  { "accelerators/l40s.yaml:2:19: invalid UTF-8 byte 0xff (the file must be UTF-8 text)" } },
	{ "duplicate-key", { "fabrics/ib-ndr.yaml:4:1: duplicate key 'name' (first at line 2)" } },
	{ "alias", { "models/llama-3-8b.yaml:8:11: aliases are not supported" } },
	{ "second-document",
	  { "fabrics/ib-ndr.yaml:28:1: a second YAML document is not supported (one document per file)" } },
	{ "deep-nesting", { "models/llama-3-8b.yaml:15:39: nesting deeper than 32 levels" } },
	{ "yml-extension", { "fabrics/ib-ndr2.yml: catalog files must end in .yaml" } },
	{ "directory-as-file", { "fabrics/spare.yaml: is a directory, not a YAML file" } },
	{ "no-fabrics-folder",
	  { "fabrics: cannot open the folder: No such file or directory (a catalog has accelerators/, platforms/, fabrics/ and models/)" } },
	{ "no-accelerators",
	  { "accelerators: no accelerators (a catalog needs at least one .yaml file here)",
	    "platforms/hgx-h100-8.yaml:3:14: unknown accelerator 'h100-sxm' (no accelerators/h100-sxm.yaml)",
	    "platforms/mi300x-8.yaml:3:14: unknown accelerator 'mi300x' (no accelerators/mi300x.yaml)",
	    "platforms/pcie-l40s-4.yaml:3:14: unknown accelerator 'l40s' (no accelerators/l40s.yaml)",
	    "platforms/pcie-l40s-8.yaml:3:14: unknown accelerator 'l40s' (no accelerators/l40s.yaml)" } },
	{ "several",
	  { "accelerators/l40s.yaml:22:10: power_w must be in [1, 100000], got 0",
	    "accelerators/l40s.yaml:24:8: stack: expected one of cuda, rocm, gaudi, got 'opencl'",
	    "platforms/pcie-l40s-4.yaml:4:16: gpus_per_node must be in [1, 128], got 0" } },
};
#define N_BAD (sizeof bad_cases / sizeof bad_cases[0])

START_TEST(bad_fixture)
{
	const struct bad_case *bc = &bad_cases[_i];
	char dir[LONG];
	snprintf(dir, sizeof dir, "%s", fixture("bad"));
	size_t dlen = strlen(dir);
	snprintf(dir + dlen, sizeof dir - dlen, "/%s", bc->name);
	dlen = strlen(dir);

	struct catalog_errors e;
	struct catalog *c = catalog_load(dir, &e);
	ck_assert_msg(c == NULL, "%s: loaded a broken catalog", bc->name);
	size_t want = 0;
	while (want < MAX_EXPECT && bc->expect[want])
		want++;
	for (size_t i = 0; i < e.n && i < want; i++) {
		/* Messages carry the path as given; compare inside the fixture. */
		ck_assert_msg(!strncmp(e.msg[i], dir, dlen) && e.msg[i][dlen] == '/',
			      "%s: message does not start with the folder: %s", bc->name, e.msg[i]);
		ck_assert_str_eq(e.msg[i] + dlen + 1, bc->expect[i]);
	}
	ck_assert_msg(e.n == want, "%s: %zu messages, expected %zu; first: %s", bc->name, e.n,
		      want, e.n ? e.msg[0] : "none");
	ck_assert(!e.truncated);
	catalog_errors_fini(&e);
	ck_assert_uint_eq(e.n, 0);
}
END_TEST

START_TEST(bad_too_many_errors)
{
	char dir[LONG];
	snprintf(dir, sizeof dir, "%s", fixture("bad/too-many-errors"));
	size_t dlen = strlen(dir);
	struct catalog_errors e;
	ck_assert_ptr_null(catalog_load(dir, &e));
	ck_assert_uint_eq(e.n, CATALOG_MAX_ERRORS);
	ck_assert(e.truncated);
	ck_assert_str_eq(e.msg[0] + dlen + 1, "accelerators/l40s.yaml:41:1: unknown key 'extra_1'");
	ck_assert_str_eq(e.msg[CATALOG_MAX_ERRORS - 1] + dlen + 1,
			 "accelerators/l40s.yaml:90:1: unknown key 'extra_50'");
	catalog_errors_fini(&e);
}
END_TEST

START_TEST(bad_missing_folder)
{
	struct catalog_errors e;
	ck_assert_ptr_null(catalog_load("/nonexistent/catalog", &e));
	ck_assert_uint_eq(e.n, 1);
	ck_assert_str_eq(e.msg[0],
			 "/nonexistent/catalog: cannot open the catalog folder: No such file or directory");
	catalog_errors_fini(&e);
}
END_TEST

START_TEST(bad_too_many_files)
{
	/* 5001 files in one folder: refused before any is read.  The other
	 * parts link to the good fixture. */
	make_tmpdir();
	char path[LONG], target[LONG];
	static const char *const parts[] = { "accelerators", "platforms", "fabrics", "defaults.yaml" };
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", tmpdir, parts[i]);
		snprintf(target, sizeof target, "%s/%s", fixture("good"), parts[i]);
		ck_assert_int_eq(symlink(target, path), 0);
	}
	snprintf(path, sizeof path, "%s/models", tmpdir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	for (int i = 0; i <= 5000; i++) {
		snprintf(path, sizeof path, "%s/models/m%d.yaml", tmpdir, i);
		int fd = open(path, O_CREAT | O_WRONLY, 0600);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	struct catalog_errors e;
	ck_assert_ptr_null(catalog_load(tmpdir, &e));
	ck_assert_uint_eq(e.n, 1);
	char want[LONG];
	snprintf(want, sizeof want, "%s/models: too many files (more than 5000)", tmpdir);
	ck_assert_str_eq(e.msg[0], want);
	catalog_errors_fini(&e);
	fixture_remove_tree(tmpdir);
}
END_TEST

START_TEST(trailing_slash_and_determinism)
{
	/* "DIR/" and "DIR" give the same paths, and two loads the same order. */
	char dir[LONG];
	snprintf(dir, sizeof dir, "%s/", fixture("good"));
	struct catalog_errors e;
	struct catalog *a = catalog_load(dir, &e);
	ck_assert_ptr_nonnull(a);
	catalog_errors_fini(&e);
	struct catalog *b = load_good();
	ck_assert_str_eq(a->accels[0].file, b->accels[0].file);
	for (size_t i = 0; i < a->n_platforms; i++)
		ck_assert_str_eq(a->platforms[i].id, b->platforms[i].id);
	catalog_free(a);
	catalog_free(b);
	/* Without an error list: just yes or no. */
	ck_assert_ptr_null(catalog_load(fixture("bad/alias"), NULL));
	struct catalog *c = catalog_load(fixture("good"), NULL);
	ck_assert_ptr_nonnull(c);
	catalog_free(c);
	catalog_free(NULL);
	catalog_errors_fini(NULL);
}
END_TEST

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	snprintf(fixtures, sizeof fixtures, "%.900s/tests/fixtures/catalog",
		 top && *top ? top : ABS_TOP_SRCDIR);
	/* The environment of `make check` must not steer catalog_find_dir. */
	unsetenv("ACCELSIZER_CATALOG");

	Suite *s = suite_create("catalog");
	tap_add(s, "ytree: nodes keep 1-based line and column", ytree_positions);
	tap_add(s, "ytree: empty and comment-only documents give no root", ytree_empty_documents);
	tap_add(s, "ytree: nesting deeper than 32 levels is refused", ytree_depth_limit);
	tap_add(s, "ytree: aliases are refused", ytree_alias_refused);
	tap_add(s, "ytree: non-UTF-8 bytes are refused with their position", ytree_non_utf8);
	tap_add(s, "ytree: duplicate keys are refused", ytree_duplicate_key);
	tap_add(s, "ytree: syntax errors, second documents, NUL and control characters",
	    ytree_syntax_and_documents);
	tap_add(s, "ytree: directories, FIFOs, missing and oversized files", ytree_files);
	tap_add(s, "ytree: numbers, integers, booleans and null from plain scalars only",
	    ytree_scalars);
	tap_add(s, "ytree: ytree_format_error writes path:line:col", ytree_format_error_position);
	tap_add(s, "catalog: good fixture counts, sorted by id", good_counts_and_order);
	tap_add(s, "catalog: accelerator figures as written", good_accelerator_figures);
	tap_add(s, "catalog: platforms and fabrics as written", good_platforms_fabrics);
	tap_add(s, "catalog: models and defaults as written", good_models_defaults);
	tap_add(s, "catalog: lookups, suggestions, platforms per accelerator", lookups);
	tap_add(s, "catalog: platforms sorted smallest node first", platforms_sorted_by_size);
	tap_add(s, "catalog: enum names, parsing and bytes per value", enums);
	tap_add(s, "catalog: folder search order", find_dir_order);
	static char names[N_BAD][80];	/* Check keeps the pointer */
	for (size_t i = 0; i < N_BAD; i++) {
		snprintf(names[i], sizeof names[i], "bad catalog: %s", bad_cases[i].name);
		TCase *tc = tcase_create(names[i]);
		tcase_add_loop_test(tc, bad_fixture, (int)i, (int)i + 1);
		suite_add_tcase(s, tc);
	}
	tap_add(s, "bad catalog: too many errors stops at 50", bad_too_many_errors);
	tap_add(s, "bad catalog: the folder does not exist", bad_missing_folder);
	tap_add(s, "bad catalog: more than 5000 files in a folder", bad_too_many_files);
	tap_add(s, "catalog: trailing slash, repeated loads, no error list", trailing_slash_and_determinism);
	return tap_run(s);
}
