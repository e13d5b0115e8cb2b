/*
 * engine_spec: speculative decoding (issue 15 item 8).
 *
 * A draft proposes k tokens one after another; the target model checks
 * all k (and makes one of its own) in one forward pass over k + 1 tokens
 * per sequence, and keeps the drafted tokens up to the first it rejects.
 * With each drafted token accepted with probability a, independently, a
 * target step yields (1 - a^(k+1)) / (1 - a) tokens on average (Leviathan,
 * Kalman and Matias 2023, "Fast Inference from Transformers via
 * Speculative Decoding", eq. 1; Chen et al. 2023 the same).  The draft's
 * cost per token, as a share of a target step, is c; decode is
 * memory-bound, so c is the ratio of the parameters each reads.  The
 * expected speed-up of one user's decode is then
 * (1 - a^(k+1)) / ((1 - a)(k c + 1)) (ibid., theorem 3.8), and without a
 * given k the engine takes the k from 1 to 8 that maximises it.
 *
 * The draft is a catalog model sharing the target's vocabulary, run on the
 * same GPUs with its weights and KV cache beside the target's, or the
 * target's own multi-token prediction modules (DeepSeek-V3's MTP: one
 * transformer layer each, k = their number unless given).  engine_infer.c
 * prices a step at the batch it runs: the verification pass over
 * b x (k + 1) tokens, then k draft steps at batch b (iter_step()).
 */
#include "engine_internal.h"

#include <math.h>

static char mtp_id[] = "mtp", mtp_name[] = "its multi-token prediction modules";
const struct catalog_model engine_draft_mtp = { .id = mtp_id, .name = mtp_name, .family = mtp_id };

#define SPEC_K_MAX 8		/* the search's reach: drafts past 8 tokens are rare */

/* Tokens a target step yields with k drafted at acceptance a. */
static double tokens_per_step(double a, int k)
{
	return (1.0 - pow(a, k + 1)) / (1.0 - a);
}

static double speedup(double a, int k, double c)
{
	return tokens_per_step(a, k) / (k * c + 1.0);
}

void eng_spec_init(const struct workload *w, double kv_bytes, struct eng_spec *s)
{
	const struct catalog_model *m = w->model, *d = w->draft_model;
	s->k = 0;
	s->gain = 1;
	s->verify = 1;
	s->mtp = false;
	s->params_read = s->weights = s->kv_per_token = s->layers = s->cost = s->hidden = 0;
	double a = w->spec_acceptance;
	if (w->cls != WL_INFERENCE || !m || !d || !(a > 0 && a < 1) || m->layers <= 0)
		return;
	double pa = eng_params_active(m);
	if (d == &engine_draft_mtp) {
		if (m->mtp_layers <= 0)
			return;
		/* each module is one transformer layer of the target, with the
		 * target's embedding and output head shared */
		s->mtp = true;
		s->layers = m->mtp_layers;
		s->hidden = m->hidden;
		s->params_read = pa / m->layers * m->mtp_layers;
		s->weights = m->params / m->layers * m->mtp_layers;
		s->kv_per_token = eng_kv_bytes_per_token(m, kv_bytes) / m->layers * m->mtp_layers;
	} else {
		s->layers = d->layers;
		s->hidden = d->hidden;
		s->params_read = eng_params_active(d);
		s->weights = d->params;
		s->kv_per_token = eng_kv_bytes_per_token(d, kv_bytes);
	}
	s->cost = pa > 0 ? s->params_read / pa : 1;
	int k = w->spec_tokens;
	if (k <= 0 && s->mtp) {
		k = m->mtp_layers;
	} else if (k <= 0) {
		k = 1;
		for (int g = 2; g <= SPEC_K_MAX; g++)
			if (speedup(a, g, s->cost) > speedup(a, k, s->cost))
				k = g;
	}
	s->k = k;
	s->verify = k + 1.0;
	s->gain = tokens_per_step(a, k);
}

void eng_spec_requirements(const struct workload *w, double kv_bytes, struct engine_requirements *out)
{
	struct eng_spec s;
	eng_spec_init(w, kv_bytes, &s);
	out->spec_tokens = s.k;
	if (!s.k)
		return;
	out->spec_tokens_per_step = s.gain;
	out->spec_draft_cost = s.cost;
	out->spec_speedup = s.gain / (s.k * s.cost + 1.0);
}
