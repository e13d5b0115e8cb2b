/*
 * The serving trade-off curve (engine_tradeoff_curve(), engine.h): on
 * every accelerator that serves the default workload the points run in
 * batch order, throughput per GPU never falls and speed per user never
 * rises as the batch grows, the operating point's batch is on the curve
 * with its figures close to the result's, and each point's meets_targets
 * is what the targets say of its own figures.
 */
#include <math.h>
#include <stdlib.h>

#include "engine.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

START_TEST(every_serving_result_has_a_sane_curve)
{
	struct workload w;
	engine_workload_init(&w, cat);
	struct engine_report rep;
	ck_assert(engine_report_init(&rep, cat));
	engine_run(cat, &w, &rep);
	size_t curves = 0;
	for (size_t i = 0; i < rep.n; i++) {
		const struct engine_result *r = &rep.results[i];
		struct engine_curve cv;
		bool ok = engine_tradeoff_curve(cat, &w, r, &cv);
		if (!r->fits) {
			ck_assert_msg(!ok && cv.n == 0, "%s: a curve for a result that does not fit", r->accel->id);
			continue;
		}
		ck_assert_msg(ok && cv.n >= 2, "%s: %zu points", r->accel->id, cv.n);
		curves++;
		ck_assert(cv.n <= ENGINE_CURVE_MAX);
		ck_assert(cv.target_tokens_per_s_per_user == w.tokens_per_s_per_user);
		ck_assert_int_eq(cv.pts[0].batch, 1);
		bool op_on = false;
		for (size_t k = 0; k < cv.n; k++) {
			const struct engine_curve_point *p = &cv.pts[k];
			if (k) {
				ck_assert_msg(p->batch > cv.pts[k - 1].batch, "%s: batch order", r->accel->id);
				ck_assert_msg(p->tokens_per_s_per_gpu >= cv.pts[k - 1].tokens_per_s_per_gpu * 0.999,
					      "%s: per GPU falls from batch %ld to %ld", r->accel->id,
					      cv.pts[k - 1].batch, p->batch);
				ck_assert_msg(p->tokens_per_s_per_user <= cv.pts[k - 1].tokens_per_s_per_user * 1.001,
					      "%s: per user rises from batch %ld to %ld", r->accel->id,
					      cv.pts[k - 1].batch, p->batch);
			}
			bool want = p->tokens_per_s_per_user >= w.tokens_per_s_per_user &&
				    (!(w.ttft_ms > 0) || p->ttft_ms <= w.ttft_ms);
			ck_assert_msg(p->meets_targets == want, "%s batch %ld: meets %d", r->accel->id, p->batch,
				      p->meets_targets);
			if (p->batch == r->batch_per_replica) {
				op_on = true;
				/* one replica at the operating batch runs as each of the result's */
				ck_assert_msg(fabs(p->tokens_per_s_per_user / r->tokens_per_s_per_user - 1) < 0.15,
					      "%s: %.2f tok/s per user on the curve, %.2f in the result", r->accel->id,
					      p->tokens_per_s_per_user, r->tokens_per_s_per_user);
			}
		}
		ck_assert_msg(op_on, "%s: the operating batch %ld is not on the curve", r->accel->id,
			      r->batch_per_replica);
		ck_assert(cv.op.batch == r->batch_per_replica && cv.op.tokens_per_s_per_gpu == r->tokens_per_s_per_gpu);
	}
	ck_assert_msg(curves >= 10, "only %zu accelerators have a curve", curves);
	engine_report_fini(&rep);
}
END_TEST

/* A bigger batch pays off: at the KV room's end one H100 replica makes
 * several times the tokens per GPU of batch 1, each user far slower.  TP4
 * is forced so that the replica has the room (at TP2 Llama 2 70B at fp16
 * leaves it 42 sequences). */
START_TEST(batch_trades_speed_for_throughput)
{
	struct workload w;
	engine_workload_init(&w, cat);
	w.accel = catalog_accel(cat, "h100-sxm");
	w.tp = 4;
	struct engine_result r;
	engine_evaluate(cat, &w, w.accel, &r);
	ck_assert_int_eq(r.tp, 4);
	struct engine_curve cv;
	ck_assert(engine_tradeoff_curve(cat, &w, &r, &cv));
	const struct engine_curve_point *lo = &cv.pts[0], *hi = &cv.pts[cv.n - 1];
	ck_assert_int_eq(hi->batch, r.max_batch_per_replica);
	ck_assert(hi->tokens_per_s_per_gpu > 5 * lo->tokens_per_s_per_gpu);
	ck_assert(hi->tokens_per_s_per_user < lo->tokens_per_s_per_user / 2);
	ck_assert(lo->meets_targets && !hi->meets_targets);
}
END_TEST

START_TEST(training_has_no_curve)
{
	struct workload w;
	engine_workload_init(&w, cat);
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	struct engine_result r;
	engine_evaluate(cat, &w, catalog_accel(cat, "h100-sxm"), &r);
	struct engine_curve cv;
	ck_assert(!engine_tradeoff_curve(cat, &w, &r, &cv));
	ck_assert(cv.n == 0);
	ck_assert(!engine_tradeoff_curve(cat, &w, NULL, &cv));
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("curve");
	TAP_ADD(s, every_serving_result_has_a_sane_curve);
	TAP_ADD(s, batch_trades_speed_for_throughput);
	TAP_ADD(s, training_has_no_curve);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
