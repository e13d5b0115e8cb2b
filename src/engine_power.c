/*
 * engine_power: the clock a board sustains under its power limit.
 *
 * A datasheet peak is the boost clock times the units; a board holds that
 * clock under a dense matrix load only if its power limit allows.  Parts
 * built on one die (the same architecture string in the catalog) need
 * about the same energy per operation: the one with the most board power
 * per unit of peak sets what the die sustains, and a part
 * with less, such as a 350-400 W PCIe or NVL card of a 700 W SXM die,
 * lowers its clock until it fits.  With power ~ clock^k (dynamic power
 * C V^2 f, the voltage falling with the clock: k = 3 in the cube law,
 * nearer 1 where the voltage is already at its floor), the sustained share
 * of its own peak is (rho / rho_max)^(1/k), rho = power / peak, at most 1.
 * k is defaults.power_clock_exponent, set from a calibration entry.
 */
#include "engine_internal.h"

double eng_power_clock(const struct catalog *c, const struct catalog_accel *a)
{
	double k = c->defaults.power_clock_exponent.value;
	double r = catalog_power_per_tflops(a);
	if (!(k > 0) || !(r > 0) || !a->architecture)
		return 1.0;
	double best = catalog_family_rho_max(c, a);
	return best > r ? pow(r / best, 1.0 / k) : 1.0;
}
