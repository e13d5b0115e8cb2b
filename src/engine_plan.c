/*
 * engine_plan: step 5 of the buyer's framework, "validate before you
 * scale".  For the chosen accelerator it lists the benchmark to run on the
 * candidate hardware, the metric, the engine's prediction and the
 * acceptance threshold.  Every figure comes from the engine's result; the
 * thresholds are fixed shares of the prediction (90 % for rates, 125 % for
 * latencies, 110 % for step times), widened to the far end of the error
 * band when the published validation results say the prediction can miss
 * by more (band_threshold()), or the user's own target.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

/* The next row; a plan never has more than ENGINE_PLAN_MAX rows (5 for
 * inference plus one all-reduce check), so the last slot is only reused if
 * that ever changes. */
static struct engine_plan_row *add(struct engine_plan *p)
{
	size_t i = p->n < ENGINE_PLAN_MAX ? p->n++ : ENGINE_PLAN_MAX - 1;
	struct engine_plan_row *row = &p->rows[i];
	memset(row, 0, sizeof *row);
	return row;
}

static void row_set(struct engine_plan_row *row, const char *metric, const char *unit,
		    double predicted, double threshold, bool higher)
{
	snprintf(row->metric, sizeof row->metric, "%s", metric);
	snprintf(row->unit, sizeof row->unit, "%s", unit);
	row->predicted = predicted;
	row->threshold = threshold;
	row->higher_is_better = higher;
}

/*
 * A threshold that allows for the model's known error: when the figure has
 * an error band (engine_result.band, from the published validation
 * results), the band's far end replaces the fixed share if it lies further
 * out, since a measurement inside the band is what published results say
 * such a prediction can miss by.  scale maps the band's figure onto this
 * row's (a step time shares the time to train's band).  Writes the note.
 */
static double band_threshold(const struct engine_band *b, double predicted, double scale,
			     double fixed, const char *fixed_text, bool higher, char *note, size_t n)
{
	if (!b || b->n <= 0 || !isfinite(predicted)) {
		snprintf(note, n, "threshold: %s (no published result covers this figure)", fixed_text);
		return fixed;
	}
	double end = (higher ? b->low : b->high) * scale;
	bool wider = higher ? end < fixed : end > fixed;
	if (wider) {
		snprintf(note, n, "threshold: the error band's %s end (%d published results); %s "
			 "would be %.4g", higher ? "low" : "high", b->n, fixed_text, fixed);
		return end;
	}
	snprintf(note, n, "threshold: %s (wider than the error band of %d published results)",
		 fixed_text, b->n);
	return fixed;
}

/* nccl-tests / rccl-tests all_reduce_perf: bus bandwidth per GPU, on the
 * GPUs the workload's collective spans (the tensor-parallel group when
 * serving, the node's GPUs when training), at what their links give that
 * many GPUs (eng_link_bw(): the GPU link inside its domain, one link per
 * peer of a full mesh, PCIe past a bridged pair), so that the threshold
 * is one the delivered hardware can meet. */
