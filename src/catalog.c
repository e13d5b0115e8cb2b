/*
 * catalog: names of the enums, lookups by id, freeing, and where the
 * catalog folder is.  Loading and validation are in catalog_load.c.
 */
#include "catalog.h"
#include "catalog_schema.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- enums ---- */

static const struct {
	const char *name;
	double bytes;
} precisions[PREC_COUNT] = {
	/* Bytes per stored value; the 4-bit formats pack two values a byte. */
	[PREC_FP32] = { "fp32", 4 },
	[PREC_BF16] = { "bf16", 2 },
	[PREC_FP16] = { "fp16", 2 },
	[PREC_FP8] = { "fp8", 1 },
	[PREC_INT8] = { "int8", 1 },
	[PREC_INT4] = { "int4", 0.5 },
	[PREC_FP4] = { "fp4", 0.5 },
	/* OCP Microscaling (MX) v1.0: 32 FP4 (E2M1) values share one 8-bit
	 * E8M0 scale, 4 + 8/32 = 4.25 bits a value (gpt-oss ships its expert
	 * weights so). */
	[PREC_MXFP4] = { "mxfp4", 4.25 / 8 },
	/* weight-only fp8: 1 byte a weight, dequantised to 16 bit for the
	 * matrix products (vLLM's fp8 Marlin path on cards without fp8) */
	[PREC_W8A16] = { "w8a16", 1 },
	[PREC_TF32] = { "tf32", 4 },	/* stored as fp32, computed at 19 bits */
	[PREC_FP64] = { "fp64", 8 },
};

const char *const catalog_form_names[FORM_COUNT] = {
	[FORM_SXM] = "sxm", [FORM_OAM] = "oam", [FORM_PCIE] = "pcie",
	[FORM_SUPERCHIP] = "superchip",
};

const char *const catalog_stack_names[STACK_COUNT] = {
	[STACK_CUDA] = "cuda", [STACK_ROCM] = "rocm", [STACK_GAUDI] = "gaudi",
};

static const char *const serving_stack_names[SS_COUNT] = {
	[SS_TENSORRT_LLM] = "tensorrt-llm", [SS_VLLM] = "vllm", [SS_SGLANG] = "sglang",
	[SS_OPTIMUM_HABANA] = "optimum-habana", [SS_VLLM_V1] = "vllm-v1",
};

static const char *const training_stack_names[TS_COUNT] = {
	[TS_NEMO] = "nemo", [TS_META] = "meta", [TS_AUTOMODEL] = "automodel",
	[TS_MEGATRON_DEEPSPEED] = "megatron-deepspeed",
};

const char *const catalog_dp_overlap_names[DPO_COUNT] = {
	[DPO_BACKWARD] = "backward", [DPO_LAST_MICROBATCH] = "last-microbatch", [DPO_NONE] = "none",
};

const char *const catalog_train_prec_names[TPREC_COUNT] = {
	[TPREC_16] = "bf16", [TPREC_FP8] = "fp8", [TPREC_FP4] = "fp4",
};

const char *const catalog_topology_names[TOPO_COUNT] = {
	[TOPO_SWITCHED] = "switched", [TOPO_MESH] = "mesh",
	[TOPO_BRIDGED_PAIRS] = "bridged-pairs", [TOPO_PCIE] = "pcie",
};

int catalog_name_find(const char *const *names, int n, const char *s)
{
	if (!s)
		return -1;
	for (int i = 0; i < n; i++)
		if (!strcasecmp(names[i], s))
			return i;
	return -1;
}

const char *precision_name(enum precision p)
{
	return (unsigned)p < PREC_COUNT ? precisions[p].name : "?";
}

