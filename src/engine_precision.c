/*
 * engine_precision: which number format an accelerator really runs the
 * workload at.  A card without a peak for the requested format falls back
 * to the next one it has, and the sizing then uses the fallback for both
 * storage and compute (an A100 asked for fp8 stores and computes bf16):
 *
 *   fp8  -> bf16            (A100, MI250X have no fp8 units)
 *   fp4  -> fp8 -> bf16
 *   int8 -> bf16            (W8A8 needs int8 tensor units)
 *   fp16 -> bf16, bf16 -> fp16
 *   fp32 runs its matrix products as tf32 where the card has it
 *   int4 (alias w4a16) is weight-only (AWQ/GPTQ): 0.5 byte per weight,
 *        compute at bf16/fp16 after dequantisation: not a fallback;
 *   w8a16 the same with fp8 weights, 1 byte each, on any card (no fp8
 *        units needed).
 *   mxfp4 is what gpt-oss ships: its routed experts in MXFP4 (4.25 bits a
 *        weight), every other weight in bf16 (TensorRT-LLM
 *        examples/models/core/gpt_oss/README.md: "MoE weights quantized
 *        with mxfp4. All the other weights are in bf16").  The experts are
 *        multiplied with mxfp8 activations on a card with fp4 units
 *        (Blackwell, "UTCQMMA": the fp8 rate) and dequantised to 16 bit
 *        with bf16 activations on one without (Hopper, "simulated mxfp4,
 *        HGMMA"); the rest runs at 16 bit.  A dense model has no experts,
 *        so all of it is MXFP4 at the experts' rate.
 *
 * A mixed checkpoint (workload.effective_bits) is what ModelOpt's
 *   AutoQuantize search writes: each linear layer in the requested
 *   format or the next wider one (NVIDIA's MLPerf Mixtral: NVFP4 or FP8
 *   layers, "--effective_bits=6 ... --fp4=True", v5.1
 *   closed/NVIDIA/code/mixtral-8x7b/modelopt/README.md).  The search
 *   counts a weight's element bits, (exponent + mantissa + 1) of its
 *   format and 16 unquantised (modelopt/torch/quantization/algorithms.py,
 *   estimate_quant_compression), so a share (E - lo) / (hi - lo) of the
 *   weights is wide.  Which layers it picks is not published: the split
 *   is taken as the same in every layer, so every part stores the
 *   split's mean bytes and its products take the time of each share at
 *   its own format's rate (engine_infer.c).
 *
 * The KV cache keeps its requested format: it is storage only and serving
 * engines convert it on the fly (vLLM's fp8 KV cache also runs on Ampere).
 */
#include "engine_internal.h"

static double peak(const struct catalog_accel *a, enum precision p)
{
	return p >= 0 && p < PREC_COUNT ? a->peak_tflops[p] : 0;
}

/* First precision in the list the accelerator has a peak for, or -1. */
static int first_with_peak(const struct catalog_accel *a, const enum precision *list, int n)
{
	for (int i = 0; i < n; i++)
		if (peak(a, list[i]) > 0)
			return (int)list[i];
	return -1;
}

static void resolve_mix(const struct workload *w, const struct catalog_accel *a, struct eng_precision *out);

/* Attention has no 4-bit kernels: TensorRT-LLM multiplies it in FP8 beside
 * NVFP4 weight GEMMs (NVIDIA's MLPerf Blackwell configs: precision 'fp4'
 * with 'use_fp8_context_fmha': 'enable' and an fp8 KV cache, Cisco's copy
 * of the v5.0 code, closed/Cisco/configs/llama3_1-405b/Offline/__init__.py,
 * ntuhpc/mlperf_inference_results_v5.0 @cf354115; the same flags in Cisco's
 * v6.0 B300 configs).  A card without FP8 units keeps the compute format. */
static void resolve_attention(const struct catalog_accel *a, struct eng_precision *out)
{
	out->attn_compute = out->compute == PREC_FP4 && peak(a, PREC_FP8) > 0 ? PREC_FP8 : out->compute;
	out->attn_peak_flops = peak(a, out->attn_compute) * 1e12;
}

void eng_precision_resolve(const struct workload *w, const struct catalog_accel *a,
			   struct eng_precision *out)
{
	enum precision req = w->precision;
	out->requested = req;
	out->used = req;
	out->compute = req;
	out->fallback = false;

