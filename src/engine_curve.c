/*
 * engine_curve: the serving trade-off of one accelerator (engine.h,
 * engine_tradeoff_curve(); docs/design.md, "The trade-off curve").
 *
 * A serving engine trades speed per user for throughput per GPU through
 * its batch: a bigger batch reads the weights once for more sequences, so
 * the GPUs make more tokens while each user waits longer for each of his.
 * The curve holds the replica layout the sizing chose (tensor, pipeline and
 * expert parallel, or the MIG slice) and runs one replica of it at batch
 * 1, 2, 4, ... up to the most its KV room holds, plus the operating
 * point's own batch, through engine_evaluate() without the latency targets,
 * so every point is the engine's own figure for that batch; the targets are
 * then marked on it.  One function for the wizard's chart, `sweep --curve`
 * and the proposal's chart.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "engine.h"

/* The workload one point is evaluated with: the operating point's
 * layout on a, b sequences in one replica, no latency target. */
static struct workload point_workload(const struct workload *w, const struct engine_result *op, long b)
{
	struct workload p = *w;
	p.accel = op->accel;
	p.gpus = -1;
	p.spare_nodes = w->spare_nodes;
	/* a MIG slice is chosen by the sizing again: forcing a layout would
	 * put the replica on whole GPUs */
	p.tp = op->partition ? 0 : op->tp;
	p.pp = op->partition ? 0 : op->pp;
	p.ep = op->partition ? 0 : op->ep;
	p.concurrency = b;
	p.concurrency_max = false;
	p.batch = b;
	p.tokens_per_s_per_user = 0;
	p.ttft_ms = 0;
	p.target_tokens_per_s = 0;
	p.arrival_rate = 0;
	return p;
}

static bool meets(const struct workload *w, double per_user, double ttft_ms)
{
	if (w->tokens_per_s_per_user > 0 && !(per_user >= w->tokens_per_s_per_user))
		return false;
	return !(w->ttft_ms > 0) || ttft_ms <= w->ttft_ms;
}

/* The first-token time a point is judged by: the p99 at its load when the
 * engine gives one, else one request's prefill. */
static double ttft_of(const struct engine_result *r)
{
	return isfinite(r->ttft_p99_ms) && r->ttft_p99_ms > 0 ? r->ttft_p99_ms : r->ttft_ms;
}

static void add_point(const struct catalog *c, const struct workload *w, const struct engine_result *op,
		      long b, struct engine_curve *out)
{
	struct workload p = point_workload(w, op, b);
	struct engine_result r;
	engine_evaluate(c, &p, op->accel, &r);
	if (!r.fits || !(r.tokens_per_s_per_gpu > 0) || !(r.tokens_per_s_per_user > 0))
		return;
	struct engine_curve_point *pt = &out->pts[out->n++];
	pt->batch = r.batch_per_replica > 0 ? r.batch_per_replica : b;
	pt->tokens_per_s_per_gpu = r.tokens_per_s_per_gpu;
	pt->tokens_per_s_per_user = r.tokens_per_s_per_user;
	pt->ttft_ms = ttft_of(&r);
	pt->meets_targets = meets(w, pt->tokens_per_s_per_user, pt->ttft_ms);
}

bool engine_tradeoff_curve(const struct catalog *c, const struct workload *w, const struct engine_result *op,
			   struct engine_curve *out)
{
	memset(out, 0, sizeof *out);
	out->accel = op ? op->accel : NULL;
	out->target_tokens_per_s_per_user = w->tokens_per_s_per_user;
	out->target_ttft_ms = w->ttft_ms;
	if (!op || w->cls != WL_INFERENCE || !op->fits || !(op->tokens_per_s_per_gpu > 0))
		return false;
	struct engine_curve_point *o = &out->op;
	o->batch = op->batch_per_replica;
	o->tokens_per_s_per_gpu = op->tokens_per_s_per_gpu;
	o->tokens_per_s_per_user = op->tokens_per_s_per_user;
	o->ttft_ms = ttft_of(op);
	o->meets_targets = meets(w, o->tokens_per_s_per_user, o->ttft_ms);
	long room = op->max_batch_per_replica > 0 ? op->max_batch_per_replica : op->batch_per_replica;
	if (room < o->batch)
		room = o->batch;
	/* powers of two up to the KV room, the room's end and the operating
	 * batch, in order and once each */
	long bs[ENGINE_CURVE_MAX];
	size_t nb = 0;
	for (long b = 1; b < room && nb < ENGINE_CURVE_MAX - 2; b *= 2)
		bs[nb++] = b;
	bs[nb++] = room;
	if (o->batch > 0)
		bs[nb++] = o->batch;
	for (size_t i = 1; i < nb; i++)
		for (size_t j = i; j > 0 && bs[j - 1] > bs[j]; j--) {
			long t = bs[j];
			bs[j] = bs[j - 1];
			bs[j - 1] = t;
		}
	for (size_t i = 0; i < nb; i++)
		if (!i || bs[i] != bs[i - 1])
			add_point(c, w, op, bs[i], out);
	return out->n > 0;
}