bool precision_parse(const char *s, enum precision *out)
{
	if (!s)
		return false;
	/* int4 is weight-only (AWQ, GPTQ): 4-bit weights, 16-bit activations */
	if (!strcasecmp(s, "w4a16")) {
		*out = PREC_INT4;
		return true;
	}
	for (int i = 0; i < PREC_COUNT; i++) {
		if (!strcasecmp(precisions[i].name, s)) {
			*out = (enum precision)i;
			return true;
		}
	}
	return false;
}

double precision_bytes(enum precision p)
{
	return (unsigned)p < PREC_COUNT ? precisions[p].bytes : 0;
}

const char *form_factor_name(enum form_factor f)
{
	return (unsigned)f < FORM_COUNT ? catalog_form_names[f] : "?";
}

bool form_factor_parse(const char *s, enum form_factor *out)
{
	int i = catalog_name_find(catalog_form_names, FORM_COUNT, s);
	if (i < 0)
		return false;
	*out = (enum form_factor)i;
	return true;
}

const char *stack_name(enum stack s)
{
	return (unsigned)s < STACK_COUNT ? catalog_stack_names[s] : "?";
}

bool stack_parse(const char *s, enum stack *out)
{
	int i = catalog_name_find(catalog_stack_names, STACK_COUNT, s);
	if (i < 0)
		return false;
	*out = (enum stack)i;
	return true;
}

const char *serving_stack_name(enum serving_stack s)
{
	return (unsigned)s < SS_COUNT ? serving_stack_names[s] : "?";
}

bool serving_stack_parse(const char *s, enum serving_stack *out)
{
	int i = catalog_name_find(serving_stack_names, SS_COUNT, s);
	if (i < 0)
		return false;
	*out = (enum serving_stack)i;
	return true;
}

const char *training_stack_name(enum training_stack s)
{
	return (unsigned)s < TS_COUNT ? training_stack_names[s] : "?";
}

bool training_stack_parse(const char *s, enum training_stack *out)
{
	int i = catalog_name_find(training_stack_names, TS_COUNT, s);
	if (i < 0)
		return false;
	*out = (enum training_stack)i;
	return true;
}

const char *dp_overlap_name(enum dp_overlap o)
{
	return (unsigned)o < DPO_COUNT ? catalog_dp_overlap_names[o] : "?";
}

bool dp_overlap_parse(const char *s, enum dp_overlap *out)
{
	int i = catalog_name_find(catalog_dp_overlap_names, DPO_COUNT, s);
	if (i < 0)
		return false;
	*out = (enum dp_overlap)i;
	return true;
}

const char *topology_name(enum topology t)
{
	return (unsigned)t < TOPO_COUNT ? catalog_topology_names[t] : "?";
}

bool topology_parse(const char *s, enum topology *out)
{
	int i = catalog_name_find(catalog_topology_names, TOPO_COUNT, s);
	if (i < 0)
		return false;
	*out = (enum topology)i;
	return true;
}

/* ---- lookups ----
 * Linear: a catalog holds tens of items, and a linear scan also works on a
 * catalog a test builds by hand without sorting it. */

#define FIND(arr, n, id)                                        \
	do {                                                    \
		if (!c || !(id))                                \
			return NULL;                            \
		for (size_t i = 0; i < c->n; i++)               \
			if (c->arr[i].id && !strcmp(c->arr[i].id, (id))) \
				return &c->arr[i];              \
		return NULL;                                    \
	} while (0)

const struct catalog_accel *catalog_accel(const struct catalog *c, const char *id)
{
	FIND(accels, n_accels, id);
}

const struct catalog_platform *catalog_platform(const struct catalog *c, const char *id)
{
	FIND(platforms, n_platforms, id);
}

const struct catalog_fabric *catalog_fabric(const struct catalog *c, const char *id)
{
	FIND(fabrics, n_fabrics, id);
}

const struct catalog_model *catalog_model(const struct catalog *c, const char *id)
{
	FIND(models, n_models, id);
}

const struct catalog_serving_stack *catalog_serving_stack(const struct catalog *c, const char *id)
{
	FIND(serving_stacks, n_serving_stacks, id);
}