static void plan_allreduce(const struct catalog *c, const struct engine_result *res,
			   struct engine_plan *out, bool training)
{
	const char *tests = res->accel->stack == STACK_ROCM ? "rccl-tests" :
			    res->accel->stack == STACK_GAUDI ? "hccl_demo" : "nccl-tests";
	struct engine_plan_row *row;
	if (res->fabric && res->nodes > 1 && isfinite(res->nic_gb_s_per_gpu) && res->nic_gb_s_per_gpu > 0) {
		row = add(out);
		snprintf(row->benchmark, sizeof row->benchmark,
			 "%s all_reduce_perf across %d nodes (-b 8M -e 8G)", tests, res->nodes);
		row_set(row, "all-reduce bus bandwidth", "GB/s", res->nic_gb_s_per_gpu,
			0.9 * res->nic_gb_s_per_gpu, true);
		snprintf(row->notes, sizeof row->notes,
			 "per GPU over %s; below the threshold, check NIC/switch cabling and the NCCL topology",
			 res->fabric->name ? res->fabric->name : "the fabric");
		return;
	}
	int node = res->gpus < res->gpus_per_node || res->gpus_per_node < 1 ? res->gpus : res->gpus_per_node;
	int g = training ? node : res->tp > 1 ? res->tp : res->pp > 1 ? res->pp : 1;
	if (g < 2 || !res->platform)
		return;
	double bw = eng_link_bw(c, res->accel, res->platform, g) / 1e9;
	if (!(isfinite(bw) && bw > 0))
		return;
	const struct catalog_accel *a = res->accel;
	bool on_link = a->link_kind && g <= a->link_domain && a->link_gb_s > 0;
	row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark,
		 "%s all_reduce_perf on %d GPUs of one node (-b 8M -e 8G)", tests, g);
	row_set(row, "all-reduce bus bandwidth", "GB/s", bw, 0.9 * bw, true);
	if (on_link)
		snprintf(row->notes, sizeof row->notes, "per GPU over %s%s", a->link_kind,
			 training ? "" : ", one tensor-parallel group");
	else
		snprintf(row->notes, sizeof row->notes, "per GPU over PCIe: %d GPUs reach past the %d-GPU %s domain",
			 g, a->link_domain, a->link_kind ? a->link_kind : "link");
}

static void plan_memory(const struct engine_result *res, struct engine_plan *out)
{
	struct engine_plan_row *row = add(out);
	const char *smi = res->accel->stack == STACK_ROCM ? "rocm-smi" :
			  res->accel->stack == STACK_GAUDI ? "hl-smi" : "nvidia-smi";
	snprintf(row->benchmark, sizeof row->benchmark, "%s: peak memory per GPU during the run", smi);
	row_set(row, "memory per GPU", "GB", res->mem_per_gpu_gb, res->mem_avail_per_gpu_gb, false);
	snprintf(row->notes, sizeof row->notes, "%.0f%% of the %.0f GB usable; an OOM here means the sizing is off",
		 res->mem_util_pct, res->mem_avail_per_gpu_gb);
}

static void plan_inference(const struct catalog *c, const struct workload *w,
			   const struct engine_result *res, struct engine_plan *out)
{
	long conc = res->batch_per_replica * res->replicas;
	const char *engine = res->accel->stack == STACK_CUDA ? "vLLM / TensorRT-LLM" :
			     res->accel->stack == STACK_ROCM ? "vLLM (ROCm)" : "vLLM (Gaudi)";
	struct engine_plan_row *row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark,
		 "%s benchmark_serving: %ld in / %ld out, concurrency %ld", engine,
		 w->input_tokens, w->output_tokens, conc);
	char note[160];
	double thr = band_threshold(&res->band[BAND_OUTPUT_TOKENS_PER_S], res->output_tokens_per_s,
				    1, 0.9 * res->output_tokens_per_s, "90% of predicted", true,
				    note, sizeof note);
	row_set(row, "output tokens/s", "tok/s", res->output_tokens_per_s, thr, true);
	snprintf(row->notes, sizeof row->notes, "whole system: %d GPU%s as %d x TP%d%s; %s", res->gpus,
		 res->gpus == 1 ? "" : "s", res->replicas, res->tp, res->pp > 1 ? " with pipeline stages" : "",
		 note);

	/* The run is loaded, so its first-token times are the queueing model's
	 * percentiles at this load (Poisson arrivals, M/D/1 prefill queue), the
	 * figures recommend reports; ttft_ms is one request on an idle replica. */
	double p50 = res->ttft_p50_ms > 0 ? res->ttft_p50_ms : res->ttft_ms;
	double p99 = res->ttft_p99_ms > 0 ? res->ttft_p99_ms : p50;
	/* the band of the unloaded time, scaled to the loaded one */
	double ttft_thr = w->ttft_ms > 0 ? w->ttft_ms
		: band_threshold(&res->band[BAND_TTFT_MS], p99, res->ttft_ms > 0 ? p99 / res->ttft_ms : 1,
				 1.25 * p99, "1.25 x predicted", false, note, sizeof note);
	row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark, "same run: time to first token, p50");
	row_set(row, "TTFT p50", "ms", p50, ttft_thr, false);
	snprintf(row->notes, sizeof row->notes, "%s", w->ttft_ms > 0 ? "threshold: your TTFT target"
			 : note);
	row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark, "same run: time to first token, p99");
	row_set(row, "TTFT p99", "ms", p99, ttft_thr, false);
	snprintf(row->notes, sizeof row->notes,
		 "at this load (queueing included); one request alone: %.0f ms", res->ttft_ms);

	row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark, "same run: output tokens/s per user (1 / TPOT)");
	double tps_thr = w->tokens_per_s_per_user > 0 ? w->tokens_per_s_per_user
		: band_threshold(&res->band[BAND_TOKENS_PER_S_PER_USER], res->tokens_per_s_per_user, 1,
				 0.9 * res->tokens_per_s_per_user, "90% of predicted", true, note,
				 sizeof note);
	row_set(row, "tokens/s per user", "tok/s", res->tokens_per_s_per_user, tps_thr, true);
	snprintf(row->notes, sizeof row->notes, "%s", w->tokens_per_s_per_user > 0
			 ? "threshold: your per-user target" : note);
	plan_memory(res, out);
	plan_allreduce(c, res, out, false);
}

