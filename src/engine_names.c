/*
 * engine_names: the words the engine's enums are written as, on the command
 * line, in scenario files, in csv/yaml output and on screen.  One table per
 * enum so that the name and the parser can never disagree.
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "engine_internal.h"

static const char *const class_names[WL_COUNT] = {
	[WL_INFERENCE] = "inference",
	[WL_PRETRAIN] = "pretrain",
	[WL_FINETUNE] = "finetune",
};

static const char *const recompute_names[RECOMPUTE_COUNT] = {
	[RECOMPUTE_NONE] = "none",
	[RECOMPUTE_SELECTIVE] = "selective",
	[RECOMPUTE_FULL] = "full",
};

static const char *const method_names[FT_COUNT] = {
	[FT_FULL] = "full",
	[FT_LORA] = "lora",
	[FT_QLORA] = "qlora",
};

static const char *const objective_names[OBJ_COUNT] = {
	[OBJ_CAPEX] = "capex",
	[OBJ_COST_PER_TOKEN] = "cost-per-token",
	[OBJ_TIME] = "time",
	[OBJ_GPUS] = "gpus",
	[OBJ_PERF_PER_WATT] = "perf-per-watt",
};

static const char *const form_names[FORMF_COUNT] = {
	[FORMF_ANY] = "any",
	[FORMF_SXM_OAM] = "sxm-oam",
	[FORMF_PCIE] = "pcie",
};

static const char *const resource_names[RES_COUNT] = {
	[RES_NONE] = "none",
	[RES_MEMORY] = "memory capacity",
	[RES_BANDWIDTH] = "memory bandwidth",
	[RES_INTERCONNECT] = "interconnect",
	[RES_COMPUTE] = "compute",
	[RES_PRECISION] = "compute precision",
};

static const char *const resource_keys[RES_COUNT] = {
	[RES_NONE] = "none",
	[RES_MEMORY] = "memory",
	[RES_BANDWIDTH] = "bandwidth",
	[RES_INTERCONNECT] = "interconnect",
	[RES_COMPUTE] = "compute",
	[RES_PRECISION] = "precision",
};

static const char *name_of(const char *const *names, int n, int v)
{
	return v >= 0 && v < n && names[v] ? names[v] : "?";
}

static bool parse_in(const char *const *names, int n, const char *s, int *out)
{
	if (!s)
		return false;
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s)) {
			*out = i;
			return true;
		}
	return false;
}

const char *workload_class_name(enum workload_class c)
{
	return name_of(class_names, WL_COUNT, (int)c);
}

bool workload_class_parse(const char *s, enum workload_class *out)
{
	int v;
	/* The wizard says "pretraining" and "fine-tuning"; accept both spellings. */
	if (s && (!strcmp(s, "pretraining") || !strcmp(s, "training"))) {
		*out = WL_PRETRAIN;
		return true;
	}
	if (s && (!strcmp(s, "fine-tuning") || !strcmp(s, "finetuning"))) {
		*out = WL_FINETUNE;
		return true;
	}
	if (!parse_in(class_names, WL_COUNT, s, &v))
		return false;
	*out = (enum workload_class)v;
	return true;
}

const char *recompute_name(enum recompute r)
{
	return name_of(recompute_names, RECOMPUTE_COUNT, (int)r);
}

bool recompute_parse(const char *s, enum recompute *out)
{
	int v;
	if (!parse_in(recompute_names, RECOMPUTE_COUNT, s, &v))
		return false;
	*out = (enum recompute)v;
	return true;
}

const char *ft_method_name(enum ft_method m)
{
	return name_of(method_names, FT_COUNT, (int)m);
}

bool ft_method_parse(const char *s, enum ft_method *out)
{
	int v;
	if (!parse_in(method_names, FT_COUNT, s, &v))
		return false;
	*out = (enum ft_method)v;
	return true;
}

const char *objective_name(enum objective o)
{
	return name_of(objective_names, OBJ_COUNT, (int)o);
}

bool objective_parse(const char *s, enum objective *out)
{
	int v;
	if (!parse_in(objective_names, OBJ_COUNT, s, &v))
		return false;
	*out = (enum objective)v;
	return true;
}

const char *form_filter_name(enum form_filter f)
{
	return name_of(form_names, FORMF_COUNT, (int)f);
}

bool form_filter_parse(const char *s, enum form_filter *out)
{
	int v;
	if (!parse_in(form_names, FORMF_COUNT, s, &v))
		return false;
	*out = (enum form_filter)v;
	return true;
}

const char *resource_name(enum resource r)
{
	return name_of(resource_names, RES_COUNT, (int)r);
}

const char *resource_key(enum resource r)
{
	return name_of(resource_keys, RES_COUNT, (int)r);
}

/* Digits of a non-negative whole number, backwards into the end of buf. */
static char *put_digits(char *end, unsigned long long q)
{
	do {
		*--end = (char)('0' + q % 10);
		q /= 10;
	} while (q);
	return end;
}

const char *eng_fig(double v, char *buf)
{
	double a = fabs(v);
	if (!isfinite(v) || a >= 9e15 || a < 5e-10) {
		memcpy(buf, "0", 2);
		return buf;
	}
	/* Decimals: none from 9.95 up, one from 0.05, then enough for two
	 * significant digits (at most 9). */
	int dec = a >= 9.95 ? 0 : a >= 0.05 ? 1 : (int)(1 - floor(log10(a)));
	if (dec > 9)
		dec = 9;
	double scale = 1;
	for (int i = 0; i < dec; i++)
		scale *= 10;
	unsigned long long q = (unsigned long long)llround(a * scale);
	/* Trailing zeros of the fraction go: 3.0 -> 3, 0.050 -> 0.05. */
	while (dec > 0 && q % 10 == 0) {
		q /= 10;
		dec--;
	}
	char tmp[ENG_FIG];
	char *end = tmp + sizeof tmp, *p = end;
	*--p = '\0';
	if (dec > 0) {
		for (int i = 0; i < dec; i++) {
			*--p = (char)('0' + q % 10);
			q /= 10;
		}
		*--p = '.';
	}
	p = put_digits(p, q);
	if (v < 0)
		*--p = '-';
	memcpy(buf, p, (size_t)(end - p));
	return buf;
}
