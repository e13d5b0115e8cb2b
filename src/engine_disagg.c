/*
 * engine_disagg: serving with the prefill and the decode on separate pools
 * of GPUs (--disaggregated; DistServe, Zhong et al., OSDI 2024; Splitwise,
 * Patel et al., ISCA 2024).  Prompts are prefilled on one pool and their KV
 * cache is sent to a second pool that only decodes, so no prefill stalls a
 * decode step and each pool is sized for its own target: the decode pool
 * for the per-token speed with nothing but decode steps, the prefill pool
 * for the first-token time at the rate the decode pool serves requests.
 * The KV cache crosses the GPU link when both pools fit in one node, the
 * fabric otherwise, and the transfer adds to the first token.  The result
 * says whether that beats the aggregated layout (the same accelerator
 * sized as usual, with chunked prefill) for the workload's targets.
 */
#include <math.h>
#include <string.h>

#include "engine_internal.h"

/* The KV cache of one request's prompt, bytes, sent from the t prefill
 * GPUs in parallel over the link (same node) or their NICs: seconds. */
static double kv_transfer_s(const struct catalog *c, const struct workload *w,
			    const struct catalog_accel *a, int t, bool same_node)
{
	int node_max = 0;
	const struct catalog_platform *p = eng_platform_biggest(c, w, a, &node_max);
	double bytes = (double)w->input_tokens * eng_kv_bytes_per_token(w->model, precision_bytes(w->kv_precision));
	double bw = same_node ? eng_link_bw(c, a, p, 2) : p ? eng_nic_bw(c, w, p) : 0;
	if (!(bw > 0))
		return INFINITY;
	return bytes / (bw * (t > 0 ? t : 1)) + c->defaults.collective_latency_us.value * 1e-6;
}

/* One prompt's prefill alone on a TP-t replica of a, seconds (the
 * engine's own first-token time of a lone request), or NAN when the model
 * does not fit there. */
static double prefill_alone_s(const struct catalog *c, const struct workload *w,
			      const struct catalog_accel *a, int t)
{
	struct workload wp = *w;
	wp.disaggregated = 0;
	wp.output_tokens = 1;
	wp.concurrency = 1;
	wp.concurrency_max = false;
	wp.arrival_rate = 0;
	wp.tokens_per_s_per_user = wp.ttft_ms = wp.target_tokens_per_s = 0;
	wp.accel = a;
	wp.gpus = t;
	wp.tp = t;
	wp.pp = wp.ep = 0;
	wp.batch = 0;
	struct engine_result p;
	eng_result_clear(&p, a);
	p.cls = WL_INFERENCE;
	eng_infer_on(c, &wp, a, NULL, &p);
	return p.fits && p.tp == t ? p.ttft_ms / 1000.0 : NAN;
}

struct pool {
	int t, replicas, gpus;
	double svc, ttft50, ttft99;
};

/* The prefill pool: replicas of TP t, each an M/D/1 server of one prompt
 * at a time, loaded as far as the first-token target (less the transfer)
 * allows; of the TP degrees that fit, the one with the fewest GPUs.
 * Without a target each replica runs at the load it can just keep up
 * with (rho = 0.99). */
static bool size_prefill(const struct catalog *c, const struct workload *w,
			 const struct catalog_accel *a, double lambda, double xfer_s, struct pool *best)
{
	double target = w->ttft_ms > 0 ? w->ttft_ms / 1000.0 - xfer_s : INFINITY;
	int tmax = a->link_domain < 8 ? a->link_domain : 8;
	best->gpus = 0;
	for (int t = 1; t <= tmax; t *= 2) {
		double svc = prefill_alone_s(c, w, a, t);
		if (!(svc > 0) || !(svc < target))
			continue;
		double lo = 0, hi = 0.99;
		if (isfinite(target))
			for (int i = 0; i < 40; i++) {
				double mid = (lo + hi) / 2;
				if (eng_md1_wait(mid, svc, 0.99) + svc <= target)
					lo = mid;
				else
					hi = mid;
			}
		else
			lo = hi;
		if (!(lo > 0))
			continue;
		long rep = (long)ceil(lambda * svc / lo - 1e-9);
		if (rep < 1)
			rep = 1;
		if (rep * t > ENG_MAX_GPUS)
			continue;
		if (!best->gpus || rep * t < best->gpus) {
			double rho = lambda * svc / (double)rep;
			best->t = t;
			best->replicas = (int)rep;
			best->gpus = (int)(rep * t);
			best->svc = svc;
			best->ttft50 = eng_md1_wait(rho, svc, 0.5) + svc;
			best->ttft99 = eng_md1_wait(rho, svc, 0.99) + svc;
		}
	}
	return best->gpus > 0;
}