const struct catalog_training_stack *catalog_training_stack(const struct catalog *c, const char *id)
{
	FIND(training_stacks, n_training_stacks, id);
}

bool catalog_train_stack_on(const struct catalog_training_stack *s, enum stack platform, bool *is_default)
{
	for (size_t i = 0; s && i < s->n_runs_on; i++)
		if (s->runs_on[i].platform == platform) {
			if (is_default)
				*is_default = s->runs_on[i].is_default;
			return true;
		}
	return false;
}

const struct catalog_training_stack *catalog_train_stack_default(const struct catalog *c, enum stack platform)
{
	for (size_t i = 0; c && i < c->n_training_stacks; i++) {
		bool def = false;
		if (catalog_train_stack_on(&c->training_stacks[i], platform, &def) && def)
			return &c->training_stacks[i];
	}
	return NULL;
}

const struct sourced *catalog_train_stack_share(const struct catalog_training_stack *s, const char *architecture,
						enum train_prec precision)
{
	size_t len = architecture ? catalog_family_len(architecture) : 0;
	for (size_t i = 0; s && len && i < s->n_efficiency; i++) {
		const struct catalog_train_share *e = &s->efficiency[i];
		if (e->precision == precision && e->family && strlen(e->family) == len &&
		    !strncmp(e->family, architecture, len))
			return &e->share;
	}
	return NULL;
}

const struct catalog_stack_platform *catalog_stack_on(const struct catalog_serving_stack *s,
						      enum stack platform)
{
	for (size_t i = 0; s && i < s->n_runs_on; i++)
		if (s->runs_on[i].platform == platform)
			return &s->runs_on[i];
	return NULL;
}

const struct catalog_serving_stack *catalog_stack_default(const struct catalog *c, enum stack platform,
							  const struct catalog_stack_platform **on)
{
	for (size_t i = 0; c && i < c->n_serving_stacks; i++) {
		const struct catalog_stack_platform *p = catalog_stack_on(&c->serving_stacks[i], platform);
		if (p && p->is_default) {
			if (on)
				*on = p;
			return &c->serving_stacks[i];
		}
	}
	if (on)
		*on = NULL;
	return NULL;
}

static bool platform_before(const struct catalog_platform *x, const struct catalog_platform *y)
{
	if (x->gpus_per_node != y->gpus_per_node)
		return x->gpus_per_node < y->gpus_per_node;
	return strcmp(x->id ? x->id : "", y->id ? y->id : "") < 0;
}

void catalog_unindex(struct catalog *c)
{
	if (!c)
		return;
	free(c->plat_by_accel_);
	free(c->plat_start_);
	c->plat_by_accel_ = NULL;
	c->plat_start_ = NULL;
}

size_t catalog_family_len(const char *arch)
{
	size_t n = arch ? strcspn(arch, "(") : 0;
	while (n > 0 && arch[n - 1] == ' ')
		n--;
	return n;
}

double catalog_power_per_tflops(const struct catalog_accel *a)
{
	double pk = a->peak_tflops[PREC_BF16] > 0 ? a->peak_tflops[PREC_BF16] : a->peak_tflops[PREC_FP16];
	return pk > 0 && a->power_w > 0 ? a->power_w / pk : 0;
}

/* One die: the whole architecture string ("Hopper (GH100)" holds the
 * H100 and H200 in every form factor; "Blackwell (GB202)", a workstation
 * die, is not "Blackwell (B200)"). */
static bool same_die(const struct catalog_accel *a, const struct catalog_accel *b)
{
	return a->architecture && b->architecture && !strcmp(a->architecture, b->architecture);
}

double catalog_family_rho_max(const struct catalog *c, const struct catalog_accel *a)
{
	if (a->family_rho_max_ > 0)
		return a->family_rho_max_;
	double best = catalog_power_per_tflops(a);
	for (size_t i = 0; i < c->n_accels; i++)
		if (same_die(a, &c->accels[i]) && catalog_power_per_tflops(&c->accels[i]) > best)
			best = catalog_power_per_tflops(&c->accels[i]);
	return best;
}

