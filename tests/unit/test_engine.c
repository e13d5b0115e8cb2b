#include "tap.h"
START_TEST(placeholder) { ck_assert_int_eq(1, 1); }
END_TEST
int main(void)
{
	Suite *s = suite_create("placeholder");
	TCase *tc = tcase_create("placeholder");
	tcase_add_test(tc, placeholder);
	suite_add_tcase(s, tc);
	return tap_run(s);
}