static void explain(const struct workload *w, const struct engine_result *agg, const struct pool *pre,
		    const struct engine_result *dec, bool same_node, struct engine_result *r)
{
	const char *over = same_node ? "the GPU link" : "the fabric";
	/* As many users as memory holds: the pools and the one pool serve
	 * different loads, so they are judged per GPU. */
	if (w->concurrency_max && !(w->arrival_rate > 0) && agg->fits) {
		bool better = r->tokens_per_s_per_gpu > agg->tokens_per_s_per_gpu;
		eng_reason(r, "disaggregated: %d prefill + %d decode GPUs, KV sent in %F ms over %s: %F tok/s per "
			   "GPU against aggregated's %F, so it %s", pre->gpus, dec->gpus, r->kv_transfer_ms, over,
			   r->tokens_per_s_per_gpu, agg->tokens_per_s_per_gpu,
			   better ? "beats it" : "does not beat it");
		return;
	}
	if (!agg->fits)
		eng_reason(r, "disaggregated: %d prefill + %d decode GPUs, KV sent in %F ms over %s; it beats "
			   "aggregated, which cannot meet these targets", pre->gpus, dec->gpus, r->kv_transfer_ms, over);
	else if (r->gpus < agg->gpus)
		eng_reason(r, "disaggregated: %d prefill + %d decode GPUs, KV sent in %F ms over %s; beats "
			   "aggregated (%d GPUs): no prefill stalls a decode step", pre->gpus, dec->gpus,
			   r->kv_transfer_ms, over, agg->gpus);
	else
		eng_reason(r, "disaggregated: %d prefill + %d decode GPUs, KV sent in %F ms over %s; aggregated "
			   "needs %d, so it does not beat it for these targets", pre->gpus, dec->gpus,
			   r->kv_transfer_ms, over, agg->gpus);
}

void eng_disagg_try(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		    struct engine_result *r)
{
	if (w->cls != WL_INFERENCE || !w->disaggregated || r->partition)
		return;
	if (w->serving_stack >= 0 && !r->serving_stack)
		return;		/* the stack does not run here: nothing to split */
	struct engine_result agg = *r, dec;

	/* the decode pool: decode steps only, the per-token target */
	struct workload wd = *w;
	wd.disaggregated = 0;
	wd.decode_only = true;
	wd.ttft_ms = 0;
	wd.gpus = -1;
	eng_result_clear(&dec, a);
	dec.cls = WL_INFERENCE;
	eng_infer_on(c, &wd, a, NULL, &dec);
	if (!dec.fits) {
		*r = dec;
		r->disaggregated = true;
		r->aggregated_gpus = agg.fits ? agg.gpus : 0;
		return;
	}
	double lambda = w->arrival_rate > 0 ? w->arrival_rate
			: dec.output_tokens_per_s / (double)w->output_tokens;

	/* the prefill pool, first with the KV over the link; past one node
	 * the transfer crosses the fabric and the pool is sized again */
	int node_max = eng_max_node_gpus(c, w, a);
	bool same = true;
	struct pool pre;
	double xfer = kv_transfer_s(c, w, a, 1, true);
	bool ok = size_prefill(c, w, a, lambda, xfer, &pre);
	if (ok) {
		xfer = kv_transfer_s(c, w, a, pre.t, true);
		if (pre.gpus + dec.gpus > node_max) {
			same = false;
			xfer = kv_transfer_s(c, w, a, pre.t, false);
		}
		ok = size_prefill(c, w, a, lambda, xfer, &pre);
	}
	if (!ok) {
		*r = dec;
		r->fits = false;
		r->disaggregated = true;
		r->decode_gpus = dec.gpus;
		r->aggregated_gpus = agg.fits ? agg.gpus : 0;
		r->kv_transfer_ms = xfer * 1000.0;
		eng_reason(r, "disaggregated: no prefill pool meets the first-token target at %F requests/s "
			   "(the KV transfer takes %F ms of it)", lambda, xfer * 1000.0);
		return;
	}

	*r = dec;
	r->disaggregated = true;
	r->prefill_gpus = pre.gpus;
	r->decode_gpus = dec.gpus;
	r->aggregated_gpus = agg.fits ? agg.gpus : 0;
	r->gpus = pre.gpus + dec.gpus;
	r->kv_transfer_ms = xfer * 1000.0;
	r->ttft_ms = pre.svc * 1000.0 + r->kv_transfer_ms;
	r->ttft_p50_ms = pre.ttft50 * 1000.0 + r->kv_transfer_ms;
	r->ttft_p99_ms = pre.ttft99 * 1000.0 + r->kv_transfer_ms;
	r->tokens_per_s_per_gpu = r->output_tokens_per_s / (double)r->gpus;
	explain(w, &agg, &pre, &dec, same, r);
}
