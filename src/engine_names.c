/*
 * engine_names: the words the engine's enums are written as, on the command
 * line, in scenario files, in csv/yaml output and on screen.  One table per
 * enum so that the name and the parser can never disagree.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "engine_internal.h"

static const char *const class_names[WL_COUNT] = {
	[WL_INFERENCE] = "inference",
	[WL_PRETRAIN] = "pretrain",
	[WL_FINETUNE] = "finetune",
};

static const char *const recompute_names[RECOMPUTE_COUNT] = {
	[RECOMPUTE_AUTO] = "auto",
	[RECOMPUTE_NONE] = "none",
	[RECOMPUTE_SELECTIVE] = "selective",
	[RECOMPUTE_FULL] = "full",
};

static const char *const cp_comm_names[CPC_COUNT] = {
	[CPC_P2P] = "p2p",
	[CPC_A2A] = "a2a",
};

static const char *const kv_reserve_names[KVR_COUNT] = {
	[KVR_ON_DEMAND] = "on-demand",
	[KVR_FULL] = "full",
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
	[OBJ_TCO] = "tco",
};

static const char *const cooling_names[COOLF_COUNT] = {
	[COOLF_ANY] = "any", [COOLF_AIR] = "air", [COOLF_LIQUID] = "liquid",
};
static const char *const fabric_names[FABRICF_COUNT] = {
	[FABRICF_AUTO] = "auto", [FABRICF_INFINIBAND] = "infiniband", [FABRICF_ETHERNET] = "ethernet",
};
static const char *const rent_term_names[RENTC_COUNT] = {
	[RENTC_AUTO] = "auto", [RENTC_ON_DEMAND] = "on-demand", [RENTC_1Y] = "1y", [RENTC_3Y] = "3y",
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

const char *cp_comm_name(enum cp_comm k)
{
	return name_of(cp_comm_names, CPC_COUNT, (int)k);
}

bool cp_comm_parse(const char *s, enum cp_comm *out)
{
	int v;
	if (!parse_in(cp_comm_names, CPC_COUNT, s, &v))
		return false;
	*out = (enum cp_comm)v;
	return true;
}

const char *kv_reserve_name(enum kv_reserve k)
{
	return name_of(kv_reserve_names, KVR_COUNT, (int)k);
}

bool kv_reserve_parse(const char *s, enum kv_reserve *out)
{
	int v;
	if (!parse_in(kv_reserve_names, KVR_COUNT, s, &v))
		return false;
	*out = (enum kv_reserve)v;
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

const char *cooling_filter_name(enum cooling_filter f)
{
	return name_of(cooling_names, COOLF_COUNT, (int)f);
}

bool cooling_filter_parse(const char *s, enum cooling_filter *out)
{
	int v;
	if (!parse_in(cooling_names, COOLF_COUNT, s, &v))
		return false;
	*out = (enum cooling_filter)v;
	return true;
}

const char *fabric_choice_name(enum fabric_choice f)
{
	return name_of(fabric_names, FABRICF_COUNT, (int)f);
}

bool fabric_choice_parse(const char *s, enum fabric_choice *out)
{
	int v;
	if (!parse_in(fabric_names, FABRICF_COUNT, s, &v))
		return false;
	*out = (enum fabric_choice)v;
	return true;
}

const char *rent_term_choice_name(enum rent_term_choice t)
{
	return name_of(rent_term_names, RENTC_COUNT, (int)t);
}

bool rent_term_choice_parse(const char *s, enum rent_term_choice *out)
{
	int v;
	if (!parse_in(rent_term_names, RENTC_COUNT, s, &v))
		return false;
	*out = (enum rent_term_choice)v;
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

const char *eng_model_name(const struct catalog_model *m)
{
	if (m->name && m->name[0])
		return m->name;
	return m->id && m->id[0] ? m->id : "custom model";
}

/*
 * Reasons kept unwritten (see engine_result in engine.h): the format (its
 * conversions in engine_internal.h) and the arguments, in order.  Written,
 * the text is what snprintf into reason[] would write, with each %F as
 * eng_fig() writes it.
 */