/* Orders accelerators by die for catalog_index(). */
static int by_family(const void *pa, const void *pb)
{
	const struct catalog_accel *a = *(const struct catalog_accel *const *)pa;
	const struct catalog_accel *b = *(const struct catalog_accel *const *)pb;
	return strcmp(a->architecture ? a->architecture : "", b->architecture ? b->architecture : "");
}

/* Each accelerator's family_rho_max_, from one sort by die (a scan per
 * evaluation would grow with the square of the catalog). */
static bool index_families(struct catalog *c)
{
	const struct catalog_accel **v = malloc((c->n_accels ? c->n_accels : 1) * sizeof *v);
	if (!v)
		return false;
	for (size_t i = 0; i < c->n_accels; i++)
		v[i] = &c->accels[i];
	qsort(v, c->n_accels, sizeof *v, by_family);
	for (size_t i = 0, j; i < c->n_accels; i = j) {
		double best = 0;
		for (j = i; j < c->n_accels && (j == i || !by_family(&v[i], &v[j])); j++)
			if (catalog_power_per_tflops(v[j]) > best)
				best = catalog_power_per_tflops(v[j]);
		for (size_t k = i; k < j; k++)
			((struct catalog_accel *)v[k])->family_rho_max_ = best;
	}
	free(v);
	return true;
}

bool catalog_index(struct catalog *c)
{
	if (!c)
		return false;
	catalog_unindex(c);
	if (!index_families(c))
		return false;
	for (size_t i = 0; i < c->n_platforms; i++) {
		const struct catalog_accel *a = c->platforms[i].accel;
		if (!a || a < c->accels || a >= c->accels + c->n_accels)
			return true;	/* unresolved: lookups scan */
	}
	size_t *start = calloc(c->n_accels + 1, sizeof *start);
	const struct catalog_platform **by = calloc(c->n_platforms ? c->n_platforms : 1, sizeof *by);
	if (!start || !by) {
		free(start);
		free(by);
		return false;
	}
	/* counting sort by accelerator, keeping catalog order within one */
	for (size_t i = 0; i < c->n_platforms; i++)
		start[c->platforms[i].accel - c->accels + 1]++;
	for (size_t k = 0; k < c->n_accels; k++)
		start[k + 1] += start[k];
	size_t *next = calloc(c->n_accels ? c->n_accels : 1, sizeof *next);
	if (!next) {
		free(start);
		free(by);
		return false;
	}
	for (size_t i = 0; i < c->n_platforms; i++) {
		size_t k = (size_t)(c->platforms[i].accel - c->accels);
		by[start[k] + next[k]++] = &c->platforms[i];
	}
	free(next);
	c->plat_by_accel_ = by;
	c->plat_start_ = start;
	return true;
}

/* Inserts p into out[0..n) ordered by platform_before; returns the new n. */
static size_t insert_platform(const struct catalog_platform **out, size_t n,
			      const struct catalog_platform *p)
{
	/* Insertion sort: a handful of platforms per accelerator. */
	size_t j = n++;
	while (j > 0 && platform_before(p, out[j - 1])) {
		out[j] = out[j - 1];
		j--;
	}
	out[j] = p;
	return n;
}