	int got;
	int expert = -1;	/* the experts' own compute, mxfp4 only */
	switch (req) {
	case PREC_FP32: {
		static const enum precision l[] = { PREC_TF32, PREC_FP32, PREC_FP64, PREC_BF16 };
		got = first_with_peak(a, l, 4);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		break;
	}
	case PREC_BF16: {
		static const enum precision l[] = { PREC_BF16, PREC_FP16 };
		got = first_with_peak(a, l, 2);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		out->used = out->compute;
		break;
	}
	case PREC_FP16: {
		static const enum precision l[] = { PREC_FP16, PREC_BF16 };
		got = first_with_peak(a, l, 2);
		out->compute = got >= 0 ? (enum precision)got : PREC_FP16;
		out->used = out->compute;
		break;
	}
	case PREC_FP8: {
		static const enum precision l[] = { PREC_FP8, PREC_BF16, PREC_FP16 };
		got = first_with_peak(a, l, 3);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		out->used = out->compute;
		break;
	}
	case PREC_FP4: {
		static const enum precision l[] = { PREC_FP4, PREC_FP8, PREC_BF16, PREC_FP16 };
		got = first_with_peak(a, l, 4);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		out->used = out->compute;
		break;
	}
	case PREC_MXFP4: {
		static const enum precision l16[] = { PREC_BF16, PREC_FP16 };
		static const enum precision lq[] = { PREC_FP8, PREC_FP4 };
		got = first_with_peak(a, l16, 2);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		got = peak(a, PREC_FP4) > 0 ? first_with_peak(a, lq, 2) : -1;
		expert = got >= 0 ? (enum precision)got : out->compute;
		break;
	}
	case PREC_INT8: {
		static const enum precision l[] = { PREC_INT8, PREC_BF16, PREC_FP16 };
		got = first_with_peak(a, l, 3);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		out->used = out->compute;
		break;
	}
	case PREC_INT4:
	case PREC_W8A16: {
		/* Weight-only: stored at 4 or 8 bit, multiplied at 16 bit, so
		 * the weights' bytes are the format's and the compute (peak and
		 * efficiency) the 16-bit one's. */
		static const enum precision l[] = { PREC_BF16, PREC_FP16 };
		got = first_with_peak(a, l, 2);
		out->compute = got >= 0 ? (enum precision)got : PREC_BF16;
		out->used = req;
		break;
	}
	default:
		out->compute = PREC_BF16;
		out->used = PREC_BF16;
		break;
	}
	out->fallback = out->used != req;
	out->weight_bytes = precision_bytes(out->used);
	out->kv_bytes = precision_bytes(w->kv_precision);
	out->peak_flops = peak(a, out->compute) * 1e12;
	out->shared_bytes = out->expert_bytes = out->weight_bytes;
	out->expert_compute = out->compute;
	out->expert_peak_flops = out->peak_flops;
	out->wide_share = 0;
	out->wide = out->compute;
	out->wide_peak_flops = out->peak_flops;
	resolve_mix(w, a, out);
	resolve_attention(a, out);
	if (expert < 0)
		return;
	const struct catalog_model *m = w->model;
	out->expert_compute = (enum precision)expert;
	out->expert_peak_flops = peak(a, out->expert_compute) * 1e12;
	if (m && eng_params_experts(m) > 0 && m->params > 0) {
		out->shared_bytes = precision_bytes(PREC_BF16);
		out->weight_bytes = eng_weights_bytes(m, req, false) / m->params;
	} else {
		out->compute = out->expert_compute;
		out->peak_flops = out->expert_peak_flops;
		resolve_attention(a, out);
	}
}

bool engine_mix_bits(enum precision p, enum precision *wide, double *lo_bits, double *hi_bits)
{
	enum precision w = p == PREC_FP4 ? PREC_FP8 : p == PREC_FP8 ? PREC_BF16 : PREC_COUNT;
	if (w == PREC_COUNT)
		return false;
	/* the element bits the search counts are the catalog's stored bits
	 * (fp4 0.5 byte, fp8 1, bf16 2: no scales in either) */
	*wide = w;
	*lo_bits = precision_bytes(p) * 8;
	*hi_bits = precision_bytes(w) * 8;
	return true;
}

/* The split of a mixed checkpoint, where the card runs the requested
 * format itself (a fallback stores and computes everything in the
 * fallback's format, as for any checkpoint). */
static void resolve_mix(const struct workload *w, const struct catalog_accel *a, struct eng_precision *out)
{
	enum precision wide;
	double lo, hi;
	if (!(w->effective_bits > 0) || out->fallback || out->compute != w->precision ||
	    !engine_mix_bits(w->precision, &wide, &lo, &hi))
		return;
	/* 16-bit layers run at bf16, or fp16 where the card has only that */
	if (wide == PREC_BF16 && peak(a, PREC_BF16) <= 0 && peak(a, PREC_FP16) > 0)
		wide = PREC_FP16;
	if (peak(a, wide) <= 0)
		return;
	double f = eng_fmin(1.0, eng_fmax(0.0, (w->effective_bits - lo) / (hi - lo)));
	out->wide_share = f;
	out->wide = wide;
	out->wide_peak_flops = peak(a, wide) * 1e12;
	out->weight_bytes = (1.0 - f) * precision_bytes(w->precision) + f * precision_bytes(wide);
	out->shared_bytes = out->expert_bytes = out->weight_bytes;
}

/* Training at fp4 (NVFP4) runs at the FP4 peak only where a published
 * NVFP4 training result sets the share of it the training math reaches
 * (efficiency.training_fp4, docs/accuracy.md); elsewhere the request
 * trains at FP8, a fallback like a missing peak's. */
void eng_precision_resolve_train(const struct workload *w, const struct catalog_accel *a,
				 struct eng_precision *out)
{
	eng_precision_resolve(w, a, out);
	if (out->compute != PREC_FP4 || a->eff_training_fp4.value > 0)
		return;
	struct workload fp8 = *w;
	fp8.precision = PREC_FP8;
	eng_precision_resolve(&fp8, a, out);
	out->requested = w->precision;
	out->fallback = true;
}