static void plan_training(const struct catalog *c, const struct workload *w,
			  const struct engine_result *res, struct engine_plan *out)
{
	struct engine_plan_row *row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark,
		 "100 training steps: seq %ld, %.0f tokens/step, TP%d PP%d DP%d ZeRO-%d",
		 w->seq_len, w->global_batch_tokens, res->tp, res->pp, res->dp, res->zero_stage);
	char note[160];
	/* The step time moves with the time to train: same band, rescaled. */
	double scale = res->train_hours > 0 ? res->step_s / res->train_hours : NAN;
	double step_thr = band_threshold(&res->band[BAND_TRAIN_HOURS], res->step_s, scale,
					 1.1 * res->step_s, "1.1 x predicted", false, note, sizeof note);
	row_set(row, "step time", "s", res->step_s, step_thr, false);
	snprintf(row->notes, sizeof row->notes, "median of steps 10-100 (skip warm-up), %d GPU%s; %s",
		 res->gpus, res->gpus == 1 ? "" : "s", note);

	row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark, "same run: model FLOPs utilisation");
	row_set(row, "MFU", "%", 100.0 * res->mfu, 90.0 * res->mfu, true);
	snprintf(row->notes, sizeof row->notes,
		 "model FLOPs (6ND%s + attention) / (step time x GPUs x %s peak)",
		 w->cls == WL_FINETUNE && w->method != FT_FULL ? ", 4ND for LoRA" : "",
		 precision_name(res->precision_used));

	row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark, "same run: time to train (extrapolated)");
	double thr = w->target_hours > 0 ? w->target_hours
		: band_threshold(&res->band[BAND_TRAIN_HOURS], res->train_hours, 1,
				 1.1 * res->train_hours, "1.1 x predicted", false, note, sizeof note);
	row_set(row, "time to train", "h", res->train_hours, thr, false);
	snprintf(row->notes, sizeof row->notes, "%s",
		 w->target_hours > 0 ? "threshold: your target" : note);
	plan_memory(res, out);
	plan_allreduce(c, res, out, true);
}

void engine_validation_plan(const struct catalog *c, const struct workload *w,
			    const struct engine_result *res, struct engine_plan *out)
{
	memset(out, 0, sizeof *out);
	if (!res || !res->accel || res->gpus < 1)
		return;
	if (w->cls == WL_INFERENCE)
		plan_inference(c, w, res, out);
	else
		plan_training(c, w, res, out);
}

/* ---- the shared cluster (issue 18 item 5) ---- */

static double serving_tokens(const struct engine_cluster_item *items, size_t n, int *count)
{
	double tok = 0;
	*count = 0;
	for (size_t i = 0; i < n; i++) {
		const struct engine_result *r = items[i].used ? items[i].used : items[i].r;
		if (r->cls == WL_INFERENCE && isfinite(r->output_tokens_per_s)) {
			tok += r->output_tokens_per_s;
			(*count)++;
		}
	}
	return tok;
}

