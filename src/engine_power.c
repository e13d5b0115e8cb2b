/*
 * engine_power: the clock a board sustains under its power limit.
 *
 * A datasheet peak is the boost clock times the units; a board holds that
 * clock under a dense matrix load only if its power limit allows.  Parts
 * of one family share a die (or its process and design), so they need
 * about the same energy per operation: the family member with the most
 * board power per unit of peak sets what the design sustains, and a part
 * with less, such as a 350-400 W PCIe or NVL card of a 700 W SXM die,
 * lowers its clock until it fits.  With power ~ clock^k (dynamic power
 * C V^2 f, the voltage falling with the clock: k = 3 in the cube law,
 * nearer 1 where the voltage is already at its floor), the sustained share
 * of its own peak is (rho / rho_max)^(1/k), rho = power / peak, at most 1.
 * k is defaults.power_clock_exponent, set from a calibration entry.
 */
#include <string.h>

#include "engine_internal.h"

/* "Hopper (GH100)" and "Hopper (GH100)" are one family; so are "Ada
 * Lovelace (AD102)" and "Ada Lovelace (AD104)": the name before "(". */
static size_t family_len(const char *arch)
{
	size_t n = strcspn(arch, "(");
	while (n > 0 && arch[n - 1] == ' ')
		n--;
	return n;
}

/* Board power per dense 16-bit TFLOPS (every accelerator has a 16-bit
 * peak; the ratio is the same at any precision the units double at). */
static double rho(const struct catalog_accel *a)
{
	double pk = a->peak_tflops[PREC_BF16] > 0 ? a->peak_tflops[PREC_BF16] : a->peak_tflops[PREC_FP16];
	return pk > 0 && a->power_w > 0 ? a->power_w / pk : 0;
}

double eng_power_clock(const struct catalog *c, const struct catalog_accel *a)
{
	double k = c->defaults.power_clock_exponent.value;
	double r = rho(a);
	if (!(k > 0) || !(r > 0) || !a->architecture)
		return 1.0;
	size_t n = family_len(a->architecture);
	double best = r;
	for (size_t i = 0; i < c->n_accels; i++) {
		const struct catalog_accel *b = &c->accels[i];
		if (b == a || !b->architecture || family_len(b->architecture) != n ||
		    strncmp(b->architecture, a->architecture, n))
			continue;
		double rb = rho(b);
		if (rb > best)
			best = rb;
	}
	return best > r ? pow(r / best, 1.0 / k) : 1.0;
}