void eng_reason(struct engine_result *r, const char *fmt, ...)
{
	va_list ap;
	int k = 0;
	int max = (int)(sizeof r->reason_args / sizeof r->reason_args[0]);
	va_start(ap, fmt);
	for (const char *p = strchr(fmt, '%'); p && k < max; p = strchr(p + 1, '%')) {
		switch (p[1]) {
		case '%':
			p++;
			break;
		case 's':
			r->reason_args[k++].s = va_arg(ap, const char *);
			break;
		case 'd':
			r->reason_args[k++].l = (long)va_arg(ap, int);
			break;
		case 'l':
			r->reason_args[k++].l = va_arg(ap, long);
			break;
		case 'F':
		case 'G':
		case '.':
			r->reason_args[k++].d = va_arg(ap, double);
			break;
		default:
			break;
		}
	}
	va_end(ap);
	r->reason_fmt = fmt;
	r->reason[0] = '\0';
}

/* Appends s to buf[*len..cap - 1), truncating as snprintf does. */
static void put_text(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	if (*len + n > cap - 1)
		n = cap - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
}

static size_t fmt_long(long v, char *tmp)
{
	char *end = tmp + 24, *p = end;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	size_t n = (size_t)(end - p);
	memmove(tmp, p, n);
	return n;
}

const char *engine_result_reason(const struct engine_result *r, char *buf, size_t n)
{
	if (!r->reason_fmt)
		return r->reason;
	if (n == 0)
		return "";
	size_t cap = n < sizeof r->reason ? n : sizeof r->reason, len = 0;
	const union engine_reason_arg *a = r->reason_args;
	const char *p = r->reason_fmt;
	char tmp[64];
	while (*p && len < cap - 1) {
		const char *q = strchr(p, '%');
		if (!q) {
			put_text(buf, cap, &len, p, strlen(p));
			break;
		}
		put_text(buf, cap, &len, p, (size_t)(q - p));
		char c = q[1];
		p = q + 2;
		switch (c) {
		case '%':
			put_text(buf, cap, &len, "%", 1);
			break;
		case 's': {
			const char *s = a->s ? a->s : "(null)";
			a++;
			put_text(buf, cap, &len, s, strlen(s));
			break;
		}
		case 'l':	/* %ld */
			p++;
			/* fall through */
		case 'd':
			put_text(buf, cap, &len, tmp, fmt_long((a++)->l, tmp));
			break;
		case 'F':
			eng_fig((a++)->d, tmp);
			put_text(buf, cap, &len, tmp, strlen(tmp));
			break;
		case 'G':	/* a figure the user gave, as given */
			snprintf(tmp, sizeof tmp, "%.10g", (a++)->d);
			put_text(buf, cap, &len, tmp, strlen(tmp));
			break;
		case '.':	/* %.3g */
			p += 2;
			snprintf(tmp, sizeof tmp, "%.3g", (a++)->d);
			put_text(buf, cap, &len, tmp, strlen(tmp));
			break;
		default:
			break;
		}
	}
	buf[len] = '\0';
	return buf;
}

const char *engine_result_why(const struct engine_result *r, char *buf, size_t n)
{
	return r->filtered ? r->filter_reason : engine_result_reason(r, buf, n);
}

void eng_reason_write(struct engine_result *r)
{
	if (!r->reason_fmt)
		return;
	char buf[sizeof r->reason];
	engine_result_reason(r, buf, sizeof buf);
	memcpy(r->reason, buf, sizeof buf);
	r->reason_fmt = NULL;
}

void engine_result_layout(const struct engine_result *r, enum workload_class cls, char *buf, size_t n)
{
	if (r->gpus < 1) {
		snprintf(buf, n, "-");
		return;
	}
	if (cls == WL_INFERENCE) {
		if (r->partition)
			snprintf(buf, n, "%dx %s", r->replicas, r->partition->profile);
		else if (r->disaggregated && r->prefill_gpus > 0)
			snprintf(buf, n, "P%d+D%dx TP%d", r->prefill_gpus, r->replicas, r->tp);
		else if (r->attention_dp)
			snprintf(buf, n, "%dx DEP%d", r->replicas, r->ep);
		else if (r->pp > 1)
			snprintf(buf, n, "%dx TP%d PP%d", r->replicas, r->tp, r->pp);
		else
			snprintf(buf, n, "%dx TP%d", r->replicas, r->tp);
	} else if (r->cp > 1) {
		snprintf(buf, n, "TP%d PP%d CP%d DP%d Z%d", r->tp, r->pp, r->cp, r->dp, r->zero_stage);
	} else {
		snprintf(buf, n, "TP%d PP%d DP%d Z%d", r->tp, r->pp, r->dp, r->zero_stage);
	}
}