static void plan_all_serving(const struct engine_cluster *cl, double tok, int count,
			     struct engine_plan *out)
{
	struct engine_plan_row *row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark,
		 "benchmark_serving for the %d serving workloads at once, each at its own load", count);
	row_set(row, "output tokens/s, all serving", "tok/s", tok, 0.9 * tok, true);
	snprintf(row->notes, sizeof row->notes,
		 "%d serving GPU%s; each workload's own plan holds its latency targets under this load; "
		 "threshold: 90%% of the sum of their predictions", cl->serving_gpus, eng_s(cl->serving_gpus));
}

static void plan_serving_while_training(const struct engine_cluster *cl, const char *name,
					double tok, struct engine_plan *out)
{
	int borrowed = cl->training_gpus < cl->serving_gpus ? cl->training_gpus : cl->serving_gpus;
	struct engine_plan_row *row = add(out);
	if (borrowed >= cl->serving_gpus) {
		/* Serving stops while the job runs: what can fail is serving
		 * coming back (models reloaded, MIG instances recreated). */
		snprintf(row->benchmark, sizeof row->benchmark, "%.32s on all %d GPUs, then serving "
			 "at load again", name, cl->total.gpus);
		row_set(row, "output tokens/s, all serving", "tok/s", tok, 0.9 * tok, true);
		snprintf(row->notes, sizeof row->notes,
			 "training takes every serving GPU: serving stops while it runs (%.1f%% of a week), "
			 "so schedule it outside serving hours; threshold: 90%% of predicted",
			 cl->serving_headroom_pct);
		return;
	}
	double left = tok * (cl->serving_gpus - borrowed) / cl->serving_gpus;
	snprintf(row->benchmark, sizeof row->benchmark, "serving at load while %.32s runs on %d of "
		 "%d serving GPUs", name, borrowed % 100000, cl->serving_gpus % 100000);
	row_set(row, "output tokens/s, all serving", "tok/s", left, 0.9 * left, true);
	snprintf(row->notes, sizeof row->notes,
		 "on the serving GPUs training leaves; it costs %.1f%% of serving capacity over a week; "
		 "threshold: 90%% of predicted", cl->serving_headroom_pct);
}

static void plan_training_beside(const struct engine_cluster *cl, const char *name,
				 const struct engine_result *r, struct engine_plan *out)
{
	struct engine_plan_row *row = add(out);
	snprintf(row->benchmark, sizeof row->benchmark, "%.32s: 100 training steps while serving runs at "
		 "load", name);
	row_set(row, "step time", "s", r->step_s, 1.1 * r->step_s, false);
	snprintf(row->notes, sizeof row->notes,
		 "on its own %d of the cluster's %d GPUs: a step slower than in its own plan means it "
		 "contends with serving (storage, network); threshold: 1.1 x predicted", r->gpus,
		 cl->total.gpus);
}

void engine_cluster_plan(const struct catalog *c, const struct engine_cluster_item *items, size_t n,
			 const struct engine_cluster *cl, struct engine_plan *out)
{
	memset(out, 0, sizeof *out);
	if (!cl->fits || !cl->total.accel || cl->total.gpus < 1)
		return;
	int count;
	double tok = serving_tokens(items, n, &count);
	if (count > 0)
		plan_all_serving(cl, tok, count, out);
	for (size_t i = 0; i < n && out->n < ENGINE_PLAN_MAX - 1; i++) {
		const struct engine_result *r = items[i].used ? items[i].used : items[i].r;
		if (r->cls == WL_INFERENCE)
			continue;
		const char *name = items[i].name ? items[i].name : "training";
		if (cl->time_shared && count > 0)
			plan_serving_while_training(cl, name, tok, out);
		else if (count > 0)
			plan_training_beside(cl, name, r, out);
	}
	plan_allreduce(c, &cl->total, out, cl->training_gpus > 0);
}