size_t catalog_platforms_for(const struct catalog *c, const struct catalog_accel *a,
			     const struct catalog_platform **out, size_t max)
{
	size_t n = 0;
	if (!c || !a || !out)
		return 0;
	if (c->plat_by_accel_ && a >= c->accels && a < c->accels + c->n_accels) {
		/* the same platforms in the same order as the scan below
		 * meets them, without looking at anyone else's */
		size_t k = (size_t)(a - c->accels);
		for (size_t i = c->plat_start_[k]; i < c->plat_start_[k + 1] && n < max; i++)
			n = insert_platform(out, n, c->plat_by_accel_[i]);
		return n;
	}
	for (size_t i = 0; i < c->n_platforms && n < max; i++) {
		const struct catalog_platform *p = &c->platforms[i];
		bool match = p->accel ? p->accel == a
				      : p->accel_id && a->id && !strcmp(p->accel_id, a->id);
		if (match)
			n = insert_platform(out, n, p);
	}
	return n;
}

/* ---- suggestions ---- */

#define EDIT_MAX 128

int catalog_edit_distance(const char *a, const char *b, size_t lb)
{
	size_t la = strlen(a);
	if (la > EDIT_MAX || lb > EDIT_MAX)
		return 99;
	/* Optimal string alignment: Levenshtein plus adjacent swaps, the
	 * commonest typing slip ("bandwdith"). */
	int d[EDIT_MAX + 1][EDIT_MAX + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static void closest(const char **best, int *dist, const char *id, const char *cand)
{
	if (!cand)
		return;
	int d = catalog_edit_distance(id, cand, strlen(cand));
	if (d <= 2 && d < *dist) {
		*best = cand;
		*dist = d;
	}
}

const char *catalog_suggest(const struct catalog *c, unsigned kinds, const char *id)
{
	const char *best = NULL;
	int dist = 99;
	if (!c || !id)
		return NULL;
	for (size_t i = 0; (kinds & CATALOG_ACCELERATORS) && i < c->n_accels; i++)
		closest(&best, &dist, id, c->accels[i].id);
	for (size_t i = 0; (kinds & CATALOG_PLATFORMS) && i < c->n_platforms; i++)
		closest(&best, &dist, id, c->platforms[i].id);
	for (size_t i = 0; (kinds & CATALOG_FABRICS) && i < c->n_fabrics; i++)
		closest(&best, &dist, id, c->fabrics[i].id);
	for (size_t i = 0; (kinds & CATALOG_MODELS) && i < c->n_models; i++)
		closest(&best, &dist, id, c->models[i].id);
	for (size_t i = 0; (kinds & CATALOG_SERVING_STACKS) && i < c->n_serving_stacks; i++)
		closest(&best, &dist, id, c->serving_stacks[i].id);
	for (size_t i = 0; (kinds & CATALOG_TRAINING_STACKS) && i < c->n_training_stacks; i++)
		closest(&best, &dist, id, c->training_stacks[i].id);
	return best;
}

/* ---- unconfirmed figures ---- */

bool catalog_source_unconfirmed(const char *source)
{
	if (!source)
		return false;
	source += strspn(source, " \t");
	return !strncmp(source, "unconfirmed:", 12);
}

/* Every CF_SOURCE row and sources list, by the tables. */
size_t catalog_count_unconfirmed(const struct catalog *c)
{
	size_t k = 0;
	if (!c)
		return 0;
	for (size_t kind = 0; kind < CATALOG_N_KINDS; kind++) {
		size_t n;
		const char *items = catalog_kind_items(c, kind, &n);
		for (size_t i = 0; items && i < n; i++)
			k += catalog_item_unconfirmed(catalog_kinds[kind].s,
						      items + i * catalog_kinds[kind].s->size);
	}
	return k + catalog_item_unconfirmed(&catalog_defaults_schema, &c->defaults);
}

/* ---- freeing ---- */

void catalog_free(struct catalog *c)
{
	if (!c)
		return;
	if (c->bands_owned_)
		free((void *)c->bands_);
	if (c->image_) {
		/* from an image: every array and string is inside c's block */
		catalog_unindex(c);
		free(c);
		return;
	}
	for (size_t kind = 0; kind < CATALOG_N_KINDS; kind++) {
		size_t n;
		char *items = catalog_kind_items(c, kind, &n);
		for (size_t i = 0; items && i < n; i++)
			catalog_item_free(catalog_kinds[kind].s, items + i * catalog_kinds[kind].s->size);
		free(items);
	}
	catalog_item_free(&catalog_defaults_schema, &c->defaults);
	free(c->dir);
	catalog_unindex(c);
	free(c);
}

bool catalog_errors_add(struct catalog_errors *e, char *msg)
{
	if (!msg)
		return false;
	if (e->n < CATALOG_MAX_ERRORS)
		e->msg[e->n++] = msg;
	else {
		e->truncated = true;
		free(msg);
	}
	return true;
}

void catalog_errors_fini(struct catalog_errors *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n && i < CATALOG_MAX_ERRORS; i++) {
		free(e->msg[i]);
		e->msg[i] = NULL;
	}
	e->n = 0;
	e->truncated = false;
}

/* ---- where the catalog is ---- */

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copies path into buf; false if it does not fit. */
static bool put(char *buf, size_t bufsz, const char *a, const char *b)
{
	int n = snprintf(buf, bufsz, "%s%s", a, b ? b : "");
	return n >= 0 && (size_t)n < bufsz;
}

/* Is the running program inside the build tree it was configured in?
 * Then it is an uninstalled build and the source tree's catalog is the
 * one that goes with it, so a fresh checkout runs without installing. */
static bool running_uninstalled(void)
{
	char exe[PATH_MAX], top[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	if (!realpath(ABS_TOP_BUILDDIR, top))
		return false;
	size_t len = strlen(top);
	return !strncmp(exe, top, len) && exe[len] == '/';
}

bool catalog_find_dir(const char *flag_dir, char *buf, size_t bufsz)
{
	if (!buf || !bufsz)
		return false;
	buf[0] = '\0';
	/* An explicit choice is never silently replaced by another folder:
	 * the caller reports the one the user named. */
	if (flag_dir && *flag_dir)
		return put(buf, bufsz, flag_dir, NULL) && is_dir(buf);
	const char *env = getenv("ACCELSIZER_CATALOG");
	if (env && *env)
		return put(buf, bufsz, env, NULL) && is_dir(buf);

	/* The XDG spec says to ignore a relative $XDG_CONFIG_HOME. */
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (xdg && xdg[0] == '/') {
		if (put(buf, bufsz, xdg, "/accelsizer/catalog") && is_dir(buf))
			return true;
	} else if (home && *home) {
		if (put(buf, bufsz, home, "/.config/accelsizer/catalog") && is_dir(buf))
			return true;
	}
	if (running_uninstalled() && put(buf, bufsz, ABS_TOP_SRCDIR, "/catalog") && is_dir(buf)) {
		/* abs_top_srcdir of a build dir reads "/x/build/.."; messages
		 * and `catalog show` read better with the plain path. */
		char real[PATH_MAX];
		if (realpath(buf, real))
			put(buf, bufsz, real, NULL);
		return true;
	}
	return put(buf, bufsz, PKGDATADIR, "/catalog") && is_dir(buf);
}

size_t catalog_files(const struct catalog *c, const char **out, size_t max)
{
	size_t n = 0;
#define ADD(f) do { if ((f) && n < max) out[n++] = (f); } while (0)
	ADD(c->defaults.file);
	for (size_t i = 0; i < c->n_accels; i++)
		ADD(c->accels[i].file);
	for (size_t i = 0; i < c->n_platforms; i++)
		ADD(c->platforms[i].file);
	for (size_t i = 0; i < c->n_fabrics; i++)
		ADD(c->fabrics[i].file);
	for (size_t i = 0; i < c->n_models; i++)
		ADD(c->models[i].file);
	for (size_t i = 0; i < c->n_serving_stacks; i++)
		ADD(c->serving_stacks[i].file);
	for (size_t i = 0; i < c->n_training_stacks; i++)
		ADD(c->training_stacks[i].file);
#undef ADD
	return n;
}
